import { CoalescedRun } from './coalesced-run';

describe('CoalescedRun', () => {
  it('runs once more after the current run however many requests came during it, never two at once', async () => {
    let runs = 0;
    let active = 0;
    let maxActive = 0;
    let release!: () => void;
    const task = async () => {
      runs++;
      active++;
      maxActive = Math.max(maxActive, active);
      if (runs === 1) await new Promise<void>((r) => (release = r));
      active--;
    };
    const run = new CoalescedRun(task, () => undefined);
    const first = run.request();
    const during = [run.request(), run.request(), run.request()];
    expect(during.every((p) => p === first)).toBe(true);
    release();
    await first;
    await run.current;
    expect(runs).toBe(2);
    expect(maxActive).toBe(1);
    expect(run.current).toBeUndefined();
  });

  it('reports a failing run and runs again on the next request', async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const run = new CoalescedRun(async () => {
      calls++;
      if (calls === 1) throw new Error('boom');
    }, (err) => errors.push(err));
    await run.request();
    await run.request();
    expect(errors).toHaveLength(1);
    expect(calls).toBe(2);
  });

  it('runs nothing while disabled, the coalesced re-run included', async () => {
    let enabled = true;
    let calls = 0;
    let release!: () => void;
    const run = new CoalescedRun(async () => {
      calls++;
      if (calls === 1) await new Promise<void>((r) => (release = r));
    }, () => undefined, () => enabled);
    const first = run.request();
    void run.request();
    enabled = false;
    release();
    await first;
    await new Promise((r) => setImmediate(r));
    expect(calls).toBe(1);
    await run.request();
    expect(calls).toBe(1);
  });
});

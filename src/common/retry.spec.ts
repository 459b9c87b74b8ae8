import { retry } from './retry';

describe('retry', () => {
  it('retries what shouldRetry accepts, waiting each delay, and returns the first success', async () => {
    let calls = 0;
    const seen: unknown[] = [];
    const result = await retry(
      async () => {
        if (++calls < 3) throw new Error(`fail ${calls}`);
        return 'ok';
      },
      { delaysMs: [1, 1, 1], onRetry: (err) => seen.push((err as Error).message) },
    );
    expect(result).toBe('ok');
    expect(calls).toBe(3);
    expect(seen).toEqual(['fail 1', 'fail 2']);
  });

  it('throws the last error once the delays run out', async () => {
    let calls = 0;
    await expect(retry(async () => Promise.reject(new Error(`fail ${++calls}`)), { delaysMs: [1, 1] })).rejects.toThrow('fail 3');
  });

  it('throws at once what shouldRetry refuses, or when the signal is aborted', async () => {
    let calls = 0;
    await expect(retry(async () => Promise.reject(new Error(`no ${++calls}`)), { delaysMs: [1, 1], shouldRetry: () => false })).rejects.toThrow('no 1');
    const aborted = AbortSignal.abort();
    await expect(retry(async () => Promise.reject(new Error(`stop ${++calls}`)), { delaysMs: [1, 1], signal: aborted })).rejects.toThrow('stop 2');
  });
});

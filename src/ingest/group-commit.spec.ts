import { GroupCommit, GroupCommitOptions, InsertBatch, QueueFullError } from './group-commit';

/** A fake insert: records each call's rows and settles when the test says so. */
class FakeStore {
  calls: number[][] = [];
  batches: InsertBatch[] = [];
  private pending: Array<{ resolve(): void; reject(err: Error): void }> = [];
  insert = (rows: number[], batch: InsertBatch): Promise<void> => {
    this.calls.push([...rows]);
    this.batches.push(batch);
    return new Promise((resolve, reject) => this.pending.push({ resolve, reject }));
  };
  get waiting(): number {
    return this.pending.length;
  }
  succeed(): void {
    this.pending.shift()!.resolve();
  }
  fail(message = 'insert failed'): void {
    this.pending.shift()!.reject(new Error(message));
  }
}

const tick = () => new Promise((r) => setImmediate(r));

function setup(options: Partial<GroupCommitOptions<number>> = {}) {
  const store = new FakeStore();
  const commit = new GroupCommit<number>(store.insert, { flushRows: 100, flushMs: 20, maxQueueRows: 1000, maxInFlight: 1, ...options });
  return { store, commit };
}

/** Tracks whether a promise has settled, and how. */
function track(p: Promise<void>) {
  const state = { settled: false, error: undefined as unknown };
  p.then(
    () => (state.settled = true),
    (err) => ((state.settled = true), (state.error = err)),
  );
  return state;
}

describe('GroupCommit', () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick'] }));
  afterEach(() => jest.useRealTimers());

  it('shares one insert among concurrent writers once flushMs has passed', async () => {
    const { store, commit } = setup();
    const a = track(commit.write([1, 2]));
    const b = track(commit.write([3]));
    await tick();
    expect(store.calls).toEqual([]);
    jest.advanceTimersByTime(20);
    expect(store.calls).toEqual([[1, 2, 3]]);
    await tick();
    expect(a.settled || b.settled).toBe(false); // not acknowledged before the insert succeeded
    store.succeed();
    await tick();
    expect(a).toEqual({ settled: true, error: undefined });
    expect(b).toEqual({ settled: true, error: undefined });
  });

  it('flushes at once when flushRows rows wait, without waiting for the timer', async () => {
    const { store, commit } = setup({ flushRows: 3 });
    void commit.write([1, 2]);
    expect(store.calls).toEqual([]);
    void commit.write([3]);
    expect(store.calls).toEqual([[1, 2, 3]]);
  });

  it('never splits a writer\'s rows across inserts, and keeps batches near flushRows', async () => {
    const { store, commit } = setup({ flushRows: 4, maxInFlight: 3 });
    void commit.write([1, 2, 3]);
    void commit.write([4, 5]); // 5 rows waiting ≥ 4: the first writer alone fills a batch
    void commit.write([6, 7, 8, 9, 10, 11]); // bigger than flushRows: goes whole
    jest.advanceTimersByTime(20);
    expect(store.calls).toEqual([[1, 2, 3], [4, 5], [6, 7, 8, 9, 10, 11]]);
  });

  it('fails every writer of a failed insert, and only those', async () => {
    const { store, commit } = setup({ flushRows: 2 });
    const a = track(commit.write([1, 2]));
    const b = track(commit.write([3, 4]));
    expect(store.calls).toEqual([[1, 2]]);
    store.fail('boom');
    await tick();
    expect((a.error as Error).message).toBe('boom');
    expect(store.calls).toEqual([[1, 2], [3, 4]]); // the next batch went as soon as the slot freed
    store.succeed();
    await tick();
    expect(b).toEqual({ settled: true, error: undefined });
  });

  it('groups what arrives while an insert runs into the next one (one in flight)', async () => {
    const { store, commit } = setup({ flushRows: 2, maxInFlight: 1 });
    void commit.write([1, 2]);
    void commit.write([3]);
    void commit.write([4]);
    void commit.write([5]);
    expect(store.calls).toEqual([[1, 2]]);
    store.succeed();
    await tick();
    expect(store.calls).toEqual([[1, 2], [3, 4]]);
    store.succeed();
    await tick();
    // [5] was already due (it queued behind a full batch): it goes as soon as the slot frees.
    expect(store.calls).toEqual([[1, 2], [3, 4], [5]]);
    store.succeed();
    await tick();
    void commit.write([6]); // a fresh write below flushRows waits for its timer again
    expect(store.calls).toHaveLength(3);
    jest.advanceTimersByTime(20);
    expect(store.calls).toEqual([[1, 2], [3, 4], [5], [6]]);
  });

  it('refuses a write that would overflow maxQueueRows, counting rows in flight, and accepts again once they are stored', async () => {
    const { store, commit } = setup({ flushRows: 5, maxQueueRows: 8 });
    void commit.write([1, 2, 3, 4, 5]); // in flight
    void commit.write([6, 7]); // waiting
    expect(commit.pendingRows).toBe(7);
    await expect(commit.write([8, 9])).rejects.toBeInstanceOf(QueueFullError);
    const fits = track(commit.write([8]));
    store.succeed();
    await tick();
    expect(commit.pendingRows).toBe(3);
    await expect(Promise.race([commit.write([9, 10, 11, 12, 13]).then(() => 'stored'), tick().then(() => 'queued')])).resolves.toBe('queued');
    expect(fits.settled).toBe(false);
  });

  it('drain flushes everything at once and resolves only when all is stored; later writes flush at once', async () => {
    const { store, commit } = setup({ flushMs: 10_000, maxInFlight: 1 });
    const a = track(commit.write([1]));
    const drained = track(commit.drain());
    expect(store.calls).toEqual([[1]]);
    const late = track(commit.write([2]));
    await tick();
    expect(drained.settled).toBe(false);
    store.succeed();
    await tick();
    expect(a.settled).toBe(true);
    expect(store.calls).toEqual([[1], [2]]);
    expect(drained.settled).toBe(false);
    store.succeed();
    await tick();
    expect(late).toEqual({ settled: true, error: undefined });
    expect(drained).toEqual({ settled: true, error: undefined });
  });

  it('drain with nothing pending resolves at once; an empty write resolves without an insert', async () => {
    const { store, commit } = setup();
    await commit.write([]);
    await commit.drain();
    expect(store.calls).toEqual([]);
  });

  describe('idleFlush', () => {
    it('in a quiet moment inserts at once; what arrives meanwhile, or soon after, gathers for flushMs as before', async () => {
      const { store, commit } = setup({ idleFlush: true, maxInFlight: 1 });
      const a = track(commit.write([1]));
      expect(store.calls).toEqual([[1]]); // no timer wait when quiet
      void commit.write([2]);
      void commit.write([3, 4]);
      await tick();
      expect(a.settled).toBe(false); // still acknowledged only once stored
      store.succeed();
      await tick();
      expect(a).toEqual({ settled: true, error: undefined });
      expect(store.calls).toEqual([[1]]); // a batch is forming: it waits for its timer
      jest.advanceTimersByTime(20);
      expect(store.calls).toEqual([[1], [2, 3, 4]]);
      store.succeed();
      await tick();
      void commit.write([5]); // an insert finished < flushMs ago: load, not quiet
      expect(store.calls).toHaveLength(2);
      jest.advanceTimersByTime(20);
      expect(store.calls).toEqual([[1], [2, 3, 4], [5]]);
      store.succeed();
      await tick();
      jest.advanceTimersByTime(25);
      void commit.write([6]); // quiet again
      expect(store.calls).toEqual([[1], [2, 3, 4], [5], [6]]);
    });

    it('off: every write waits for flushMs', async () => {
      const { store, commit } = setup({ idleFlush: false });
      void commit.write([1]);
      expect(store.calls).toEqual([]);
      jest.advanceTimersByTime(20);
      expect(store.calls).toEqual([[1]]);
    });
  });

  it('runs up to maxInFlight inserts at once', async () => {
    const { store, commit } = setup({ flushRows: 1, maxInFlight: 2 });
    void commit.write([1]);
    void commit.write([2]);
    void commit.write([3]);
    expect(store.waiting).toBe(2);
    store.succeed();
    await tick();
    expect(store.calls).toEqual([[1], [2], [3]]);
  });

  describe('partitions', () => {
    // Row n lives in partition "p" + floor(n / 100): rows 0–99 in p0, 100–199 in p1, ...
    const partitioned = (options: Partial<GroupCommitOptions<number>> = {}) =>
      setup({ flushRows: 1000, maxPartitions: 3, partitionOf: (n) => `p${Math.floor(n / 100)}`, maxInFlight: 5, ...options });

    it('never groups writers whose rows together touch more than maxPartitions, and says how many', async () => {
      const { store, commit } = partitioned();
      void commit.write([0, 100]); // p0 p1
      void commit.write([1, 101]); // same partitions: shares
      void commit.write([200]); // p2: 3 in all, still fits
      void commit.write([300, 1]); // p3 would make 4: next insert
      jest.advanceTimersByTime(20);
      expect(store.calls).toEqual([[0, 100, 1, 101, 200], [300, 1]]);
      expect(store.batches.map((b) => b.partitions)).toEqual([3, 2]);
    });

    it('gives a writer that alone spans more than maxPartitions an insert of its own, told its count', async () => {
      const { store, commit } = partitioned();
      void commit.write([0]);
      void commit.write([0, 100, 200, 300, 400]); // 5 partitions > 3
      void commit.write([1]);
      jest.advanceTimersByTime(20);
      expect(store.calls).toEqual([[0], [0, 100, 200, 300, 400], [1]]);
      expect(store.batches.map((b) => b.partitions)).toEqual([1, 5, 1]);
    });
  });

  describe('keyed writers', () => {
    it('insert alone, carrying their key, in arrival order', async () => {
      const { store, commit } = setup({ maxInFlight: 5 });
      void commit.write([1]);
      void commit.write([2], { key: 'k2' });
      void commit.write([3]);
      void commit.write([4]);
      jest.advanceTimersByTime(20);
      expect(store.calls).toEqual([[1], [2], [3, 4]]);
      expect(store.batches.map((b) => b.key)).toEqual([undefined, 'k2', undefined]);
    });
  });

  describe('isolating bad rows', () => {
    class Poison extends Error {}
    /** An insert that fails at once if any row is negative (the data's fault) and stores the rest. */
    function poisonStore() {
      const calls: number[][] = [];
      const stored: number[] = [];
      const insert = async (rows: number[]) => {
        calls.push([...rows]);
        if (rows.some((r) => r < 0)) throw new Poison('bad row');
        stored.push(...rows);
      };
      return { calls, stored, insert };
    }

    it('re-inserts in halves until the culprit fails alone; every other writer is stored', async () => {
      const s = poisonStore();
      const commit = new GroupCommit<number>(s.insert, { flushRows: 100, flushMs: 20, maxQueueRows: 1000, maxInFlight: 1, isDataError: (e) => e instanceof Poison });
      const writers = [[1], [2, 3], [-1], [4], [5], [6]].map((rows) => track(commit.write(rows)));
      jest.advanceTimersByTime(20);
      for (let i = 0; i < 10; i++) await tick();
      expect(writers.map((w) => w.settled)).toEqual([true, true, true, true, true, true]);
      expect(writers.map((w) => w.error instanceof Poison)).toEqual([false, false, true, false, false, false]);
      expect(s.stored.sort()).toEqual([1, 2, 3, 4, 5, 6]);
      expect(s.calls[0]).toEqual([1, 2, 3, -1, 4, 5, 6]); // shared first
      expect(s.calls.length).toBeLessThanOrEqual(1 + 2 * Math.ceil(Math.log2(6)));
    });

    it('fails every writer when the store is the problem, without retrying', async () => {
      const s = poisonStore();
      const down = new Error('connection refused');
      const commit = new GroupCommit<number>(async (rows) => { s.calls.push(rows); throw down; }, { flushRows: 100, flushMs: 20, maxQueueRows: 1000, maxInFlight: 1, isDataError: (e) => e instanceof Poison });
      const writers = [[1], [2], [3]].map((rows) => track(commit.write(rows)));
      jest.advanceTimersByTime(20);
      for (let i = 0; i < 5; i++) await tick();
      expect(writers.map((w) => w.error)).toEqual([down, down, down]);
      expect(s.calls).toHaveLength(1);
    });
  });
});

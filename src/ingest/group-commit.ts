export interface GroupCommitOptions {
  /** Start an insert as soon as this many rows wait. */
  flushRows: number;
  /** ...or once the oldest waiting row has waited this long. */
  flushMs: number;
  /** Rows waiting plus rows being inserted never exceed this: beyond it, writes are refused. */
  maxQueueRows: number;
  /** Inserts running at once. */
  maxInFlight: number;
  /**
   * Start an insert at once whenever none is running, and batch only what arrives while one runs
   * (then the timer bounds how long rows wait for a second, concurrent insert). Latency is one or
   * two inserts instead of flushMs plus one; batches grow with load by themselves.
   */
  idleFlush?: boolean;
}

export class QueueFullError extends Error {
  constructor() {
    super('the ingest queue is full');
  }
}

interface Waiter<T> {
  rows: T[];
  resolve(): void;
  reject(err: unknown): void;
}

/**
 * Group commit: rows from concurrent writers share one insert, and each writer's promise settles
 * only when the insert holding its rows has settled. A writer's rows are never split across two
 * inserts, so a failure never half-stores a request. Memory is bounded: a write that would push the
 * rows waiting or in flight past maxQueueRows is refused at once with QueueFullError.
 */
export class GroupCommit<T> {
  private queue: Waiter<T>[] = [];
  private queuedRows = 0;
  private inFlightRows = 0;
  private inFlight = 0;
  private timer?: NodeJS.Timeout;
  private due = false;
  private draining = false;
  private idle: Array<() => void> = [];

  constructor(
    private readonly insert: (rows: T[]) => Promise<void>,
    private readonly options: GroupCommitOptions,
  ) {}

  /** Rows waiting for an insert or being inserted. */
  get pendingRows(): number {
    return this.queuedRows + this.inFlightRows;
  }

  write(rows: T[]): Promise<void> {
    if (rows.length === 0) return Promise.resolve();
    if (this.pendingRows + rows.length > this.options.maxQueueRows) return Promise.reject(new QueueFullError());
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ rows, resolve, reject });
      this.queuedRows += rows.length;
      if (this.queuedRows >= this.options.flushRows || this.draining || this.options.flushMs === 0 || (this.options.idleFlush && this.inFlight === 0)) {
        this.due = true;
        this.flush();
      } else {
        this.armTimer();
      }
    });
  }

  /** Flushes everything now and resolves once nothing is waiting or in flight; later writes flush at once. */
  drain(): Promise<void> {
    this.draining = true;
    this.due = true;
    this.flush();
    if (this.queue.length === 0 && this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private flush(): void {
    while (this.due && this.queue.length > 0 && this.inFlight < this.options.maxInFlight) {
      clearTimeout(this.timer);
      this.timer = undefined;
      const batch = this.take();
      const rows = batch.length === 1 ? batch[0].rows : batch.flatMap((w) => w.rows);
      this.queuedRows -= rows.length;
      this.inFlightRows += rows.length;
      this.inFlight++;
      // Rows left behind were already due; they go as soon as an insert slot frees up.
      if (this.queue.length === 0) this.due = false;
      void this.run(batch, rows);
    }
    if (this.queue.length > 0 && !this.due) this.armTimer();
  }

  private armTimer(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.due = true;
      this.flush();
    }, this.options.flushMs);
  }

  /** Whole writers, oldest first, until the batch reaches flushRows. */
  private take(): Waiter<T>[] {
    let rows = 0;
    let n = 0;
    while (n < this.queue.length && (n === 0 || rows + this.queue[n].rows.length <= this.options.flushRows)) {
      rows += this.queue[n].rows.length;
      n++;
    }
    return this.queue.splice(0, n);
  }

  private async run(batch: Waiter<T>[], rows: T[]): Promise<void> {
    try {
      await this.insert(rows);
      for (const w of batch) w.resolve();
    } catch (err) {
      for (const w of batch) w.reject(err);
    } finally {
      this.inFlight--;
      this.inFlightRows -= rows.length;
      // With idleFlush, what gathered while this insert ran goes now: it has waited one insert already.
      if (this.queuedRows >= this.options.flushRows || this.draining || (this.options.idleFlush && this.queue.length > 0)) this.due = true;
      this.flush();
      if (this.queue.length === 0 && this.inFlight === 0) for (const resolve of this.idle.splice(0)) resolve();
    }
  }
}

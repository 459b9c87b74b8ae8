/**
 * Runs a task on request; requests that arrive while it runs coalesce into one more run after it.
 * For the NOTIFY- and poll-driven loops (job claiming, webhook delivery, scheduled reports), which
 * may be woken many times during one pass and must neither overlap nor miss a wake-up.
 */
export class CoalescedRun {
  private running?: Promise<void>;
  private again = false;

  constructor(
    private readonly task: () => Promise<void>,
    /** A run that throws is reported here; the next request runs the task again. */
    private readonly onError: (err: unknown) => void,
    /** Checked on every request, the coalesced re-run included: false → nothing runs. */
    private readonly enabled: () => boolean = () => true,
  ) {}

  /** Starts a run, or marks one more after the current one; resolves when the current run is done. */
  request(): Promise<void> {
    if (!this.enabled()) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.task()
      .catch(this.onError)
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          void this.request();
        }
      });
    return this.running;
  }

  /** The run in progress, if any (shutdown waits for it). */
  get current(): Promise<void> | undefined {
    return this.running;
  }
}

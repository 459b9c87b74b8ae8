import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { hostname } from 'node:os';
import { CoalescedRun } from '../../common/coalesced-run';
import { randomBase62 } from '../../common/ids';
import { Config } from '../../config/config';
import { Database } from '../../database/database';
import { Metrics } from '../../metrics/metrics';
import { ARCHIVED_PREFIX, JOBS_CHANNEL } from '../agent.constants';
import { JobRow } from '../jobs/jobs.repository';
import { JobQueueRepository } from './job-queue.repository';
import { JobProcessor, Lease, StopReason } from './job-processor';

/** Fallback poll: catches expired leases, retry backoffs, and NOTIFYs lost with a dropped connection. */
const POLL_MS = 1000;
/** On shutdown, how long in-flight turns get to stop at their next step and give their job back. */
const SHUTDOWN_GRACE_MS = 10_000;

interface InFlight {
  stop(reason: StopReason): void;
  done: Promise<void>;
}

/**
 * Claims jobs for this process, up to AGENT_CONCURRENCY at once: woken by NOTIFY on new work, and by
 * a short poll. Holds each claimed job under a lease renewed every lease/3, and stops a job's turn
 * when it is archived, when the lease is lost, or when the process shuts down.
 */
@Injectable()
export class JobScheduler implements OnModuleDestroy {
  private readonly logger = new Logger(JobScheduler.name);
  readonly workerId = `${hostname()}:${process.pid}:${randomBase62(6)}`;
  private readonly inFlight = new Map<string, InFlight>();
  private started = false;
  private stopping = false;
  private pollTimer?: NodeJS.Timeout;
  private unlisten?: () => Promise<void>;
  private readonly fills = new CoalescedRun(
    () => this.fill(),
    (err) => this.logger.warn({ err: String(err) }, 'claiming jobs failed; retrying at the next poll'),
    () => this.started && !this.stopping,
  );

  constructor(
    private readonly db: Database,
    private readonly queue: JobQueueRepository,
    private readonly processor: JobProcessor,
    private readonly config: Config,
    private readonly metrics: Metrics,
  ) {}

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.unlisten = await this.db.listen(JOBS_CHANNEL, (payload) => this.onNotify(payload));
    this.pollTimer = setInterval(() => this.wake(), POLL_MS);
    this.logger.log({ workerId: this.workerId, concurrency: this.config.AGENT_CONCURRENCY }, 'agent worker started');
    this.wake();
  }

  /** Claims until every slot is busy or nothing is runnable; concurrent wake-ups coalesce. */
  wake(): void {
    void this.fills.request();
  }

  private async fill(): Promise<void> {
    while (!this.stopping && this.inFlight.size < this.config.AGENT_CONCURRENCY) {
      const job = await this.queue.claim(this.workerId, this.config.AGENT_LEASE_MS);
      if (!job) return;
      if (job.claimed_at) this.metrics.claimLatency.observe(Math.max(0, job.claimed_at.getTime() - job.run_after.getTime()) / 1000);
      // Our own lease lapsed (a stalled heartbeat) and we took the job again: the first run goes on.
      if (this.inFlight.has(job.id)) continue;
      this.run(job);
    }
  }

  private run(job: JobRow): void {
    const controller = new AbortController();
    let reason: StopReason | undefined;
    const stop = (why: StopReason) => {
      reason ??= why;
      controller.abort(why);
    };
    const entry: InFlight = { stop, done: Promise.resolve() };
    const heartbeat = setInterval(() => {
      this.queue.renew(job.id, this.workerId, this.config.AGENT_LEASE_MS).then(
        (ours) => ours || stop('lease-lost'),
        (err: unknown) => this.logger.warn({ jobId: job.id, err: String(err) }, 'lease renewal failed'),
      );
    }, Math.max(100, Math.floor(this.config.AGENT_LEASE_MS / 3)));
    entry.done = this.handle(job, { workerId: this.workerId, signal: controller.signal, reason: () => reason })
      .catch((err: unknown) => this.logger.error({ jobId: job.id, err: String(err) }, 'job handler failed; the lease will expire and another worker retries'))
      .finally(() => {
        clearInterval(heartbeat);
        this.inFlight.delete(job.id);
        this.wake();
      });
    this.inFlight.set(job.id, entry);
  }

  /** The thin handler: the claimed row is the whole input; the processor does the work. */
  private handle(job: JobRow, lease: Lease): Promise<void> {
    return this.processor.process(job, lease);
  }

  private onNotify(payload: string): void {
    if (payload.startsWith(ARCHIVED_PREFIX)) {
      this.stopJob(payload.slice(ARCHIVED_PREFIX.length), 'archived');
      return;
    }
    this.wake();
  }

  private stopJob(jobId: string, reason: StopReason): void {
    this.inFlight.get(jobId)?.stop(reason);
  }

  /** Nest shutdown (SIGTERM): claim nothing more, stop every turn at its next step, give the jobs back. */
  async onModuleDestroy(): Promise<void> {
    if (!this.started || this.stopping) return;
    this.stopping = true;
    clearInterval(this.pollTimer);
    await this.unlisten?.().catch(() => undefined);
    for (const id of this.inFlight.keys()) this.stopJob(id, 'shutdown');
    const settled = Promise.allSettled([...this.inFlight.values()].map((e) => e.done));
    await Promise.race([settled, new Promise((resolve) => setTimeout(resolve, SHUTDOWN_GRACE_MS).unref())]);
    await this.fills.current;
    if (this.inFlight.size) this.logger.warn({ jobs: [...this.inFlight.keys()] }, 'jobs still running at shutdown; their leases will expire');
  }

  /** Jobs this instance is working on now. */
  get running(): string[] {
    return [...this.inFlight.keys()];
  }
}

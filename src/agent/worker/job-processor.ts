import { Injectable, Logger } from '@nestjs/common';
import { Config } from '../../config/config';
import { Metrics } from '../../metrics/metrics';
import { effectiveCloneUrl } from '../../projects/projects.mapper';
import { AgentRunner, AgentTurnError, TurnAborted } from '../runner/agent-runner';
import { JobRow } from '../jobs/jobs.repository';
import { SecretScrubber } from '../runner/secret-scrubber';
import { JobQueueRepository, MessageRow } from './job-queue.repository';

/** Why a worker stopped a turn from outside: the job was archived, the process is stopping, or the lease went to another worker. */
export type StopReason = 'archived' | 'shutdown' | 'lease-lost';

export interface Lease {
  workerId: string;
  signal: AbortSignal;
  /** Set when `signal` fires. */
  reason(): StopReason | undefined;
}

const NO_REPOSITORY = 'The project has no repository configured: set its repository (and cloneUrl if needed) with PATCH /v1/projects/{projectId}, then send a follow-up message.';
const INTERRUPTED = 'The agent was interrupted repeatedly while working on this message; send a follow-up message to try again.';
const GAVE_UP = 'The agent run failed repeatedly; send a follow-up message to try again.';

/**
 * Works through a claimed job: every pending message in order, one agent turn each, on the job's
 * branch, while the lease is ours. Retries failed turns with backoff, then fails the job with an
 * error the user can act on (never a stack, a token or a key).
 */
@Injectable()
export class JobProcessor {
  private readonly logger = new Logger(JobProcessor.name);

  constructor(
    private readonly queue: JobQueueRepository,
    private readonly runner: AgentRunner,
    private readonly config: Config,
    private readonly metrics: Metrics,
    private readonly scrubber: SecretScrubber,
  ) {}

  async process(claimed: JobRow, lease: Lease): Promise<void> {
    for (;;) {
      if (lease.signal.aborted) return this.stopped(claimed.id, undefined, lease);
      const message = await this.queue.startNextMessage(claimed.id, lease.workerId);
      if (!message) return this.queue.settleIdle(claimed.id, lease.workerId);
      if (message.attempts > this.config.AGENT_MAX_ATTEMPTS) return this.queue.fail(claimed.id, lease.workerId, message.seq, INTERRUPTED);
      const next = await this.runMessage(claimed, message, lease);
      if (next !== 'next') return;
    }
  }

  private async runMessage(claimed: JobRow, message: MessageRow, lease: Lease): Promise<'next' | 'stop'> {
    const cloneUrl = effectiveCloneUrl(claimed);
    if (!cloneUrl) {
      await this.queue.fail(claimed.id, lease.workerId, message.seq, NO_REPOSITORY);
      return 'stop';
    }
    const job = (await this.queue.job(claimed.id)) ?? claimed;
    const turn = this.metrics.turnDuration.startTimer();
    try {
      const result = await this.runner.runTurn({
        jobId: claimed.id,
        project: { repository: claimed.repository, ref: claimed.ref, cloneUrl },
        prompt: message.prompt,
        history: await this.queue.history(claimed.id, message.seq),
        prLink: job.pr_link,
        signal: lease.signal,
        stillWanted: async () => !lease.signal.aborted && (await this.queue.stillOurs(claimed.id, lease.workerId)),
      });
      this.metrics.turns.inc({ outcome: 'succeeded' });
      turn({ outcome: 'succeeded' });
      const after = await this.queue.completeMessage(claimed.id, lease.workerId, message.seq, result);
      this.logger.log({ jobId: claimed.id, seq: message.seq, changed: result.changed, after }, 'turn finished');
      return after === 'next' ? 'next' : 'stop';
    } catch (err) {
      const outcome = lease.signal.aborted || err instanceof TurnAborted ? 'stopped' : 'failed';
      this.metrics.turns.inc({ outcome });
      turn({ outcome });
      await this.turnFailed(claimed.id, message, lease, err);
      return 'stop';
    }
  }

  private async turnFailed(jobId: string, message: MessageRow, lease: Lease, err: unknown): Promise<void> {
    if (lease.signal.aborted) return this.stopped(jobId, message.seq, lease);
    if (err instanceof TurnAborted) {
      // stillWanted() said no: archived, or the lease is gone. Either way the job is not ours to settle.
      await this.queue.release(jobId, lease.workerId, undefined, false);
      return;
    }
    const turnError = err instanceof AgentTurnError ? err : undefined;
    this.logger.warn({ jobId, seq: message.seq, attempt: message.attempts, error: turnError?.userMessage ?? this.describe(err) }, 'turn failed');
    if (turnError && !turnError.retryable) return this.queue.fail(jobId, lease.workerId, message.seq, turnError.userMessage);
    if (message.attempts >= this.config.AGENT_MAX_ATTEMPTS) return this.queue.fail(jobId, lease.workerId, message.seq, turnError?.userMessage ?? GAVE_UP);
    const delay = this.config.AGENT_RETRY_BACKOFF_MS * 4 ** (message.attempts - 1);
    await this.queue.retryLater(jobId, lease.workerId, message.seq, delay);
  }

  private async stopped(jobId: string, seq: number | undefined, lease: Lease): Promise<void> {
    const reason = lease.reason();
    if (reason === 'lease-lost') return; // another worker holds the job now; touch nothing
    await this.queue.release(jobId, lease.workerId, seq, reason === 'shutdown');
  }

  /** An unexpected error for the log: its kind and first line, scrubbed like every error text (Basic-auth tokens included). */
  private describe(err: unknown): string {
    return `${err instanceof Error ? err.name : 'Error'}: ${this.scrubber.errorText(err, 500)}`;
  }
}

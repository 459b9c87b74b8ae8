import { Injectable } from '@nestjs/common';
import { JOBS_CHANNEL } from '../agent.constants';
import { Database, Queryable } from '../../database/database';
import { OutboxRepository } from '../../webhooks/outbox.repository';
import { toJobView } from '../jobs/jobs.mapper';
import { JOB_COLUMNS, JobRow } from '../jobs/jobs.repository';

export interface MessageRow {
  job_id: string;
  seq: number;
  prompt: string;
  status: 'queued' | 'running' | 'done' | 'failed' | 'cancelled';
  summary: string | null;
  attempts: number;
}

export interface TurnOutcome {
  summary: string;
  prLink: string | null;
  commitSha: string | null;
}

/** After a finished message: run the next one under the same lease, or the job is settled (or no longer ours). */
export type AfterMessage = 'next' | 'settled' | 'lost';

const PENDING = `status IN ('queued', 'running')`;

/**
 * The worker's side of the job tables: claim under a lease, renew it, walk the messages, settle.
 * Every write after the claim is guarded by `locked_by = worker`, so a worker that lost its lease
 * (crashed, paused, partitioned) can never overwrite the work of the one that took over.
 */
@Injectable()
export class JobQueueRepository {
  constructor(
    private readonly db: Database,
    private readonly outbox: OutboxRepository,
  ) {}

  /** Writes job.completed / job.failed in the transaction that made the change, with the job as GET returns it. */
  private async emitIfSettled(tx: Queryable, before: string, after: JobRow): Promise<void> {
    if (before !== 'active' || after.status === 'active' || after.status === 'archived') return;
    await this.outbox.enqueue(tx, after.project_id, after.status === 'completed' ? 'job.completed' : 'job.failed', toJobView(after));
  }

  /** Claims the oldest runnable job: active, not leased (or its lease expired), past its backoff. */
  async claim(workerId: string, leaseMs: number): Promise<JobRow | undefined> {
    const [row] = await this.db.query<JobRow>(
      `WITH next AS (
         SELECT id FROM agent_jobs
         WHERE status = 'active' AND run_after <= now() AND (locked_until IS NULL OR locked_until < now())
         ORDER BY run_after, created_at
         LIMIT 1
         FOR UPDATE SKIP LOCKED
       )
       UPDATE agent_jobs j SET locked_by = $1, locked_until = now() + make_interval(secs => $2), claimed_at = now()
       FROM next WHERE j.id = next.id
       RETURNING j.*`,
      [workerId, leaseMs / 1000],
    );
    return row;
  }

  /** Extends the lease; false when the job is no longer ours. */
  async renew(jobId: string, workerId: string, leaseMs: number): Promise<boolean> {
    const rows = await this.db.query(
      'UPDATE agent_jobs SET locked_until = now() + make_interval(secs => $3) WHERE id = $1 AND locked_by = $2 RETURNING id',
      [jobId, workerId, leaseMs / 1000],
    );
    return rows.length > 0;
  }

  /** True while the job is not archived and the lease is still ours: the runner asks between steps. */
  async stillOurs(jobId: string, workerId: string): Promise<boolean> {
    const rows = await this.db.query(`SELECT 1 FROM agent_jobs WHERE id = $1 AND locked_by = $2 AND status <> 'archived'`, [jobId, workerId]);
    return rows.length > 0;
  }

  async job(jobId: string): Promise<JobRow | undefined> {
    const [row] = await this.db.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM agent_jobs WHERE id = $1`, [jobId]);
    return row;
  }

  /**
   * Marks the oldest pending message running and counts the attempt. A message found already
   * `running` was left by a worker that died: it runs again from the start.
   */
  async startNextMessage(jobId: string, workerId: string): Promise<MessageRow | undefined> {
    const [row] = await this.db.query<MessageRow>(
      `UPDATE agent_job_messages SET status = 'running', attempts = attempts + 1, claimed_at = coalesce(claimed_at, now())
       WHERE job_id = $1
         AND seq = (SELECT min(seq) FROM agent_job_messages WHERE job_id = $1 AND ${PENDING})
         AND EXISTS (SELECT 1 FROM agent_jobs WHERE id = $1 AND locked_by = $2 AND status = 'active')
       RETURNING job_id, seq, prompt, status, summary, attempts`,
      [jobId, workerId],
    );
    return row;
  }

  /** The earlier turns of the job, oldest first (summary null for turns that did not finish). */
  history(jobId: string, beforeSeq: number): Promise<Array<{ prompt: string; summary: string | null }>> {
    return this.db.query(`SELECT prompt, summary FROM agent_job_messages WHERE job_id = $1 AND seq < $2 ORDER BY seq`, [jobId, beforeSeq]);
  }

  /**
   * Records a finished turn. With more messages queued the lease is kept ('next'); otherwise an
   * active job becomes completed and is released ('settled'). An archive that raced the turn wins:
   * the status stays archived, but a pull request that was opened is still recorded.
   */
  completeMessage(jobId: string, workerId: string, seq: number, outcome: TurnOutcome): Promise<AfterMessage> {
    return this.db.transaction(async (tx) => {
      const [job] = await tx.query<{ status: string }>('SELECT status FROM agent_jobs WHERE id = $1 AND locked_by = $2 FOR UPDATE', [jobId, workerId]);
      if (!job) return 'lost';
      await tx.query(
        `UPDATE agent_job_messages SET status = 'done', summary = $3, commit_sha = $4, finished_at = now() WHERE job_id = $1 AND seq = $2 AND status = 'running'`,
        [jobId, seq, outcome.summary, outcome.commitSha],
      );
      const [{ pending }] = await tx.query<{ pending: boolean }>(`SELECT EXISTS (SELECT 1 FROM agent_job_messages WHERE job_id = $1 AND ${PENDING}) AS pending`, [jobId]);
      const next = job.status === 'active' && pending;
      const [after] = await tx.query<JobRow>(
        `UPDATE agent_jobs SET pr_link = coalesce($2, pr_link), updated_at = now(),
           status = CASE WHEN status = 'active' AND NOT $3 THEN 'completed' ELSE status END,
           locked_by = CASE WHEN $3 THEN locked_by END, locked_until = CASE WHEN $3 THEN locked_until END
         WHERE id = $1 RETURNING ${JOB_COLUMNS}`,
        [jobId, outcome.prLink, next],
      );
      await this.emitIfSettled(tx, job.status, after);
      return next ? 'next' : 'settled';
    });
  }

  /** Settles an active job with nothing pending left (e.g. its last message was cancelled) and releases it. */
  settleIdle(jobId: string, workerId: string): Promise<void> {
    return this.db.transaction(async (tx) => {
      const [job] = await tx.query<{ status: string }>('SELECT status FROM agent_jobs WHERE id = $1 AND locked_by = $2 FOR UPDATE', [jobId, workerId]);
      if (!job) return;
      const [after] = await tx.query<JobRow>(
        `UPDATE agent_jobs SET status = CASE WHEN status = 'active' AND NOT EXISTS (SELECT 1 FROM agent_job_messages WHERE job_id = $1 AND ${PENDING}) THEN 'completed' ELSE status END,
           updated_at = CASE WHEN status = 'active' AND NOT EXISTS (SELECT 1 FROM agent_job_messages WHERE job_id = $1 AND ${PENDING}) THEN now() ELSE updated_at END,
           locked_by = NULL, locked_until = NULL
         WHERE id = $1 RETURNING ${JOB_COLUMNS}`,
        [jobId],
      );
      await this.emitIfSettled(tx, job.status, after);
    });
  }

  /**
   * The job failed for good: the message is marked failed, messages queued behind it are cancelled
   * (a follow-up revives the job), and the job is released. An archived job stays archived.
   */
  fail(jobId: string, workerId: string, seq: number, error: string): Promise<void> {
    return this.db.transaction(async (tx) => {
      const [job] = await tx.query<{ status: string }>('SELECT status FROM agent_jobs WHERE id = $1 AND locked_by = $2 FOR UPDATE', [jobId, workerId]);
      if (!job) return;
      await tx.query(`UPDATE agent_job_messages SET status = 'failed', finished_at = now() WHERE job_id = $1 AND seq = $2 AND ${PENDING}`, [jobId, seq]);
      await tx.query(`UPDATE agent_job_messages SET status = 'cancelled', finished_at = now() WHERE job_id = $1 AND ${PENDING}`, [jobId]);
      const [after] = await tx.query<JobRow>(
        `UPDATE agent_jobs SET status = CASE WHEN status = 'active' THEN 'failed' ELSE status END,
           error = CASE WHEN status = 'active' THEN $2 ELSE error END,
           updated_at = now(), locked_by = NULL, locked_until = NULL
         WHERE id = $1 RETURNING ${JOB_COLUMNS}`,
        [jobId, error],
      );
      await this.emitIfSettled(tx, job.status, after);
    });
  }

  /** Puts the message back in the queue and releases the job until `delayMs` from now. */
  async retryLater(jobId: string, workerId: string, seq: number, delayMs: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [job] = await tx.query('SELECT 1 FROM agent_jobs WHERE id = $1 AND locked_by = $2 FOR UPDATE', [jobId, workerId]);
      if (!job) return;
      await tx.query(`UPDATE agent_job_messages SET status = 'queued' WHERE job_id = $1 AND seq = $2 AND status = 'running'`, [jobId, seq]);
      await tx.query('UPDATE agent_jobs SET locked_by = NULL, locked_until = NULL, run_after = now() + make_interval(secs => $2) WHERE id = $1', [jobId, delayMs / 1000]);
    });
  }

  /**
   * Gives the job back at once (shutdown): the interrupted message is queued again and, as the
   * interruption was ours, the attempt does not count.
   */
  async release(jobId: string, workerId: string, seq: number | undefined, refundAttempt: boolean): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [job] = await tx.query('SELECT 1 FROM agent_jobs WHERE id = $1 AND locked_by = $2 FOR UPDATE', [jobId, workerId]);
      if (!job) return;
      if (seq !== undefined) {
        await tx.query(
          `UPDATE agent_job_messages SET status = 'queued', attempts = attempts - CASE WHEN $3 THEN 1 ELSE 0 END WHERE job_id = $1 AND seq = $2 AND status = 'running'`,
          [jobId, seq, refundAttempt],
        );
      }
      await tx.query('UPDATE agent_jobs SET locked_by = NULL, locked_until = NULL WHERE id = $1', [jobId]);
      // Another instance can take the job now rather than at its next poll.
      await tx.query('SELECT pg_notify($1, $2)', [JOBS_CHANNEL, '']);
    });
  }
}

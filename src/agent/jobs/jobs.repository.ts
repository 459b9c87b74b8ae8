import { Injectable } from '@nestjs/common';
import { Database, Queryable } from '../../database/database';
import { OutboxRepository } from '../../webhooks/outbox.repository';
import { ARCHIVED_PREFIX, JOBS_CHANNEL } from '../agent.constants';
import { toJobView } from './jobs.mapper';

export const JOB_STATUSES = ['active', 'completed', 'archived', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export interface JobRow {
  id: string;
  project_id: string;
  status: JobStatus;
  model: string;
  repository: string | null;
  ref: string;
  clone_url: string | null;
  pr_link: string | null;
  error: string | null;
  created_at: Date;
  updated_at: Date;
  archived_at: Date | null;
  locked_by: string | null;
  locked_until: Date | null;
  claimed_at: Date | null;
  run_after: Date;
}

export type NewJob = Pick<JobRow, 'id' | 'project_id' | 'model' | 'repository' | 'ref' | 'clone_url'>;

export const JOB_COLUMNS = 'id, project_id, status, model, repository, ref, clone_url, pr_link, error, created_at, updated_at, archived_at, locked_by, locked_until, claimed_at, run_after';

/** Jobs as the HTTP API sees them: create, read, follow up, archive, list. */
@Injectable()
export class JobsRepository {
  constructor(
    private readonly db: Database,
    private readonly outbox: OutboxRepository,
  ) {}

  /** Inserts an active job with its first message; workers hear of it when the transaction commits. */
  async insert(tx: Queryable, job: NewJob, prompt: string): Promise<JobRow> {
    const [row] = await tx.query<JobRow>(
      `INSERT INTO agent_jobs (id, project_id, status, model, repository, ref, clone_url)
       VALUES ($1, $2, 'active', $3, $4, $5, $6) RETURNING ${JOB_COLUMNS}`,
      [job.id, job.project_id, job.model, job.repository, job.ref, job.clone_url],
    );
    await tx.query('INSERT INTO agent_job_messages (job_id, seq, prompt) VALUES ($1, 1, $2)', [job.id, prompt]);
    await notify(tx, '');
    return row;
  }

  async find(projectId: string, id: string): Promise<JobRow | undefined> {
    const [row] = await this.db.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM agent_jobs WHERE project_id = $1 AND id = $2`, [projectId, id]);
    return row;
  }

  /** Locks the job row for the rest of the transaction (follow-ups and archives take turns with the worker). */
  async lock(tx: Queryable, projectId: string, id: string): Promise<JobRow | undefined> {
    const [row] = await tx.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM agent_jobs WHERE project_id = $1 AND id = $2 FOR UPDATE`, [projectId, id]);
    return row;
  }

  /** Queues a follow-up and (re)activates the job on the same branch; the job row must be locked. */
  async addMessage(tx: Queryable, id: string, prompt: string): Promise<JobRow> {
    await tx.query(
      `INSERT INTO agent_job_messages (job_id, seq, prompt)
       SELECT $1, coalesce(max(seq), 0) + 1, $2 FROM agent_job_messages WHERE job_id = $1`,
      [id, prompt],
    );
    const [row] = await tx.query<JobRow>(
      `UPDATE agent_jobs SET status = 'active', error = NULL, updated_at = now(), run_after = now()
       WHERE id = $1 RETURNING ${JOB_COLUMNS}`,
      [id],
    );
    await notify(tx, '');
    return row;
  }

  /** Archives the job and cancels its pending messages; the worker running it hears and stops. */
  async archive(tx: Queryable, id: string): Promise<JobRow> {
    await tx.query(`UPDATE agent_job_messages SET status = 'cancelled', finished_at = now() WHERE job_id = $1 AND status IN ('queued', 'running')`, [id]);
    const [row] = await tx.query<JobRow>(
      `UPDATE agent_jobs SET status = 'archived', archived_at = now(), updated_at = now() WHERE id = $1 RETURNING ${JOB_COLUMNS}`,
      [id],
    );
    await notify(tx, ARCHIVED_PREFIX + id);
    await this.outbox.enqueue(tx, row.project_id, 'job.archived', toJobView(row));
    return row;
  }

  /** Newest first; one row more than asked tells whether there is a next page. */
  list(projectId: string, status: JobStatus | undefined, limit: number, offset: number): Promise<JobRow[]> {
    return this.db.query<JobRow>(
      `SELECT ${JOB_COLUMNS} FROM agent_jobs
       WHERE project_id = $1 AND ($2::text IS NULL OR status = $2)
       ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4`,
      [projectId, status ?? null, limit, offset],
    );
  }

  /** Jobs per status, for the metrics scrape: one aggregate over a small table. */
  countByStatus(): Promise<Array<{ status: string; count: number }>> {
    return this.db.query('SELECT status, count(*)::int AS count FROM agent_jobs GROUP BY status');
  }
}

// pg_notify inside a transaction is delivered at commit, and not at all on rollback.
async function notify(tx: Queryable, payload: string): Promise<void> {
  await tx.query('SELECT pg_notify($1, $2)', [JOBS_CHANNEL, payload]);
}

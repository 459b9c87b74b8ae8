import { Injectable } from '@nestjs/common';
import { Database, Queryable } from '../database/database';

export interface ReportRow {
  id: string;
  project_id: string;
  name: string;
  cron: string;
  timezone: string;
  range: string;
  format: 'csv' | 'json';
  created_at: Date;
  updated_at: Date;
  next_run_at: Date | null;
}

export interface RunRow {
  id: string;
  report_id: string;
  project_id: string;
  status: 'pending' | 'running' | 'succeeded' | 'failed';
  scheduled_for: Date;
  manual: boolean;
  window_from: Date;
  window_to: Date;
  error: string | null;
  attempts: number;
  created_at: Date;
  finished_at: Date | null;
}

export type NewRun = Pick<RunRow, 'id' | 'report_id' | 'project_id' | 'scheduled_for' | 'manual' | 'window_from' | 'window_to' | 'created_at'>;

const RUN_COLUMNS = 'id, report_id, project_id, status, scheduled_for, manual, window_from, window_to, error, attempts, created_at, finished_at';

@Injectable()
export class ReportsRepository {
  constructor(private readonly db: Database) {}

  async insert(row: Omit<ReportRow, 'created_at' | 'updated_at'>): Promise<ReportRow> {
    const [created] = await this.db.query<ReportRow>(
      `INSERT INTO reports (id, project_id, name, cron, timezone, range, format, next_run_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
      [row.id, row.project_id, row.name, row.cron, row.timezone, row.range, row.format, row.next_run_at],
    );
    return created;
  }

  async update(row: ReportRow): Promise<ReportRow> {
    const [updated] = await this.db.query<ReportRow>(
      `UPDATE reports SET name = $3, cron = $4, timezone = $5, range = $6, format = $7, next_run_at = $8, updated_at = now()
       WHERE project_id = $1 AND id = $2 RETURNING *`,
      [row.project_id, row.id, row.name, row.cron, row.timezone, row.range, row.format, row.next_run_at],
    );
    return updated;
  }

  list(projectId: string): Promise<ReportRow[]> {
    return this.db.query<ReportRow>('SELECT * FROM reports WHERE project_id = $1 ORDER BY created_at, id', [projectId]);
  }

  async find(projectId: string, id: string): Promise<ReportRow | undefined> {
    const [row] = await this.db.query<ReportRow>('SELECT * FROM reports WHERE project_id = $1 AND id = $2', [projectId, id]);
    return row;
  }

  async delete(projectId: string, id: string): Promise<boolean> {
    return (await this.db.query('DELETE FROM reports WHERE project_id = $1 AND id = $2 RETURNING id', [projectId, id])).length > 0;
  }

  /**
   * Reports due at `now`, locked for the rest of the transaction (another instance skips them). The
   * caller inserts the run and moves next_run_at in the same transaction.
   */
  lockDue(tx: Queryable, now: Date, limit: number): Promise<ReportRow[]> {
    return tx.query<ReportRow>('SELECT * FROM reports WHERE next_run_at <= $1 ORDER BY next_run_at LIMIT $2 FOR UPDATE SKIP LOCKED', [now, limit]);
  }

  async setNextRun(tx: Queryable, id: string, next: Date | null): Promise<void> {
    await tx.query('UPDATE reports SET next_run_at = $2 WHERE id = $1', [id, next]);
  }

  /** A scheduled run is inserted once per (report, due time); a second insert for the same time is a no-op. */
  async insertRun(tx: Queryable, run: NewRun): Promise<RunRow | undefined> {
    const [row] = await tx.query<RunRow>(
      `INSERT INTO report_runs (id, report_id, project_id, scheduled_for, manual, window_from, window_to, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (report_id, scheduled_for) WHERE NOT manual DO NOTHING RETURNING ${RUN_COLUMNS}`,
      [run.id, run.report_id, run.project_id, run.scheduled_for, run.manual, run.window_from, run.window_to, run.created_at],
    );
    return row;
  }

  /** Claims one pending (or abandoned running) run under a lease. */
  async claimRun(workerId: string, now: Date, leaseMs: number): Promise<(RunRow & { report: ReportRow }) | undefined> {
    const [row] = await this.db.query<RunRow>(
      `WITH next AS (
         SELECT id FROM report_runs
         WHERE status IN ('pending', 'running') AND (locked_until IS NULL OR locked_until < $2)
         ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED
       )
       UPDATE report_runs r SET status = 'running', attempts = attempts + 1, locked_by = $1, locked_until = $2::timestamptz + make_interval(secs => $3)
       FROM next WHERE r.id = next.id RETURNING r.${RUN_COLUMNS.split(', ').join(', r.')}`,
      [workerId, now, leaseMs / 1000],
    );
    if (!row) return undefined;
    const [report] = await this.db.query<ReportRow>('SELECT * FROM reports WHERE id = $1', [row.report_id]);
    return { ...row, report };
  }

  /** Records the outcome while the lease is ours; returns the finished run, or undefined if it was lost. */
  async finishRun(tx: Queryable, id: string, workerId: string, outcome: { content: string | null; error: string | null; at: Date }): Promise<RunRow | undefined> {
    const [row] = await tx.query<RunRow>(
      `UPDATE report_runs SET status = CASE WHEN $4::text IS NULL THEN 'succeeded' ELSE 'failed' END, content = $3, error = $4, finished_at = $5,
         locked_by = NULL, locked_until = NULL
       WHERE id = $1 AND locked_by = $2 RETURNING ${RUN_COLUMNS}`,
      [id, workerId, outcome.content, outcome.error, outcome.at],
    );
    return row;
  }

  runs(reportId: string, limit: number, offset: number): Promise<RunRow[]> {
    return this.db.query<RunRow>(`SELECT ${RUN_COLUMNS} FROM report_runs WHERE report_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`, [reportId, limit, offset]);
  }

  async run(reportId: string, runId: string): Promise<RunRow | undefined> {
    const [row] = await this.db.query<RunRow>(`SELECT ${RUN_COLUMNS} FROM report_runs WHERE report_id = $1 AND id = $2`, [reportId, runId]);
    return row;
  }

  async content(reportId: string, runId: string): Promise<{ status: string; content: string | null } | undefined> {
    const [row] = await this.db.query<{ status: string; content: string | null }>('SELECT status, content FROM report_runs WHERE report_id = $1 AND id = $2', [reportId, runId]);
    return row;
  }

  /** Drops run content older than `before` (the run stays in the history). */
  async purgeContent(before: Date): Promise<number> {
    return (await this.db.query('UPDATE report_runs SET content = NULL WHERE finished_at < $1 AND content IS NOT NULL RETURNING id', [before])).length;
  }
}

import { Injectable } from '@nestjs/common';
import { Database, Queryable } from '../database/database';

export type IdempotencyClaim =
  | { state: 'claimed' }
  | { state: 'replay'; status: number; response: unknown }
  | { state: 'in-progress' };

/** Keys older than this are forgotten: the same key then starts a new request. */
export const IDEMPOTENCY_TTL_HOURS = 24;

/**
 * Idempotency-Key bookkeeping shared by job creation, follow-ups and ingest: the first request with
 * a key claims it, later ones replay the stored response (or learn the first is still running).
 */
@Injectable()
export class IdempotencyRepository {
  constructor(private readonly db: Database) {}

  async claim(projectId: string, scope: string, key: string, tx: Queryable = this.db): Promise<IdempotencyClaim> {
    // An expired row is replaced, so the key can be reused after the TTL.
    const [claimed] = await tx.query(
      `INSERT INTO idempotency_keys (project_id, scope, key) VALUES ($1, $2, $3)
       ON CONFLICT (project_id, scope, key) DO UPDATE SET status = NULL, response = NULL, created_at = now()
         WHERE idempotency_keys.created_at < now() - make_interval(hours => $4)
       RETURNING key`,
      [projectId, scope, key, IDEMPOTENCY_TTL_HOURS],
    );
    if (claimed) return { state: 'claimed' };
    const [row] = await tx.query<{ status: number | null; response: unknown }>(
      'SELECT status, response FROM idempotency_keys WHERE project_id = $1 AND scope = $2 AND key = $3',
      [projectId, scope, key],
    );
    if (row && row.status !== null) return { state: 'replay', status: row.status, response: row.response };
    return { state: 'in-progress' };
  }

  async complete(projectId: string, scope: string, key: string, status: number, response: unknown, tx: Queryable = this.db): Promise<void> {
    await tx.query('UPDATE idempotency_keys SET status = $4, response = $5 WHERE project_id = $1 AND scope = $2 AND key = $3', [projectId, scope, key, status, JSON.stringify(response)]);
  }

  /** Frees a claim whose request failed, so a retry with the same key runs again. */
  async release(projectId: string, scope: string, key: string, tx: Queryable = this.db): Promise<void> {
    await tx.query('DELETE FROM idempotency_keys WHERE project_id = $1 AND scope = $2 AND key = $3 AND status IS NULL', [projectId, scope, key]);
  }
}

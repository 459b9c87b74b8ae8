import { Injectable } from '@nestjs/common';
import { Database, Queryable } from '../database/database';

export type IdempotencyClaim =
  /**
   * Go ahead. `firstSeenAt` is when the key was first claimed: the same for every attempt with this
   * key (so a retry can repeat exactly what the first attempt did); `resumed` says an earlier attempt
   * claimed the key and never finished (it crashed, failed with 503, or is still running).
   */
  | { state: 'claimed'; firstSeenAt: Date; resumed: boolean }
  | { state: 'replay'; response: unknown };

/** Keys older than this are forgotten: the same key then starts a new request. */
export const IDEMPOTENCY_TTL_HOURS = 24;

/**
 * Idempotency-Key bookkeeping shared by job creation, follow-ups and ingest: the first request with
 * a key claims it, later ones replay the stored response. An unfinished claim never blocks a retry:
 * after a crash the retry must be able to go ahead at once. Each caller makes going ahead twice
 * safe: job creation claims, works and completes in one transaction (a crash rolls back all of it);
 * ingest's insert is deduplicated by ClickHouse with a token derived from the key and `firstSeenAt`.
 */
@Injectable()
export class IdempotencyRepository {
  constructor(private readonly db: Database) {}

  async claim(projectId: string, scope: string, key: string, tx: Queryable = this.db): Promise<IdempotencyClaim> {
    // An expired row is replaced, so the key can be reused after the TTL.
    const [claimed] = await tx.query<{ created_at: Date }>(
      `INSERT INTO idempotency_keys (project_id, scope, key) VALUES ($1, $2, $3)
       ON CONFLICT (project_id, scope, key) DO UPDATE SET response = NULL, created_at = now()
         WHERE idempotency_keys.created_at < now() - make_interval(hours => $4)
       RETURNING created_at`,
      [projectId, scope, key, IDEMPOTENCY_TTL_HOURS],
    );
    if (claimed) return { state: 'claimed', firstSeenAt: new Date(claimed.created_at), resumed: false };
    const [row] = await tx.query<{ response: unknown; created_at: Date }>(
      'SELECT response, created_at FROM idempotency_keys WHERE project_id = $1 AND scope = $2 AND key = $3',
      [projectId, scope, key],
    );
    if (!row) return this.claim(projectId, scope, key, tx); // released or purged in between: claim afresh
    // A finished request always stored its response (JSON, never SQL NULL); the route knows its status.
    if (row.response !== null) return { state: 'replay', response: row.response };
    return { state: 'claimed', firstSeenAt: new Date(row.created_at), resumed: true };
  }

  async complete(projectId: string, scope: string, key: string, response: unknown, tx: Queryable = this.db): Promise<void> {
    await tx.query('UPDATE idempotency_keys SET response = $4 WHERE project_id = $1 AND scope = $2 AND key = $3', [projectId, scope, key, JSON.stringify(response ?? null)]);
  }

  /** Frees an unfinished claim whose request can never succeed as sent, so the key starts afresh. */
  async release(projectId: string, scope: string, key: string, tx: Queryable = this.db): Promise<void> {
    await tx.query('DELETE FROM idempotency_keys WHERE project_id = $1 AND scope = $2 AND key = $3 AND response IS NULL', [projectId, scope, key]);
  }

  /**
   * Deletes up to `limit` keys past their TTL; returns how many. Safe to run on every instance at once:
   * rows another purge holds are skipped, not waited for.
   */
  async purgeExpired(limit = 5000): Promise<number> {
    const rows = await this.db.query(
      `DELETE FROM idempotency_keys WHERE (project_id, scope, key) IN (
         SELECT project_id, scope, key FROM idempotency_keys
         WHERE created_at < now() - make_interval(hours => $1)
         LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING key`,
      [IDEMPOTENCY_TTL_HOURS, limit],
    );
    return rows.length;
  }
}

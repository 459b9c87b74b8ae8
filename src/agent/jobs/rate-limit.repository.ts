import { Injectable } from '@nestjs/common';
import { Database, Queryable } from '../../database/database';

/** Create and follow-up share this budget per project per sliding window. */
export const RATE_LIMIT = 100;
export const RATE_WINDOW_SECONDS = 3600;
// Namespace of the two-key advisory lock (the second key is the project's hash); any constant works.
const RATE_LOCK_NAMESPACE = 7_204_120;

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Seconds until the oldest counted use leaves the window and frees a slot; 0 when nothing is counted. */
  resetSeconds: number;
  allowed: boolean;
}

interface WindowRow {
  used: number;
  reset_after: number | null;
}

// clock_timestamp(), not now(): a transaction that waited for the lock must see the time it got it.
const WINDOW_SQL = `SELECT count(*)::int AS used,
    extract(epoch FROM min(used_at) + make_interval(secs => $2) - clock_timestamp())::float8 AS reset_after
  FROM agent_rate_usage WHERE project_id = $1 AND used_at > clock_timestamp() - make_interval(secs => $2)`;

/** The per-project sliding-hour budget, kept in Postgres so every instance shares it. */
@Injectable()
export class RateLimitRepository {
  constructor(private readonly db: Database) {}

  /**
   * Charges one use if the window has room. Serialised per project by a transaction-scoped advisory
   * lock, so concurrent requests cannot both see the last free slot. Call inside the transaction
   * that does the work: if it rolls back, the use is refunded with it.
   */
  async consume(tx: Queryable, projectId: string): Promise<RateLimitState> {
    await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [RATE_LOCK_NAMESPACE, projectId]);
    await tx.query('DELETE FROM agent_rate_usage WHERE project_id = $1 AND used_at <= clock_timestamp() - make_interval(secs => $2)', [projectId, RATE_WINDOW_SECONDS]);
    const [row] = await tx.query<WindowRow>(WINDOW_SQL, [projectId, RATE_WINDOW_SECONDS]);
    if (row.used >= RATE_LIMIT) return { limit: RATE_LIMIT, remaining: 0, resetSeconds: resetSeconds(row), allowed: false };
    await tx.query('INSERT INTO agent_rate_usage (project_id, used_at) VALUES ($1, clock_timestamp())', [projectId]);
    return {
      limit: RATE_LIMIT,
      remaining: RATE_LIMIT - row.used - 1,
      resetSeconds: row.used === 0 ? RATE_WINDOW_SECONDS : resetSeconds(row),
      allowed: true,
    };
  }

  /** The budget as it stands, charging nothing (for replays and rejected requests). */
  async peek(projectId: string, tx: Queryable = this.db): Promise<RateLimitState> {
    const [row] = await tx.query<WindowRow>(WINDOW_SQL, [projectId, RATE_WINDOW_SECONDS]);
    return { limit: RATE_LIMIT, remaining: Math.max(0, RATE_LIMIT - row.used), resetSeconds: row.used === 0 ? 0 : resetSeconds(row), allowed: row.used < RATE_LIMIT };
  }
}

function resetSeconds(row: WindowRow): number {
  return Math.min(RATE_WINDOW_SECONDS, Math.max(1, Math.ceil(Number(row.reset_after ?? 0))));
}

export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return { 'RateLimit-Limit': String(state.limit), 'RateLimit-Remaining': String(state.remaining), 'RateLimit-Reset': String(state.resetSeconds) };
}

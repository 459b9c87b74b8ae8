/** What repositories need from Postgres; satisfied by a pg pool and by embedded PGlite alike. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

export abstract class Database implements Queryable {
  abstract readonly kind: 'postgres' | 'pglite';
  abstract query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs fn in one transaction on one connection; rolls back if it throws. */
  abstract transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Subscribes to NOTIFY on a channel; resolves to an unsubscribe function. */
  abstract listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  abstract close(): Promise<void>;
}

import { PGlite } from '@electric-sql/pglite';
import { Database, Queryable } from './database';

/** Embedded Postgres: one connection, so PGlite itself serialises queries and transactions. */
export class PgliteDatabase extends Database {
  readonly kind = 'pglite' as const;

  private constructor(private readonly db: PGlite) {
    super();
  }

  /** `dataDir` is a directory path, or `memory://` for a throwaway database. */
  static async open(dataDir: string): Promise<PgliteDatabase> {
    const db = new PGlite(dataDir);
    await db.waitReady;
    return new PgliteDatabase(db);
  }

  async query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    return (await this.db.query<T>(sql, params)).rows;
  }

  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn({ query: async <R>(sql: string, params: unknown[] = []) => (await tx.query<R>(sql, params)).rows }));
  }

  async listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    return this.db.listen(channel, onNotify);
  }

  async close(): Promise<void> {
    if (!this.db.closed) await this.db.close();
  }
}

import { Pool, PoolClient } from 'pg';
import { Database, Queryable } from './database';

export class PgDatabase extends Database {
  readonly kind = 'postgres' as const;
  private readonly pool: Pool;
  private readonly listeners = new Set<PoolClient>();

  constructor(url: string, max = 10) {
    super();
    this.pool = new Pool({ connectionString: url, max, connectionTimeoutMillis: 10_000 });
    // An idle client that loses its server must not crash the process; the next query reconnects.
    this.pool.on('error', () => undefined);
  }

  async query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    const res = await this.pool.query(sql, params);
    return res.rows as T[];
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const tx: Queryable = { query: async <R>(sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as R[] };
      const result = await fn(tx);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  async listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    const client = await this.pool.connect();
    this.listeners.add(client);
    client.on('notification', (msg) => {
      if (msg.channel === channel) onNotify(msg.payload ?? '');
    });
    await client.query(`LISTEN ${quoteIdent(channel)}`);
    return async () => {
      if (!this.listeners.delete(client)) return;
      await client.query(`UNLISTEN ${quoteIdent(channel)}`).catch(() => undefined);
      client.release();
    };
  }

  async close(): Promise<void> {
    for (const client of this.listeners) client.release();
    this.listeners.clear();
    await this.pool.end();
  }
}

function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`invalid channel name: ${name}`);
  return name;
}

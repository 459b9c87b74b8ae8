import { Client, Pool } from 'pg';
import { Logger } from '@nestjs/common';
import { Database, Queryable } from './database';

export class PgDatabase extends Database {
  readonly kind = 'postgres' as const;
  private readonly pool: Pool;
  private readonly logger = new Logger(PgDatabase.name);
  private readonly listeners = new Set<Listener>();

  constructor(
    private readonly url: string,
    max = 10,
  ) {
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

  /**
   * LISTEN on a connection of its own that comes back by itself: when the server drops it (restart,
   * failover, an idle timeout, pg_terminate_backend), it reconnects with growing delays and LISTENs
   * again, then calls onNotify('') once, since notifications sent meanwhile are lost.
   */
  async listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    const listener = new Listener(this.url, quoteIdent(channel), onNotify, this.logger);
    await listener.connect().catch(async (err: unknown) => {
      await listener.close();
      throw err;
    });
    this.listeners.add(listener);
    return async () => {
      if (this.listeners.delete(listener)) await listener.close();
    };
  }

  async close(): Promise<void> {
    await Promise.all([...this.listeners].map((l) => l.close()));
    this.listeners.clear();
    await this.pool.end();
  }
}

const RECONNECT_DELAYS_MS = [100, 250, 500, 1000, 2000, 5000];

class Listener {
  private client?: Client;
  private closed = false;
  private attempt = 0;
  private retry?: NodeJS.Timeout;

  constructor(
    private readonly url: string,
    private readonly channel: string,
    private readonly onNotify: (payload: string) => void,
    private readonly logger: Logger,
  ) {}

  async connect(): Promise<void> {
    const client = new Client({ connectionString: this.url, connectionTimeoutMillis: 10_000 });
    client.on('notification', (msg) => {
      if (msg.channel === this.channel) this.onNotify(msg.payload ?? '');
    });
    // 'error' then 'end' when the server goes away: reconnect once, on 'end'.
    client.on('error', (err) => this.logger.warn(`LISTEN ${this.channel} connection lost: ${err.message}`));
    client.on('end', () => this.reconnectLater(client));
    this.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
    this.attempt = 0;
  }

  private reconnectLater(from: Client): void {
    if (this.closed || this.client !== from || this.retry) return;
    const delay = RECONNECT_DELAYS_MS[Math.min(this.attempt++, RECONNECT_DELAYS_MS.length - 1)];
    this.retry = setTimeout(() => {
      this.retry = undefined;
      if (this.closed) return;
      this.connect().then(
        () => {
          this.logger.log(`LISTEN ${this.channel} re-established`);
          this.onNotify('');
        },
        (err: Error) => {
          this.logger.warn(`LISTEN ${this.channel}: reconnect failed (${err.message}); retrying`);
          this.reconnectLater(this.client as Client);
        },
      );
    }, delay);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    await this.client?.end().catch(() => undefined);
  }
}

function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`invalid channel name: ${name}`);
  return name;
}

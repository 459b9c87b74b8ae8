import { PGlite, PGliteOptions } from '@electric-sql/pglite';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Database, Queryable } from './database';

/** Embedded Postgres: one connection, so PGlite itself serialises queries and transactions. */
export class PgliteDatabase extends Database {
  readonly kind = 'pglite' as const;

  private constructor(private readonly db: PGlite) {
    super();
  }

  /**
   * `dataDir` is a directory path, or `memory://` for a throwaway database. On first start PGlite
   * runs initdb, whose WebAssembly heap (~450 MB) would stay resident for the life of the process (a
   * wasm memory never shrinks, and the closed instance waits for a major GC): so initdb runs in a
   * short-lived child process, and this process only ever opens an initialised database.
   */
  static async open(dataDir: string, options: { sharedBuffersMb?: number } = {}): Promise<PgliteDatabase> {
    const settings: PGliteOptions = options.sharedBuffersMb ? { postgresqlconf: [`shared_buffers = ${options.sharedBuffersMb}MB`] } : {};
    if (!dataDir.startsWith('memory://') && !existsSync(join(dataDir, 'PG_VERSION'))) await initdbInChild(dataDir, settings);
    const db = new PGlite(dataDir, settings);
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

/** Creates the database in `dataDir` from a child process, so initdb's memory leaves with it. */
function initdbInChild(dataDir: string, settings: PGliteOptions): Promise<void> {
  const script = `const { PGlite } = require(${JSON.stringify(require.resolve('@electric-sql/pglite'))});
    const db = new PGlite(process.argv[1], JSON.parse(process.argv[2]));
    db.waitReady.then(() => db.close()).catch((err) => { console.error(err); process.exit(1); });`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script, dataDir, JSON.stringify(settings)], { stdio: ['ignore', 'ignore', 'inherit'] });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`PGlite initdb exited with ${code}`))));
  });
}

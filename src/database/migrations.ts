import { join } from 'node:path';
import { readSqlFiles } from '../common/sql-files';
import { Database } from './database';

export const POSTGRES_MIGRATIONS_DIR = join(__dirname, 'migrations');

// Any constant works; it only has to be the same in every Docent instance.
const MIGRATION_LOCK = 7_204_113;

/**
 * Applies pending `NNNN_name.sql` files, each in its own transaction, under an advisory lock so
 * instances starting together take turns. Refuses to start if an applied file was edited.
 */
export async function migratePostgres(db: Database, dir = POSTGRES_MIGRATIONS_DIR): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY, name text NOT NULL, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const rows = await tx.query<{ version: number; checksum: string }>('SELECT version, checksum FROM schema_migrations');
    const applied = new Map(rows.map((r) => [r.version, r.checksum]));
    const done: string[] = [];
    for (const file of readSqlFiles(dir)) {
      const previous = applied.get(file.version);
      if (previous !== undefined) {
        if (previous !== file.checksum) throw new Error(`Postgres migration ${file.name} was edited after it was applied`);
        continue;
      }
      for (const statement of file.statements) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [file.version, file.name, file.checksum]);
      done.push(file.name);
    }
    return done;
  });
}

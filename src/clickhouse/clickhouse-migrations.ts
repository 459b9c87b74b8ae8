import type { ClickHouseClient } from '@clickhouse/client';
import { join } from 'node:path';
import { readSqlFiles } from '../common/sql-files';

export const CLICKHOUSE_MIGRATIONS_DIR = join(__dirname, '..', '..', 'clickhouse');

/**
 * Applies pending ClickHouse migrations one statement at a time (a server rejects multi-statement
 * queries) and records each file, so a restart applies nothing twice. Statements are written to be
 * idempotent (IF NOT EXISTS), so two instances starting together are harmless.
 */
export async function migrateClickHouse(client: ClickHouseClient, dir = CLICKHOUSE_MIGRATIONS_DIR): Promise<string[]> {
  await client.command({
    query: `CREATE TABLE IF NOT EXISTS schema_migrations (version UInt32, name String, checksum String, applied_at DateTime64(3, 'UTC') DEFAULT now64(3))
            ENGINE = ReplacingMergeTree ORDER BY version`,
  });
  const rs = await client.query({ query: 'SELECT version, checksum FROM schema_migrations FINAL', format: 'JSONEachRow' });
  const applied = new Map((await rs.json<{ version: number; checksum: string }>()).map((r) => [Number(r.version), r.checksum]));
  const done: string[] = [];
  for (const file of readSqlFiles(dir)) {
    const previous = applied.get(file.version);
    if (previous !== undefined) {
      if (previous !== file.checksum) throw new Error(`ClickHouse migration ${file.name} was edited after it was applied`);
      continue;
    }
    for (const statement of file.statements) await client.command({ query: statement });
    await client.insert({ table: 'schema_migrations', values: [{ version: file.version, name: file.name, checksum: file.checksum }], format: 'JSONEachRow' });
    done.push(file.name);
  }
  return done;
}

// Child process of bench/ingest.ts: the baseline, raw client.insert into the same embedded engine
// (chDB binds one data directory per process, so the baseline gets its own process and DATA_DIR).
import { migrateClickHouse } from '../src/clickhouse/clickhouse-migrations';
import { createClickHouseClient } from '../src/clickhouse/clickhouse.provider';
import { loadConfig } from '../src/config/config';
import { HitRow, HitsRepository } from '../src/ingest/hits.repository';

interface Job {
  rows: HitRow[];
  concurrency: number;
  durationMs: number;
}

async function main(): Promise<void> {
  const client = createClickHouseClient(loadConfig({ DATA_DIR: process.env.DATA_DIR }));
  await migrateClickHouse(client);
  // The service's own insert (same table, format and settings), minus everything in front of it.
  const hits = new HitsRepository(client);
  process.on('message', (message: Job | 'exit') => {
    if (message === 'exit') {
      void client.close().then(() => process.exit(0));
      return;
    }
    void (async () => {
      const { rows, concurrency, durationMs } = message;
      let inserted = 0;
      const started = process.hrtime.bigint();
      const deadline = Date.now() + durationMs;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (Date.now() < deadline) {
            await hits.insert(rows);
            inserted += rows.length;
          }
        }),
      );
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      process.send!({ inserted, seconds });
    })();
  });
  process.send!('ready');
}

void main();

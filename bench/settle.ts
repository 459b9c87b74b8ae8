import type { ClickHouseClient } from '@clickhouse/client';

export interface TableParts {
  table: string;
  parts: number;
  rows: number;
  bytes: number;
}

/**
 * Waits (up to a minute) until background merges have brought every table but the naive baseline to
 * at most 12 active parts, as they would have over a real month of ingest: a freshly generated month
 * sits in many small parts whose rollup rows are not yet merged, which no running service shows.
 */
export async function settle(ch: ClickHouseClient): Promise<TableParts[]> {
  const parts = async () => (await (await ch.query({
    query: `SELECT table, count() AS parts, sum(rows) AS rows, sum(bytes_on_disk) AS bytes FROM system.parts WHERE active AND database = currentDatabase() AND table NOT LIKE '%schema%' GROUP BY table ORDER BY table`,
    format: 'JSONEachRow',
  })).json<TableParts>());
  for (let i = 0; i < 30; i++) {
    const p = await parts();
    if (p.filter((r) => r.table !== 'naive_hits').every((r) => Number(r.parts) <= 12)) return p;
    await new Promise((r) => setTimeout(r, 2000));
  }
  return parts();
}

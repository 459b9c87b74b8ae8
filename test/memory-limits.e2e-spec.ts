import type { ClickHouseClient } from '@clickhouse/client';
import { CLICKHOUSE } from '../src/clickhouse/clickhouse.module';
import { Database } from '../src/database/database';
import { startTestApp, TestApp } from './support/test-app';

/** The small-VM memory knobs reach the embedded engines, and a query over its cap answers 503, never crashes. */
describe('memory limits (embedded engines)', () => {
  let t: TestApp;
  let clickhouse: ClickHouseClient;

  beforeAll(async () => {
    t = await startTestApp({
      CLICKHOUSE_MAX_MEMORY_BYTES: '300000000',
      CLICKHOUSE_MARK_CACHE_BYTES: '8388608',
      PGLITE_SHARED_BUFFERS_MB: '8',
      QUERY_MAX_MEMORY_BYTES: '4000000',
    });
    clickhouse = t.app.get(CLICKHOUSE);
  });
  afterAll(() => t.close());

  it('chDB runs with the configured server memory cap and small caches', async () => {
    const rs = await clickhouse.query({
      query: `SELECT name, value FROM system.server_settings WHERE name IN ('max_server_memory_usage', 'mark_cache_size', 'index_mark_cache_size', 'primary_index_cache_size') ORDER BY name`,
      format: 'JSONEachRow',
    });
    expect(await rs.json()).toEqual([
      { name: 'index_mark_cache_size', value: '2097152' },
      { name: 'mark_cache_size', value: '8388608' },
      { name: 'max_server_memory_usage', value: '300000000' },
      { name: 'primary_index_cache_size', value: '2097152' },
    ]);
  });

  it('PGlite runs with the configured shared_buffers', async () => {
    const [row] = await t.app.get(Database).query<{ shared_buffers: string }>('SHOW shared_buffers');
    expect(row.shared_buffers).toBe('8MB');
  });

  it('a report over QUERY_MAX_MEMORY_BYTES answers 503 with Retry-After, and the service goes on', async () => {
    const { projectId, apiKey } = await t.createProject({ name: 'memory-cap' });
    // 300,000 distinct visitors over 3,000 paths: their exact-count hash sets need far more than 4 MB.
    await clickhouse.command({
      query: `INSERT INTO hits (project_id, timestamp, path, visitor_id, class, ai_agent, ai_category, browser, os, device, referrer_host)
              SELECT {p:String}, toDateTime64('2026-03-10 12:00:00', 3, 'UTC'), concat('/p/', toString(number % 3000)), number, 'human', '', '', '', '', '', ''
              FROM numbers(300000)`,
      query_params: { p: projectId },
    });
    const res = await t.request('GET', `/v1/analytics/${projectId}/visitors?dateFrom=2026-03-10T11:00:00Z&dateTo=2026-03-10T13:00:00Z`, { token: apiKey });
    expect(res.status).toBe(503);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(res.body).toEqual({ error: expect.any(String) });
    expect((await t.request('GET', '/health')).status).toBe(200);
  });
});

import type { ClickHouseClient } from '@clickhouse/client';
import { CLICKHOUSE } from '../src/clickhouse/clickhouse.module';
import { IdempotencyRepository } from '../src/common/idempotency.repository';
import { HitRow, HitsRepository, partitionOf, toClickHouseTime } from '../src/ingest/hits.repository';
import { IDEMPOTENCY_SCOPE, ingestDedupToken } from '../src/ingest/ingest.service';
import { startTestApp, TestApp } from './support/test-app';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const MONTHS = ['2025-01-10T10:00:00.000Z', '2025-02-10T10:00:00.000Z', '2025-03-10T10:00:00.000Z'];

/** 6 hits over 3 months, 2 a month, each by its own visitor. */
const batch = (tag: string) => ({
  hits: MONTHS.flatMap((ts, m) => [0, 1].map((i) => ({ timestamp: ts, path: `/${tag}/${m}/${i}`, userAgent: CHROME, visitorId: `${tag}-${m}-${i}` }))),
});

/** The rows of `batch` as an earlier attempt would have inserted them (same months, so the same dedup blocks). */
function rowsOf(projectId: string, tag: string, months: number[]): HitRow[] {
  return months.flatMap((m) =>
    [0, 1].map((i) => ({
      project_id: projectId,
      timestamp: toClickHouseTime(Date.parse(MONTHS[m])),
      path: `/${tag}/${m}/${i}`,
      visitor_id: String(1000 + m * 10 + i),
      class: 'human' as const,
      ai_agent: '',
      ai_category: '',
      ai_operator: '',
      verification: 'unknown' as const,
      browser: 'Chrome',
      os: 'Windows',
      device: 'desktop',
      referrer_host: '',
      utm_source: '',
    })),
  );
}

describe('Idempotency-Key: every keyed write is safe to retry, whatever an earlier attempt did (embedded engines)', () => {
  let t: TestApp;
  let clickhouse: ClickHouseClient;
  let keys: IdempotencyRepository;
  let hits: HitsRepository;
  let p: { projectId: string; apiKey: string };

  const ingest = (body: unknown, key: string) => t.request('POST', `/v1/ingest/${p.projectId}/hits`, { token: p.apiKey, body, headers: { 'idempotency-key': key } });
  const perMonth = async (tag: string): Promise<Record<string, number>> => {
    const rs = await clickhouse.query({
      query: `SELECT toString(toYYYYMM(timestamp)) AS month, count() AS n FROM hits WHERE project_id = {p:String} AND startsWith(path, {prefix:String}) GROUP BY month ORDER BY month`,
      query_params: { p: p.projectId, prefix: `/${tag}/` },
      format: 'JSONEachRow',
    });
    return Object.fromEntries((await rs.json<{ month: string; n: number }>()).map((r) => [r.month, Number(r.n)]));
  };
  const ONCE = { '202501': 2, '202502': 2, '202503': 2 };

  /** What an attempt that crashed did: claimed the key, and stored the rows of `months` (maybe none) with its token. */
  async function crashedAttempt(tag: string, key: string, months: number[]): Promise<void> {
    const claim = await keys.claim(p.projectId, IDEMPOTENCY_SCOPE, key);
    if (claim.state !== 'claimed') throw new Error('expected a fresh claim');
    const rows = rowsOf(p.projectId, tag, months);
    if (rows.length) await hits.insert(rows, { dedupToken: ingestDedupToken(p.projectId, key, claim.firstSeenAt), partitions: new Set(rows.map(partitionOf)).size });
  }

  beforeAll(async () => {
    t = await startTestApp();
    clickhouse = t.app.get(CLICKHOUSE);
    keys = t.app.get(IdempotencyRepository);
    hits = t.app.get(HitsRepository);
    p = await t.createProject({ name: 'idempotency' });
  });
  afterAll(() => t.close());

  it.each([
    ['claimed the key and stored nothing', 'none', []],
    ['stored every month but crashed before recording the answer', 'all', [0, 1, 2]],
    ['stored one month of three (the insert was cut short)', 'part', [1]],
  ])('the attempt %s: the retry gets 202 and every hit is stored exactly once', async (_what, tag, months) => {
    await crashedAttempt(tag, `key-${tag}`, months);
    const retry = await ingest(batch(tag), `key-${tag}`);
    expect(retry.status).toBe(202);
    expect(retry.body).toEqual({ accepted: 6 });
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(await perMonth(tag)).toEqual(ONCE);
    const again = await ingest(batch(tag), `key-${tag}`); // replayed from the record now
    expect(again.status).toBe(202);
    expect(again.body).toEqual({ accepted: 6 });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await perMonth(tag)).toEqual(ONCE);
  });

  it('the same key sent 6 times at once: all get 202, the batch is stored once, and the rollups count it once', async () => {
    const results = await Promise.all(Array.from({ length: 6 }, () => ingest(batch('burst'), 'key-burst')));
    expect(results.map((r) => r.status)).toEqual([202, 202, 202, 202, 202, 202]);
    for (const r of results) expect(r.body).toEqual({ accepted: 6 });
    expect(await perMonth('burst')).toEqual(ONCE);
    const report = await t.request('GET', `/v1/analytics/${p.projectId}/visitors?dateFrom=2025-01-01&dateTo=2025-04-01&limit=250`, { token: p.apiKey });
    const burst = (report.body.visitors as Array<{ path: string; total: number }>).filter((v) => v.path.startsWith('/burst/'));
    expect(burst).toHaveLength(6);
    for (const v of burst) expect(v.total).toBe(1);
  });

  it('after a 503 (store down) the retry with the same key stores the batch once', async () => {
    await clickhouse.command({ query: 'RENAME TABLE hits TO hits_away' });
    let failed;
    try {
      failed = await ingest(batch('down'), 'key-down');
    } finally {
      await clickhouse.command({ query: 'RENAME TABLE hits_away TO hits' });
    }
    expect(failed.status).toBe(503);
    expect(Number(failed.headers.get('retry-after'))).toBeGreaterThan(0);
    const retry = await ingest(batch('down'), 'key-down');
    expect(retry.status).toBe(202);
    expect(await perMonth('down')).toEqual(ONCE);
  });

  it('hits without a timestamp keep the first attempt\'s time on a retry', async () => {
    const claim = await keys.claim(p.projectId, IDEMPOTENCY_SCOPE, 'key-now');
    if (claim.state !== 'claimed') throw new Error('expected a fresh claim');
    await new Promise((r) => setTimeout(r, 50));
    expect((await ingest({ hits: [{ path: '/now/0', userAgent: CHROME }] }, 'key-now')).status).toBe(202);
    const rs = await clickhouse.query({ query: `SELECT timestamp FROM hits WHERE project_id = {p:String} AND path = '/now/0'`, query_params: { p: p.projectId }, format: 'JSONEachRow' });
    expect(await rs.json()).toEqual([{ timestamp: toClickHouseTime(claim.firstSeenAt.getTime()) }]);
  });

  it('a batch refused at the edge claims no key: the corrected batch with the same key is stored', async () => {
    const refused = await ingest({ hits: [{ path: '/x\ud800', userAgent: CHROME }] }, 'key-fixed');
    expect(refused.status).toBe(400);
    const fixed = await ingest({ hits: [{ path: '/fixed/0', userAgent: CHROME }] }, 'key-fixed');
    expect(fixed.status).toBe(202);
    expect(Object.values(await perMonth('fixed'))).toEqual([1]);
  });
});

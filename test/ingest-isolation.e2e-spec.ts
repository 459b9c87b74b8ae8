import type { ClickHouseClient } from '@clickhouse/client';
import { InvalidInput } from '../src/common/domain-errors';
import { CLICKHOUSE } from '../src/clickhouse/clickhouse.module';
import { HitRow, HitsRepository, toClickHouseTime } from '../src/ingest/hits.repository';
import { HitsWriter } from '../src/ingest/hits.writer';
import { startTestApp, TestApp } from './support/test-app';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** `months` hits, one per month going back from last month, each by its own visitor. */
function monthsBack(months: number, tag: string) {
  const now = new Date();
  return Array.from({ length: months }, (_, i) => ({
    timestamp: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1 - i, 15, 12)).toISOString(),
    path: `/${tag}/${i}`,
    userAgent: CHROME,
    visitorId: `${tag}-visitor-${i}`,
  }));
}

/** A row as the service would build it: lets a test put what validation refuses straight into the writer. */
function row(projectId: string, path: string): HitRow {
  return {
    project_id: projectId,
    timestamp: toClickHouseTime(Date.now()),
    path,
    visitor_id: '42',
    class: 'human',
    ai_agent: '',
    ai_category: '',
    ai_operator: '',
    verification: 'unknown',
    browser: 'Chrome',
    os: 'Windows',
    device: 'desktop',
    referrer_host: '',
    utm_source: '',
  };
}

/**
 * An app whose writer starts an insert only once `flushRows` rows wait (or after 10 s): the
 * requests of a test deterministically share one flush, as they would under load. The spy calls
 * through (the real insert runs); it only shows what was grouped with what.
 */
async function sharedFlushApp(flushRows: number) {
  const app = await startTestApp({ INGEST_FLUSH_ROWS: String(flushRows), INGEST_FLUSH_MS: '10000', INGEST_FLUSH_WHEN_IDLE: 'off' });
  return { app, inserts: jest.spyOn(app.app.get(HitsRepository), 'insert') };
}

describe('Ingest: one bad request never fails another (embedded engines)', () => {
  let t: TestApp;
  let clickhouse: ClickHouseClient;

  const count = async (projectId: string): Promise<number> => {
    const rs = await clickhouse.query({ query: 'SELECT count() AS n FROM hits WHERE project_id = {p:String}', query_params: { p: projectId }, format: 'JSONEachRow' });
    return Number((await rs.json<{ n: number }>())[0].n);
  };
  const ingest = (p: { projectId: string; apiKey: string }, body: unknown) => t.request('POST', `/v1/ingest/${p.projectId}/hits`, { token: p.apiKey, body });
  const beacon = (projectId: string, raw: string) =>
    t.request('POST', `/v1/collect/${projectId}`, { body: raw, headers: { 'content-type': 'text/plain', 'user-agent': CHROME } });

  beforeAll(async () => {
    t = await startTestApp();
    clickhouse = t.app.get(CLICKHOUSE);
  });
  afterAll(() => t.close());

  describe('at the edge: what ClickHouse would refuse is a 400 naming the field', () => {
    it('a beacon with a lone surrogate gets 400 (CORS-readable) while beacons beside it are stored', async () => {
      const p = await t.createProject({ name: 'poison-beacon' });
      const [poison, ...fine] = await Promise.all([
        beacon(p.projectId, '{"path":"/x\\ud800"}'),
        ...Array.from({ length: 5 }, (_, i) => beacon(p.projectId, JSON.stringify({ path: `/fine/${i}` }))),
      ]);
      expect(poison.status).toBe(400);
      expect(poison.headers.get('retry-after')).toBeNull();
      expect(poison.headers.get('access-control-allow-origin')).toBe('*');
      expect(poison.body.details).toEqual([expect.objectContaining({ field: 'path', message: expect.stringContaining('Unicode') })]);
      expect(fine.map((r) => r.status)).toEqual([202, 202, 202, 202, 202]);
      expect(await count(p.projectId)).toBe(5);
      const referrer = await beacon(p.projectId, '{"path":"/ok","referrer":"https://r.test/\\udc00"}');
      expect(referrer.status).toBe(400);
      expect(referrer.body.details).toEqual([expect.objectContaining({ field: 'referrer' })]);
    });

    it('server-side hits with lone surrogates get 400 naming hits[i].field, and store nothing', async () => {
      const p = await t.createProject({ name: 'poison-ingest' });
      const raw = '{"hits":[{"path":"/ok","userAgent":"x"},{"path":"/a\\ud800","userAgent":"b\\udfff","visitorId":"\\ud800x","referrer":"https://r.test/\\ud800"}]}';
      const res = await ingest(p, raw);
      expect(res.status).toBe(400);
      expect(res.body.details.map((d: { field: string }) => d.field)).toEqual(['hits[1].path', 'hits[1].userAgent', 'hits[1].visitorId', 'hits[1].referrer']);
      expect(await count(p.projectId)).toBe(0);
    });

    it('timestamps: years below 100 are not read as 19xx; before 1900-01-01 (the store\'s range) is a 400; 1900 stores as sent', async () => {
      const p = await t.createProject({ name: 'old-times' });
      const old = await ingest(p, { hits: [{ timestamp: '0099-12-31T00:00:00Z', path: '/old', userAgent: CHROME }] });
      expect(old.status).toBe(400);
      expect(old.body.details).toEqual([expect.objectContaining({ field: 'hits[0].timestamp', message: expect.stringContaining('1900-01-01') })]);
      const earliest = await ingest(p, { hits: [{ timestamp: '1900-01-01T00:00:00Z', path: '/1900', userAgent: CHROME }, { timestamp: '1969-07-20T20:17:40Z', path: '/1969', userAgent: CHROME }] });
      expect(earliest.status).toBe(202);
      const rs = await clickhouse.query({ query: 'SELECT path, timestamp FROM hits WHERE project_id = {p:String} ORDER BY timestamp', query_params: { p: p.projectId }, format: 'JSONEachRow' });
      expect(await rs.json()).toEqual([
        { path: '/1900', timestamp: '1900-01-01 00:00:00.000' },
        { path: '/1969', timestamp: '1969-07-20 20:17:40.000' },
      ]);
    });
  });

  describe('any past timestamp stores, whatever the span of one batch', () => {
    const visitorsTotal = async (p: { projectId: string; apiKey: string }) => {
      const res = await t.request('GET', `/v1/analytics/${p.projectId}/visitors?limit=250`, { token: p.apiKey });
      expect(res.status).toBe(200);
      return res.body as { totals: { total: number; human: number }; visitors: Array<{ path: string }> };
    };

    it('a batch spanning 150 months gets 202, is stored whole and counted by the visitors report', async () => {
      const p = await t.createProject({ name: 'span-150' });
      const res = await ingest(p, { hits: monthsBack(150, 'm') });
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ accepted: 150 });
      expect(await count(p.projectId)).toBe(150);
      const report = await visitorsTotal(p);
      expect(report.totals.total).toBe(150);
      expect(report.totals.human).toBe(150);
      expect(report.visitors).toHaveLength(150);
    });
  });
});

describe('Ingest group commit: rows the store refuses fail alone; no insert touches over 100 months (embedded engines)', () => {
  let g: TestApp;
  let spy: jest.SpyInstance;
  const stored = async (projectId: string) => {
    const rs = await g.app.get<ClickHouseClient>(CLICKHOUSE).query({ query: 'SELECT count() AS n FROM hits WHERE project_id = {p:String}', query_params: { p: projectId }, format: 'JSONEachRow' });
    return Number((await rs.json<{ n: number }>())[0].n);
  };
  const post = (q: { projectId: string; apiKey: string }, body: unknown) => g.request('POST', `/v1/ingest/${q.projectId}/hits`, { token: q.apiKey, body });
  const FLUSH_ROWS = 120;
  const hitsN = (n: number, tag: string) => ({ hits: Array.from({ length: n }, (_, i) => ({ path: `/${tag}/${i}`, userAgent: CHROME })) });
  const beaconTo = (projectId: string, raw: string) => g.request('POST', `/v1/collect/${projectId}`, { body: raw, headers: { 'content-type': 'text/plain', 'user-agent': CHROME } });

  beforeAll(async () => {
    ({ app: g, inserts: spy } = await sharedFlushApp(FLUSH_ROWS));
  });
  afterAll(() => g.close());
  beforeEach(() => spy.mockClear());

  it('a poison row below validation shares a flush with others; it alone fails (400), everyone else is stored (202)', async () => {
    const p = await g.createProject({ name: 'poison-writer' });
    const q = await g.createProject({ name: 'poison-writer-other' });
    // A real poison: the lone surrogate ClickHouse refuses (CANNOT_PARSE_ESCAPE_SEQUENCE), past the edge checks.
    const poisoned = g.app.get(HitsWriter).write([row(p.projectId, '/poison/\ud800')]).then(
      () => undefined,
      (err: unknown) => err,
    );
    // 1 + 59 + 58 + 1 + 1 = 120 rows: one shared insert.
    const others = await Promise.all([post(p, hitsN(59, 'a')), post(q, hitsN(58, 'c')), beaconTo(p.projectId, '{"path":"/d"}'), beaconTo(q.projectId, '{"path":"/e"}')]);
    const err = await poisoned;
    expect(others.map((r) => r.status)).toEqual([202, 202, 202, 202]);
    expect(err).toBeInstanceOf(InvalidInput);
    expect(await stored(p.projectId)).toBe(60);
    expect(await stored(q.projectId)).toBe(59);
    // They did share the first insert, which ClickHouse refused whole; then halves, until the poison was alone.
    const sizes = spy.mock.calls.map(([rows]) => (rows as HitRow[]).length);
    expect(sizes[0]).toBe(FLUSH_ROWS);
    await expect(spy.mock.results[0].value).rejects.toMatchObject({ type: 'CANNOT_PARSE_ESCAPE_SEQUENCE' });
    expect(sizes.length).toBeLessThanOrEqual(1 + 2 * Math.ceil(Math.log2(5)));
  });

  it('when the store itself fails, every writer of the flush gets 503 with Retry-After, and none is stored', async () => {
    const p = await g.createProject({ name: 'store-down' });
    const ch = g.app.get<ClickHouseClient>(CLICKHOUSE);
    await ch.command({ query: 'RENAME TABLE hits TO hits_away' });
    let results;
    try {
      // 60 + 59 + 1 = 120 rows: one shared insert.
      results = await Promise.all([post(p, hitsN(60, 'a')), post(p, hitsN(59, 'b')), beaconTo(p.projectId, '{"path":"/c"}')]);
    } finally {
      await ch.command({ query: 'RENAME TABLE hits_away TO hits' });
    }
    for (const res of results) {
      expect(res.status).toBe(503);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(res.body.error).toEqual(expect.any(String));
    }
    expect(spy).toHaveBeenCalledTimes(1); // not bisected: the data was not the problem
    expect(await stored(p.projectId)).toBe(0);
  });

  it('two 60-month batches of different projects, due together, are both stored in separate inserts', async () => {
    const [p, q] = [await g.createProject({ name: 'span-60-a' }), await g.createProject({ name: 'span-60-b' })];
    // Different months: together 120 partitions, more than one insert may touch; 60 + 60 rows: due together.
    const [a, b] = await Promise.all([post(p, { hits: monthsBack(60, 'p') }), post(q, { hits: monthsBack(120, 'q').slice(60) })]);
    expect([a.status, b.status]).toEqual([202, 202]);
    expect(await stored(p.projectId)).toBe(60);
    expect(await stored(q.projectId)).toBe(60);
    expect(spy.mock.calls.map(([rows]) => (rows as HitRow[]).length)).toEqual([60, 60]);
    for (const result of spy.mock.results) await expect(result.value).resolves.toBeUndefined();
  });
});

import type { ClickHouseClient } from '@clickhouse/client';
import { CLICKHOUSE } from '../src/clickhouse/clickhouse.module';
import { startTestApp, TestApp } from './support/test-app';
import { bruteForce, Expected, FixtureHit, HitClass, insertHits, seededRandom } from './visitors.fixtures';

const T = (iso: string) => Date.parse(iso);

describe('GET /v1/analytics/:projectId/visitors', () => {
  let t: TestApp;
  let client: ClickHouseClient;

  beforeAll(async () => {
    t = await startTestApp();
    client = t.app.get(CLICKHOUSE);
  });
  afterAll(async () => {
    await t.close();
  });

  async function project(hits: FixtureHit[]) {
    const p = await t.createProject();
    await insertHits(client, p.projectId, hits);
    return p;
  }

  async function report(p: { projectId: string; apiKey: string }, query: Record<string, string | number> = {}) {
    const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
    return t.request('GET', `/v1/analytics/${p.projectId}/visitors${qs ? `?${qs}` : ''}`, { token: p.apiKey });
  }

  /** Walks every page (offset += limit while hasMore) and checks each page's invariants on the way. */
  async function walk(p: { projectId: string; apiKey: string }, query: Record<string, string | number>, limit: number): Promise<Expected> {
    const visitors: Expected['visitors'] = [];
    let totals: Expected['totals'] | undefined;
    for (let offset = 0; ; offset += limit) {
      const res = await report(p, { ...query, limit, offset });
      expect(res.status).toBe(200);
      if (totals) expect(res.body.totals).toEqual(totals);
      totals = res.body.totals;
      expect(res.body.visitors.length).toBeLessThanOrEqual(limit);
      visitors.push(...res.body.visitors);
      if (!res.body.hasMore) break;
      expect(res.body.visitors).toHaveLength(limit);
    }
    return { totals: totals!, visitors };
  }

  describe('range boundaries', () => {
    const hits: FixtureHit[] = [
      { at: T('2026-03-10T08:00:00.000Z'), path: '/from', visitor: 1n, class: 'human' }, // exactly dateFrom (+02:00 case)
      { at: T('2026-03-10T07:59:59.999Z'), path: '/before', visitor: 2n, class: 'human' },
      { at: T('2026-03-12T08:00:00.000Z'), path: '/to', visitor: 3n, class: 'human' }, // exactly dateTo (+02:00 case)
      { at: T('2026-03-12T07:59:59.999Z'), path: '/last', visitor: 4n, class: 'ai' },
      { at: T('2026-03-10T00:00:00.000Z'), path: '/midnight-from', visitor: 5n, class: 'human' },
      { at: T('2026-03-12T00:00:00.000Z'), path: '/midnight-to', visitor: 6n, class: 'ai' },
      { at: T('2026-03-11T12:00:00.000Z'), path: '/inside', visitor: 7n, class: 'human' },
    ];
    let p: { projectId: string; apiKey: string };
    beforeAll(async () => {
      p = await project(hits);
    });

    it('includes a hit exactly at dateFrom and excludes one exactly at dateTo (+02:00 offsets)', async () => {
      const res = await report(p, { dateFrom: '2026-03-10T10:00:00+02:00', dateTo: '2026-03-12T10:00:00+02:00' });
      expect(res.status).toBe(200);
      const paths = res.body.visitors.map((v: { path: string }) => v.path).sort();
      expect(paths).toEqual(['/from', '/inside', '/last', '/midnight-to']);
      expect(res.body).toEqual({ ...bruteForce(hits, T('2026-03-10T08:00:00Z'), T('2026-03-12T08:00:00Z')), hasMore: false });
    });

    it('reads an unencoded + in the offset (a space after form decoding) as +', async () => {
      const res = await t.request('GET', `/v1/analytics/${p.projectId}/visitors?dateFrom=2026-03-10T10:00:00+02:00&dateTo=2026-03-12T10:00:00+02:00`, { token: p.apiKey });
      expect(res.status).toBe(200);
      expect(res.body.totals).toEqual(bruteForce(hits, T('2026-03-10T08:00:00Z'), T('2026-03-12T08:00:00Z')).totals);
    });

    it('includes a hit exactly at dateFrom and excludes one exactly at dateTo (Z and no offset)', async () => {
      for (const [dateFrom, dateTo] of [['2026-03-10T08:00:00Z', '2026-03-12T08:00:00Z'], ['2026-03-10T08:00:00', '2026-03-12T08:00:00.000']]) {
        const res = await report(p, { dateFrom, dateTo });
        expect(res.body).toEqual({ ...bruteForce(hits, T('2026-03-10T08:00:00Z'), T('2026-03-12T08:00:00Z')), hasMore: false });
      }
    });

    it('treats YYYY-MM-DD as midnight UTC: dateFrom included, dateTo excluded', async () => {
      const res = await report(p, { dateFrom: '2026-03-10', dateTo: '2026-03-12' });
      const paths = res.body.visitors.map((v: { path: string }) => v.path).sort();
      expect(paths).toEqual(['/before', '/from', '/inside', '/midnight-from']);
      expect(res.body).toEqual({ ...bruteForce(hits, T('2026-03-10T00:00:00Z'), T('2026-03-12T00:00:00Z')), hasMore: false });
    });

    it('answers ranges shorter than a day from the raw hits, with the same boundaries', async () => {
      const res = await report(p, { dateFrom: '2026-03-10T08:00:00Z', dateTo: '2026-03-10T08:00:00.001Z' });
      expect(res.body).toEqual({ totals: { human: 1, ai: 0, total: 1 }, visitors: [{ path: '/from', human: 1, ai: 0, total: 1 }], hasMore: false });
    });

    it('takes an absent bound as unbounded, and an empty range as empty', async () => {
      expect((await report(p)).body).toEqual({ ...bruteForce(hits), hasMore: false });
      expect((await report(p, { dateFrom: '2026-03-11' })).body).toEqual({ ...bruteForce(hits, T('2026-03-11T00:00:00Z')), hasMore: false });
      expect((await report(p, { dateTo: '2026-03-11' })).body).toEqual({ ...bruteForce(hits, -Infinity, T('2026-03-11T00:00:00Z')), hasMore: false });
      expect((await report(p, { dateFrom: '2027-01-01' })).body).toEqual({ totals: { human: 0, ai: 0, total: 0 }, visitors: [], hasMore: false });
    });
  });

  describe('counting', () => {
    it('counts a visitor with human and AI hits once in total, and never counts bots', async () => {
      const day = T('2026-04-02T09:00:00Z');
      const hits: FixtureHit[] = [
        { at: day, path: '/a', visitor: 10n, class: 'human' },
        { at: day + 1000, path: '/a', visitor: 10n, class: 'ai' },
        { at: day + 2000, path: '/a', visitor: 10n, class: 'human' },
        { at: day + 3000, path: '/b', visitor: 10n, class: 'ai' },
        { at: day + 4000, path: '/a', visitor: 11n, class: 'ai' },
        { at: day + 5000, path: '/a', visitor: 12n, class: 'bot' },
        { at: day + 6000, path: '/a', visitor: 11n, class: 'bot' },
        { at: day + 7000, path: '/bots-only', visitor: 12n, class: 'bot' },
        { at: day + 86_400_000, path: '/a', visitor: 10n, class: 'human' }, // next day: still the same visitor
      ];
      const p = await project(hits);
      for (const query of <Array<Record<string, string>>>[{}, { dateFrom: '2026-04-01', dateTo: '2026-05-01' }, { dateFrom: '2026-04-02T08:00:00Z', dateTo: '2026-04-03T10:00:00Z' }, { dateFrom: '2026-04-02T08:00:00Z', dateTo: '2026-04-02T10:00:00Z' }]) {
        const res = await report(p, query);
        expect(res.body.totals).toEqual({ human: 1, ai: 2, total: 2 });
        expect(res.body.visitors).toEqual([
          { path: '/a', human: 1, ai: 2, total: 2 },
          { path: '/b', human: 0, ai: 1, total: 1 },
        ]);
      }
    });

    it('orders by total desc then path asc, keeps totals whatever the page, and pages without gap or repeat', async () => {
      const hits: FixtureHit[] = [];
      const at = T('2026-04-20T12:00:00Z');
      // 23 paths; totals 1..5 repeat, so most totals are ties broken by path.
      for (let i = 0; i < 23; i++) {
        const path = `/p${String((i * 7) % 23).padStart(2, '0')}`;
        for (let v = 0; v <= i % 5; v++) hits.push({ at: at + v, path, visitor: BigInt(1000 + v), class: v % 2 ? 'ai' : 'human' });
      }
      const p = await project(hits);
      const expected = bruteForce(hits);
      const full = await report(p, { limit: 250 });
      expect(full.body).toEqual({ ...expected, hasMore: false });
      for (let i = 1; i < expected.visitors.length; i++) {
        const [a, b] = [expected.visitors[i - 1], expected.visitors[i]];
        expect(a.total > b.total || (a.total === b.total && a.path < b.path)).toBe(true);
      }
      for (const limit of [1, 4, 5, 22, 23, 24]) {
        const walked = await walk(p, {}, limit);
        expect(walked).toEqual(expected);
      }
      // hasMore is false exactly on the last page: a page ending on the last row says so.
      expect((await report(p, { limit: 3, offset: 20 })).body.hasMore).toBe(false);
      expect((await report(p, { limit: 3, offset: 19 })).body.hasMore).toBe(true);
      const past = await report(p, { limit: 10, offset: 100 });
      expect(past.body).toEqual({ totals: expected.totals, visitors: [], hasMore: false });
      expect((await report(p)).body.visitors).toHaveLength(23); // default limit 50
    });

    it('counts a visitor seen on the same path in two months once', async () => {
      const hits: FixtureHit[] = [
        { at: T('2026-01-31T23:00:00Z'), path: '/x', visitor: 1n, class: 'human' },
        { at: T('2026-02-01T01:00:00Z'), path: '/x', visitor: 1n, class: 'human' },
        { at: T('2026-02-28T10:00:00Z'), path: '/x', visitor: 2n, class: 'ai' },
        { at: T('2026-03-01T10:00:00Z'), path: '/x', visitor: 2n, class: 'human' },
        { at: T('2026-03-31T10:00:00Z'), path: '/x', visitor: 3n, class: 'human' },
        { at: T('2026-04-01T10:00:00Z'), path: '/x', visitor: 3n, class: 'human' },
      ];
      const p = await project(hits);
      for (const [from, to] of [['2026-01-15', '2026-02-15'], ['2026-02-15', '2026-03-15'], ['2026-01-01', '2026-05-01'], ['2026-01-31T22:00:00Z', '2026-04-01T11:00:00Z'], ['2026-03-31T12:00:00+02:00', '2026-04-01T12:00:00+02:00']]) {
        expect((await report(p, { dateFrom: from, dateTo: to })).body).toEqual({ ...bruteForce(hits, T(from), T(to)), hasMore: false });
      }
    });
  });

  describe('randomized fixture against brute force', () => {
    const random = seededRandom(20260301);
    const pick = <X>(xs: X[]) => xs[Math.floor(random() * xs.length)];
    const start = T('2025-12-20T00:00:00Z');
    const span = 110 * 86_400_000; // into April: ranges over one, two and more months
    const hits: FixtureHit[] = [];
    for (let i = 0; i < 4000; i++) {
      const visitor = BigInt(1 + Math.floor(random() ** 2 * 600)) * 0x9e3779b97f4a7c15n % 2n ** 64n; // spread over 64 bits
      const cls: HitClass = random() < 0.1 ? 'bot' : random() < 0.25 ? 'ai' : 'human';
      hits.push({ at: start + Math.floor(random() * span), path: `/docs/${Math.floor(random() ** 2 * 60)}`, visitor, class: cls });
    }
    // Some exactly on the instants the windows below may use.
    for (let d = 0; d < 110; d += 3) hits.push({ at: start + d * 86_400_000, path: '/midnight', visitor: BigInt(d), class: pick(['human', 'ai']) });
    let p: { projectId: string; apiKey: string };
    beforeAll(async () => {
      p = await project(hits);
    });

    const iso = (ms: number) => new Date(ms).toISOString();
    const windows: Array<[string | undefined, string | undefined]> = [
      [undefined, undefined],
      ['2026-01-01', '2026-02-01'],
      ['2026-01-15', '2026-02-15'],
      ['2025-12-25', '2026-03-10'],
      ['2026-02-03T05:30:00.000Z', '2026-02-03T18:00:00.000Z'],
      ['2026-02-03T05:30:00+05:30', '2026-02-04T00:00:00-03:00'],
      ['2026-03-31', undefined],
      [undefined, '2026-01-02T03:04:05.006Z'],
    ];
    for (let i = 0; i < 10; i++) {
      const a = start + Math.floor(random() * span);
      const b = a + 1 + Math.floor(random() * (i < 5 ? 40 : 100) * 86_400_000);
      windows.push([iso(a), iso(b)]);
    }

    it.each(windows)('window [%s, %s)', async (dateFrom, dateTo) => {
      const query: Record<string, string> = {};
      if (dateFrom) query.dateFrom = dateFrom;
      if (dateTo) query.dateTo = dateTo;
      const expected = bruteForce(hits, dateFrom ? T(dateFrom) : -Infinity, dateTo ? T(dateTo) : Infinity);
      expect(await walk(p, query, 25)).toEqual(expected);
    });
  });

  describe('parameters', () => {
    let p: { projectId: string; apiKey: string };
    beforeAll(async () => {
      p = await project([{ at: T('2026-05-01T10:00:00Z'), path: '/', visitor: 1n, class: 'human' }]);
    });

    it.each([
      ['limit', '0'], ['limit', '251'], ['limit', '1.5'], ['limit', 'abc'], ['limit', ''], ['limit', '-1'], ['limit', '+5'], ['limit', '1e2'],
      ['offset', '-1'], ['offset', '0.5'], ['offset', 'x'], ['offset', ''],
      ['dateFrom', '2026-13-01'], ['dateFrom', '2026-02-30'], ['dateFrom', 'yesterday'], ['dateFrom', ''], ['dateFrom', '2026-03-01T25:00:00Z'],
      ['dateTo', '2026-02-29'], ['dateTo', '2026-03-01T10:00:00+24:00'], ['dateTo', 'now'],
    ])('%s=%j → 400 naming the field', async (field, value) => {
      const res = await t.request('GET', `/v1/analytics/${p.projectId}/visitors?${field}=${encodeURIComponent(value)}`, { token: p.apiKey });
      expect(res.status).toBe(400);
      expect(typeof res.body.error).toBe('string');
      expect(res.body.details).toEqual([{ field, message: expect.stringContaining(field) }]);
    });

    it('refuses dateFrom at or after dateTo, naming the fields', async () => {
      for (const [dateFrom, dateTo] of [['2026-03-02', '2026-03-01'], ['2026-03-01', '2026-03-01'], ['2026-03-01T02:00:00+02:00', '2026-03-01T00:00:00Z']]) {
        const res = await report(p, { dateFrom, dateTo });
        expect(res.status).toBe(400);
        expect(res.body.details.map((d: { field: string }) => d.field)).toEqual(['dateFrom', 'dateTo']);
      }
    });

    it('accepts the documented forms, leading zeros, and ignores unknown parameters', async () => {
      for (const query of <Array<Record<string, string>>>[{ limit: '05', offset: '00' }, { limit: '250' }, { limit: '1', offset: '0' }, { foo: 'bar', page: '2' }, { dateFrom: '2026-05-01T10:00', dateTo: '2026-05-01T10:00:00.0001Z' }, { dateFrom: '2026-05-01T12:00:00.000+0200' }]) {
        const res = await report(p, query);
        expect(res.status).toBe(200);
        expect(res.body.totals).toEqual({ human: 1, ai: 0, total: 1 });
      }
      expect((await report(p, { limit: '05' })).body.visitors).toHaveLength(1);
    });

    it('needs the project\'s own admin key', async () => {
      const other = await t.createProject();
      expect((await t.request('GET', `/v1/analytics/${p.projectId}/visitors`)).status).toBe(401);
      const wrong = await t.request('GET', `/v1/analytics/${p.projectId}/visitors`, { token: other.apiKey });
      expect(wrong.status).toBe(403);
      expect(typeof wrong.body.error).toBe('string');
      expect((await t.request('GET', `/v1/analytics/${p.projectId}/visitors`, { token: 'docent_not-a-key' })).status).toBe(401);
    });
  });
});

describe('visitors report under per-query limits', () => {
  let t: TestApp | undefined;
  afterAll(async () => {
    await t?.close();
  });

  it('answers 503 with Retry-After when a query hits max_memory_usage', async () => {
    const app = (t = await startTestApp({ QUERY_MAX_MEMORY_BYTES: '1000000' }));
    const client = app.app.get<ClickHouseClient>(CLICKHOUSE);
    const p = await app.createProject();
    await client.command({
      query: `INSERT INTO hits (project_id, timestamp, path, visitor_id, class)
              SELECT {projectId:String}, toDateTime64('2026-03-01 00:00:00', 3, 'UTC') + toIntervalSecond(number % 2000000), concat('/p', toString(number % 5000)), number, 'human'
              FROM numbers(300000)`,
      query_params: { projectId: p.projectId },
    });
    for (const qs of ['', '?dateFrom=2026-03-01&dateTo=2026-03-20', '?dateFrom=2026-03-01T10:00:00Z&dateTo=2026-03-01T20:00:00Z']) {
      const res = await app.request('GET', `/v1/analytics/${p.projectId}/visitors${qs}`, { token: p.apiKey });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(res.body).toEqual({ error: expect.any(String) });
      expect(res.text).not.toMatch(/SELECT|Code:|MEMORY_LIMIT/);
    }
  });

  it('once closed, frees the embedded engine for another data directory, although the refused queries ran on', async () => {
    const closing = t;
    t = undefined;
    await closing?.close();
    const next = await startTestApp();
    try {
      expect((await next.createProject()).projectId).toEqual(expect.any(String));
    } finally {
      await next.close();
    }
  });
});

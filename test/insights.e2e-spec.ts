import type { ClickHouseClient } from '@clickhouse/client';
import { CLICKHOUSE } from '../src/clickhouse/clickhouse.module';
import { bruteBreakdown, bruteTimeseries } from './insights.fixtures';
import { startTestApp, TestApp } from './support/test-app';
import { bruteForce, FixtureHit, HitClass, insertHits, seededRandom } from './visitors.fixtures';

const T = (iso: string) => Date.parse(iso);
const HOUR = 3_600_000;
const DAY = 86_400_000;
const BY = ['agent', 'operator', 'category', 'referrer', 'source', 'browser', 'os', 'device', 'format'];

type Project = { projectId: string; apiKey: string };
type Query = Record<string, string | number | undefined>;

describe('insights: timeseries and breakdown', () => {
  let t: TestApp;
  let client: ClickHouseClient;

  beforeAll(async () => {
    t = await startTestApp();
    client = t.app.get(CLICKHOUSE);
  });
  afterAll(async () => {
    await t.close();
  });

  const get = (p: Project, endpoint: string, query: Query = {}) => {
    const qs = new URLSearchParams(Object.entries(query).filter(([, v]) => v !== undefined).map(([k, v]): [string, string] => [k, String(v)])).toString();
    return t.request('GET', `/v1/analytics/${p.projectId}/${endpoint}${qs ? `?${qs}` : ''}`, { token: p.apiKey });
  };

  /** Walks every page of a breakdown, checking that totals never change from page to page. */
  async function walkBreakdown(p: Project, query: Query, limit: number) {
    const rows: unknown[] = [];
    let totals: unknown;
    for (let offset = 0; ; offset += limit) {
      const res = await get(p, 'breakdown', { ...query, limit, offset });
      expect(res.status).toBe(200);
      expect(res.body.by).toBe(query.by);
      if (totals) expect(res.body.totals).toEqual(totals);
      totals = res.body.totals;
      rows.push(...res.body.rows);
      if (!res.body.hasMore) break;
      expect(res.body.rows).toHaveLength(limit);
    }
    return { totals, rows };
  }

  describe('randomized fixture against brute force', () => {
    const random = seededRandom(20260329);
    const pick = <X>(xs: readonly X[]) => xs[Math.floor(random() * xs.length)];
    const agents = [
      { agent: 'GPTBot', operator: 'OpenAI', category: 'training' },
      { agent: 'ChatGPT-User', operator: 'OpenAI', category: 'assistant' },
      { agent: 'ClaudeBot', operator: 'Anthropic', category: 'training' },
      { agent: 'PerplexityBot', operator: 'Perplexity', category: 'search' },
      { agent: 'OldBot', operator: '', category: 'other' },
    ];
    const paths = ['/docs/a', '/docs/b/intro.md', '/docs/b/ref.MDX', '/llms.txt', '/docs/llms-full.txt', '/feed', '/sitemap.xml', '/blog/post.html', '/docs/guide/', '/', '/api/data.json', '/ünï/code'];
    // Around Berlin's spring-forward (2026-03-29) and fall-back (2026-10-25) days.
    const spans = [[T('2026-03-24T00:00:00Z'), 12 * DAY], [T('2026-10-22T00:00:00Z'), 6 * DAY]];
    const hits: FixtureHit[] = [];
    for (let i = 0; i < 3000; i++) {
      const [start, span] = pick(spans);
      const visitor = BigInt(1 + Math.floor(random() ** 2 * 300)) * 0x9e3779b97f4a7c15n % 2n ** 64n;
      const cls: HitClass = random() < 0.1 ? 'bot' : random() < 0.35 ? 'ai' : 'human';
      const hit: FixtureHit = { at: start + Math.floor(random() * span), path: pick(paths), visitor, class: cls };
      if (cls === 'ai') Object.assign(hit, pick(agents), { verification: pick(['verified', 'unverified', 'unknown'] as const) });
      if (cls !== 'ai') {
        Object.assign(hit, {
          browser: pick(['Chrome', 'Firefox', 'Safari']), os: pick(['Windows', 'macOS', 'iOS']), device: pick(['desktop', 'mobile']),
          referrerHost: pick(['', '', 'google.com', 'chatgpt.com', 'perplexity.ai', 'claude.ai', 'github.com']),
          utmSource: pick(['', '', '', 'chatgpt.com', 'newsletter', 'Copilot.com']),
        });
      }
      hits.push(hit);
    }
    // Hits exactly on local midnights (Berlin, Kolkata) and on DST instants.
    for (const iso of ['2026-03-28T23:00:00Z', '2026-03-29T01:00:00Z', '2026-03-29T22:00:00Z', '2026-03-26T18:30:00Z', '2026-03-27T18:29:59.999Z', '2026-10-25T00:59:59.999Z', '2026-10-25T01:00:00Z', '2026-10-25T23:00:00Z']) {
      hits.push({ at: T(iso), path: '/docs/edge', visitor: 7n, class: 'human', browser: 'Chrome', os: 'macOS', device: 'desktop' });
      hits.push({ at: T(iso), path: '/docs/edge', visitor: 8n, class: 'ai', ...agents[0], verification: 'verified' });
    }
    let p: Project;
    beforeAll(async () => {
      p = await t.createProject();
      await insertHits(client, p.projectId, hits);
    });

    it('Berlin days across spring-forward: a 23-hour day, every bucket present, counts exact', async () => {
      const res = await get(p, 'timeseries', { interval: 'day', timezone: 'Europe/Berlin', dateFrom: '2026-03-25', dateTo: '2026-04-02' });
      expect(res.status).toBe(200);
      const starts = res.body.buckets.map((b: { start: string }) => T(b.start));
      expect(starts).toHaveLength(8);
      expect(res.body.buckets[0].start).toBe('2026-03-24T23:00:00.000Z');
      expect(starts[5] - starts[4]).toBe(23 * HOUR); // 2026-03-29
      expect(res.body.buckets[5].start).toBe('2026-03-29T22:00:00.000Z');
      expect(res.body).toEqual({ interval: 'day', timezone: 'Europe/Berlin', buckets: bruteTimeseries(hits, starts, T('2026-03-24T23:00:00Z'), T('2026-04-01T22:00:00Z')) });
    });

    it('Berlin hours across fall-back: 25 hourly buckets in the day, 01:00–02:00 twice', async () => {
      const res = await get(p, 'timeseries', { interval: 'hour', timezone: 'Europe/Berlin', dateFrom: '2026-10-25', dateTo: '2026-10-26' });
      expect(res.status).toBe(200);
      const starts = res.body.buckets.map((b: { start: string }) => T(b.start));
      expect(starts).toHaveLength(25);
      expect(starts.every((s: number, i: number) => i === 0 || s - starts[i - 1] === HOUR)).toBe(true);
      expect(res.body.buckets).toEqual(bruteTimeseries(hits, starts, T('2026-10-24T22:00:00Z'), T('2026-10-25T23:00:00Z')));
    });

    it('Kolkata (+05:30) hours and days, with pathPrefix and sub-day edges', async () => {
      for (const interval of ['hour', 'day']) {
        const query = { interval, timezone: 'Asia/Kolkata', pathPrefix: '/docs', dateFrom: '2026-03-26T10:15:00', dateTo: '2026-03-29T10:15:00' };
        const res = await get(p, 'timeseries', query);
        expect(res.status).toBe(200);
        const starts = res.body.buckets.map((b: { start: string }) => T(b.start));
        expect(starts[0]).toBe(interval === 'hour' ? T('2026-03-26T04:30:00Z') : T('2026-03-25T18:30:00Z'));
        expect(starts.every((s: number) => (s - T('2026-03-25T18:30:00Z')) % (interval === 'hour' ? HOUR : DAY) === 0)).toBe(true);
        expect(res.body.buckets).toEqual(bruteTimeseries(hits, starts, T('2026-03-26T04:45:00Z'), T('2026-03-29T04:45:00Z'), '/docs'));
      }
    });

    it('windows with edges inside a quarter-hour, hour and day buckets', async () => {
      for (const interval of ['hour', 'day']) {
        const res = await get(p, 'timeseries', { interval, timezone: 'Asia/Kolkata', dateFrom: '2026-03-26T10:37:13.5', dateTo: '2026-03-29T00:04' });
        expect(res.status).toBe(200);
        const starts = res.body.buckets.map((b: { start: string }) => T(b.start));
        expect(res.body.buckets).toEqual(bruteTimeseries(hits, starts, T('2026-03-26T05:07:13.500Z'), T('2026-03-28T18:34:00Z')));
      }
    });

    it('ISO weeks from Monday and months, in UTC and in Kolkata', async () => {
      for (const [interval, timezone, dateFrom, dateTo, first, n] of [
        ['week', 'UTC', '2026-03-20', '2026-11-01', '2026-03-16T00:00:00.000Z', 33],
        ['month', 'Asia/Kolkata', '2026-03-01', '2026-11-01', '2026-02-28T18:30:00.000Z', 8],
        ['week', 'Europe/Berlin', '2026-03-20', '2026-04-10', '2026-03-15T23:00:00.000Z', 4],
      ] as const) {
        const res = await get(p, 'timeseries', { interval, timezone, dateFrom, dateTo });
        expect(res.status).toBe(200);
        expect(res.body.buckets[0].start).toBe(first);
        expect(res.body.buckets).toHaveLength(n);
        const starts = res.body.buckets.map((b: { start: string }) => T(b.start));
        const zoneFrom = timezone === 'UTC' ? T(dateFrom) : timezone === 'Asia/Kolkata' ? T(dateFrom) - 5.5 * HOUR : T(dateFrom) - HOUR;
        const zoneTo = timezone === 'UTC' ? T(dateTo) : timezone === 'Asia/Kolkata' ? T(dateTo) - 5.5 * HOUR : T(dateTo) - 2 * HOUR;
        expect(res.body.buckets).toEqual(bruteTimeseries(hits, starts, zoneFrom, zoneTo));
      }
    });

    const windows: Array<[string, Query, number, number, string | undefined]> = [
      ['unbounded', {}, -Infinity, Infinity, undefined],
      ['Berlin days with pathPrefix', { timezone: 'Europe/Berlin', dateFrom: '2026-03-25', dateTo: '2026-03-30', pathPrefix: '/docs/' }, T('2026-03-24T23:00:00Z'), T('2026-03-29T22:00:00Z'), '/docs/'],
      ['Kolkata sub-day edges', { timezone: 'Asia/Kolkata', dateFrom: '2026-03-26T10:30', dateTo: '2026-03-29T10:30' }, T('2026-03-26T05:00:00Z'), T('2026-03-29T05:00:00Z'), undefined],
      ['edges inside quarter-hours (from the hits, the rest from the rollups)', { timezone: 'Asia/Kolkata', dateFrom: '2026-03-26T10:37:13.500', dateTo: '2026-03-29T00:04:00' }, T('2026-03-26T05:07:13.500Z'), T('2026-03-28T18:34:00Z'), undefined],
      ['explicit offsets win over timezone', { timezone: 'Asia/Kolkata', dateFrom: '2026-10-24T12:00:00Z', dateTo: '2026-10-26T00:00:00+01:00' }, T('2026-10-24T12:00:00Z'), T('2026-10-25T23:00:00Z'), undefined],
    ];
    for (const [name, query, from, to, prefix] of windows) {
      it(`every breakdown equals brute force: ${name}`, async () => {
        for (const by of BY) {
          const expected = bruteBreakdown(hits, by, from, to, prefix);
          const full = await get(p, 'breakdown', { ...query, by, limit: 250 });
          expect(full.status).toBe(200);
          expect({ by, ...full.body }).toEqual({ by, totals: expected.totals, rows: expected.rows, hasMore: false });
          expect(await walkBreakdown(p, { ...query, by }, 2)).toEqual(expected);
        }
      });

      it(`visitors with timezone and pathPrefix equal brute force: ${name}`, async () => {
        const inside = prefix ? hits.filter((h) => h.path.startsWith(prefix)) : hits;
        const res = await get(p, 'visitors', { ...query, limit: 250 });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ ...bruteForce(inside, from, to), hasMore: false });
      });
    }

    it('marks AI assistants among referrers and computes crawls per referral', async () => {
      const res = await get(p, 'breakdown', { by: 'referrer', limit: 250 });
      const chatgpt = res.body.rows.find((r: { value: string }) => r.value === 'chatgpt.com');
      expect(chatgpt.aiAssistant).toBe('ChatGPT');
      expect(res.body.rows.find((r: { value: string }) => r.value === 'github.com').aiAssistant).toBeNull();
      const ops = await get(p, 'breakdown', { by: 'operator', limit: 250 });
      const openai = ops.body.rows.find((r: { value: string }) => r.value === 'OpenAI');
      expect(openai.referred).toBeGreaterThan(0);
      expect(openai.crawlsPerReferral).toBeCloseTo(openai.hits / openai.referred, 10);
      expect(ops.body.rows.find((r: { value: string }) => r.value === 'Microsoft')).toMatchObject({ ai: 0, hits: 0, crawlsPerReferral: 0 });
    });
  });

  describe('counting rules', () => {
    it('counts a visitor once per bucket and in total once across human and AI; bots only as hits', async () => {
      const p = await t.createProject();
      const at = T('2026-05-04T10:00:00Z');
      const hits: FixtureHit[] = [
        { at, path: '/a', visitor: 1n, class: 'human' },
        { at: at + 1000, path: '/a', visitor: 1n, class: 'human' },
        { at: at + 2000, path: '/b.md', visitor: 1n, class: 'ai', agent: 'ClaudeBot', operator: 'Anthropic', category: 'training' },
        { at: at + 3000, path: '/a', visitor: 2n, class: 'bot' },
        { at: at + DAY, path: '/a', visitor: 1n, class: 'human' },
      ];
      await insertHits(client, p.projectId, hits);
      const res = await get(p, 'timeseries', { dateFrom: '2026-05-04', dateTo: '2026-05-06' });
      expect(res.body.buckets).toEqual([
        { start: '2026-05-04T00:00:00.000Z', human: 1, ai: 1, total: 1, hits: { human: 2, ai: 1, bot: 1 } },
        { start: '2026-05-05T00:00:00.000Z', human: 1, ai: 0, total: 1, hits: { human: 1, ai: 0, bot: 0 } },
      ]);
      const format = await get(p, 'breakdown', { by: 'format', dateFrom: '2026-05-04', dateTo: '2026-05-06' });
      expect(format.body).toEqual({
        by: 'format', totals: { human: 1, ai: 1, total: 1, hits: 4 },
        rows: [{ value: 'html', human: 1, ai: 0, total: 1, hits: 3 }, { value: 'markdown', human: 0, ai: 1, total: 1, hits: 1 }], hasMore: false,
      });
      const agent = await get(p, 'breakdown', { by: 'agent' });
      expect(agent.body.rows).toEqual([{ value: 'ClaudeBot', operator: 'Anthropic', category: 'training', human: 0, ai: 1, total: 1, hits: 1, verification: { verified: 0, unverified: 0, unknown: 1 } }]);
    });

    it('defaults to the 30 days ending with today, and to an empty bucket list for nothing', async () => {
      const p = await t.createProject();
      await insertHits(client, p.projectId, [{ at: Date.now() - 1000, path: '/now', visitor: 1n, class: 'human' }]);
      const res = await get(p, 'timeseries');
      expect(res.status).toBe(200);
      expect(res.body.buckets).toHaveLength(30);
      const last = res.body.buckets[29];
      expect(T(last.start)).toBeLessThanOrEqual(Date.now());
      expect(T(last.start) + DAY).toBeGreaterThan(Date.now() - 1000);
      expect(last.human).toBe(1);
      const hours = await get(p, 'timeseries', { interval: 'hour', timezone: 'Asia/Kolkata' });
      expect(hours.body.buckets).toHaveLength(30);
      expect(T(hours.body.buckets[0].start) % HOUR).toBe(30 * 60_000);
    });
  });

  describe('validation', () => {
    let p: Project;
    beforeAll(async () => {
      p = await t.createProject();
    });
    const fields = async (endpoint: string, query: Query) => {
      const res = await get(p, endpoint, query);
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual(expect.any(String));
      return res.body.details.map((d: { field: string }) => d.field);
    };

    it.each(['visitors', 'timeseries', 'breakdown'])('%s: 400 naming timezone, pathPrefix, dates', async (endpoint) => {
      const by = endpoint === 'breakdown' ? { by: 'agent' } : {};
      expect(await fields(endpoint, { ...by, timezone: 'Mars/Olympus' })).toEqual(['timezone']);
      expect(await fields(endpoint, { ...by, timezone: '+01:00' })).toEqual(['timezone']);
      expect(await fields(endpoint, { ...by, pathPrefix: 'docs' })).toEqual(['pathPrefix']);
      expect(await fields(endpoint, { ...by, pathPrefix: `/${'a'.repeat(2048)}` })).toEqual(['pathPrefix']);
      expect(await fields(endpoint, { ...by, dateFrom: '2026-02-30' })).toEqual(['dateFrom']);
      expect(await fields(endpoint, { ...by, dateFrom: '2026-03-02', dateTo: '2026-03-01' })).toEqual(['dateFrom', 'dateTo']);
      // Date-only values are midnight in timezone: the same day in Kolkata ends before UTC's begins.
      expect((await get(p, endpoint, { ...by, timezone: 'Asia/Kolkata', dateFrom: '2026-03-01', dateTo: '2026-03-02' })).status).toBe(200);
      expect((await get(p, endpoint, { ...by, timezone: 'europe/berlin', pathPrefix: `/${'a'.repeat(2047)}` })).status).toBe(200);
    });

    it('timeseries: interval, more than 1,000 buckets', async () => {
      expect(await fields('timeseries', { interval: 'minute' })).toEqual(['interval']);
      expect(await fields('timeseries', { interval: 'hour', dateFrom: '2026-01-01', dateTo: '2026-03-01' })).toEqual(['interval', 'dateFrom']);
      const ok = await get(p, 'timeseries', { interval: 'hour', dateFrom: '2026-01-01', dateTo: '2026-02-11T16:00:00Z' });
      expect(ok.body.buckets).toHaveLength(1000);
      expect(ok.body.buckets.every((b: { total: number }) => b.total === 0)).toBe(true);
    });

    it('breakdown: by, limit, offset', async () => {
      expect(await fields('breakdown', {})).toEqual(['by']);
      expect(await fields('breakdown', { by: 'path' })).toEqual(['by']);
      expect(await fields('breakdown', { by: 'agent', limit: 0, offset: -1 })).toEqual(['limit', 'offset']);
      expect(await fields('breakdown', { by: 'agent', limit: 251 })).toEqual(['limit']);
      const empty = await get(p, 'breakdown', { by: 'agent' });
      expect(empty.body).toEqual({ by: 'agent', totals: { human: 0, ai: 0, total: 0, hits: 0 }, rows: [], hasMore: false });
    });

    it('is in the OpenAPI document', async () => {
      const doc = (await t.request('GET', '/openapi.json')).body;
      for (const endpoint of ['visitors', 'timeseries', 'breakdown']) {
        const op = doc.paths[`/v1/analytics/{projectId}/${endpoint}`].get;
        const names = op.parameters.map((x: { name: string }) => x.name);
        expect(names).toEqual(expect.arrayContaining(['dateFrom', 'dateTo', 'timezone', 'pathPrefix']));
      }
      expect(doc.paths['/v1/analytics/{projectId}/breakdown'].get.parameters.find((x: { name: string }) => x.name === 'by').schema.enum).toEqual(BY);
    });
  });

  describe('utm_source at ingest', () => {
    it('keeps utm_source from both ingest routes and drops the rest of the query string', async () => {
      const p = await t.createProject();
      const chrome = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
      const ingest = await t.request('POST', `/v1/ingest/${p.projectId}/hits`, {
        token: p.apiKey,
        body: { hits: [
          { path: '/guide?utm_source=chatgpt.com&utm_medium=x#top', userAgent: chrome, ip: '203.0.113.1' },
          { path: `/long?utm_source=${'x'.repeat(300)}`, userAgent: chrome, ip: '203.0.113.2' },
          { path: '/plain?a=1', userAgent: chrome, ip: '203.0.113.3' },
        ] },
      });
      expect(ingest.status).toBe(202);
      const beacon = await t.request('POST', `/v1/collect/${p.projectId}`, {
        body: { path: 'https://docs.example.com/beacon?utm_source=Copilot.com&ref=1', referrer: 'https://copilot.microsoft.com/chat' },
        headers: { 'user-agent': chrome, 'x-forwarded-for': '203.0.113.9' },
      });
      expect(beacon.status).toBe(202);
      const rows = await (await client.query({
        query: 'SELECT path, utm_source, referrer_host FROM hits WHERE project_id = {p:String} ORDER BY path', query_params: { p: p.projectId }, format: 'JSONEachRow',
      })).json<{ path: string; utm_source: string; referrer_host: string }>();
      expect(rows).toEqual([
        { path: '/beacon', utm_source: 'Copilot.com', referrer_host: 'copilot.microsoft.com' },
        { path: '/guide', utm_source: 'chatgpt.com', referrer_host: '' },
        { path: '/long', utm_source: 'x'.repeat(256), referrer_host: '' },
        { path: '/plain', utm_source: '', referrer_host: '' },
      ]);
      const source = await get(p, 'breakdown', { by: 'source' });
      expect(source.body.rows.map((r: { value: string }) => r.value)).toEqual(['', 'Copilot.com', 'chatgpt.com', 'x'.repeat(256)]);
      const ops = await get(p, 'breakdown', { by: 'operator' });
      expect(ops.body.rows).toEqual([
        { value: 'Microsoft', human: 0, ai: 0, total: 0, hits: 0, referred: 1, crawlsPerReferral: 0 },
        { value: 'OpenAI', human: 0, ai: 0, total: 0, hits: 0, referred: 1, crawlsPerReferral: 0 },
      ]);
    });
  });
});

import type { ClickHouseClient } from '@clickhouse/client';
import { rmSync } from 'node:fs';
import { CLICKHOUSE } from '../src/clickhouse/clickhouse.module';
import { createClickHouseClient } from '../src/clickhouse/clickhouse.provider';
import { HitRow } from '../src/ingest/hits.repository';
import { startTestApp, TestApp } from './support/test-app';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IOS = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';
const CHATGPT_USER = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot';
const CLAUDEBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)';
const PERPLEXITYBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const CURL = 'curl/8.5.0';

/** A row as read back from ClickHouse: the same shape the writer inserts. */
type StoredHit = HitRow;

describe('Ingest over HTTP (embedded engines)', () => {
  let t: TestApp;
  let clickhouse: ClickHouseClient;
  let project: { projectId: string; apiKey: string };
  let other: { projectId: string; apiKey: string };

  const stored = async (projectId: string, where = '1'): Promise<StoredHit[]> => {
    const rs = await clickhouse.query({
      query: `SELECT * FROM hits WHERE project_id = {projectId:String} AND ${where} ORDER BY timestamp, path`,
      query_params: { projectId },
      format: 'JSONEachRow',
    });
    return rs.json<StoredHit>();
  };
  const count = async (projectId: string): Promise<number> => {
    const rs = await clickhouse.query({ query: 'SELECT count() AS n FROM hits WHERE project_id = {projectId:String}', query_params: { projectId }, format: 'JSONEachRow' });
    return Number((await rs.json<{ n: number }>())[0].n);
  };
  const ingest = (projectId: string, body: unknown, options: { token?: string; headers?: Record<string, string> } = {}) =>
    t.request('POST', `/v1/ingest/${projectId}/hits`, { token: options.token ?? project.apiKey, body, headers: options.headers });

  beforeAll(async () => {
    t = await startTestApp();
    clickhouse = t.app.get(CLICKHOUSE);
    project = await t.createProject({ name: 'ingest' });
    other = await t.createProject({ name: 'ingest-other' });
  });
  afterAll(() => t.close());

  it('stores a mixed batch with the right classes, immediately visible, and no raw IP anywhere', async () => {
    const at = '2026-01-15T10:00:00.000Z';
    const hits = [
      { timestamp: at, path: '/docs/a?utm=x#top', userAgent: CHROME, ip: '203.0.113.7', referrer: 'https://www.google.com/search?q=docent' },
      { timestamp: '2026-01-15T10:00:01.000Z', path: '/docs/b', userAgent: SAFARI_IOS, ip: '2001:db8::1' },
      { timestamp: '2026-01-15T10:00:02.000Z', path: '/docs/c', userAgent: FIREFOX, visitorId: 'cookie-123' },
      { timestamp: '2026-01-15T10:00:03.000Z', path: '/docs/d', userAgent: GPTBOT, ip: '198.51.100.1' },
      { timestamp: '2026-01-15T10:00:04.000Z', path: '/docs/e', userAgent: CHATGPT_USER, ip: '198.51.100.2' },
      { timestamp: '2026-01-15T10:00:05.000Z', path: '/docs/f', userAgent: CLAUDEBOT, ip: '198.51.100.3' },
      { timestamp: '2026-01-15T10:00:06.000Z', path: '/docs/g', userAgent: PERPLEXITYBOT, ip: '198.51.100.4' },
      { timestamp: '2026-01-15T10:00:07.000Z', path: '/docs/h', userAgent: GOOGLEBOT, ip: '66.249.66.1' },
      { timestamp: '2026-01-15T10:00:08.000Z', path: '/docs/i', userAgent: CURL, ip: '192.0.2.9' },
      { timestamp: '2026-01-15T10:00:09.000Z', path: '/docs/j', userAgent: '', ip: '192.0.2.10', referrer: '-' },
    ];
    const res = await ingest(project.projectId, { hits });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ accepted: 10 });

    const rows = await stored(project.projectId);
    expect(rows.map((r) => [r.path, r.class, r.ai_agent, r.ai_category])).toEqual([
      ['/docs/a', 'human', '', ''],
      ['/docs/b', 'human', '', ''],
      ['/docs/c', 'human', '', ''],
      ['/docs/d', 'ai', 'GPTBot', 'training'],
      ['/docs/e', 'ai', 'ChatGPT-User', 'assistant'],
      ['/docs/f', 'ai', 'ClaudeBot', 'training'],
      ['/docs/g', 'ai', 'PerplexityBot', 'search'],
      ['/docs/h', 'bot', '', ''],
      ['/docs/i', 'bot', '', ''],
      ['/docs/j', 'bot', '', ''],
    ]);
    expect(rows[0]).toMatchObject({ timestamp: '2026-01-15 10:00:00.000', browser: 'Chrome', os: 'Windows', device: 'desktop', referrer_host: 'www.google.com' });
    expect(rows[1]).toMatchObject({ browser: expect.stringContaining('Safari'), os: 'iOS', device: 'mobile', referrer_host: '' });
    expect(rows[9].referrer_host).toBe('');
    expect(new Set(rows.map((r) => String(r.visitor_id))).size).toBe(10);
    for (const r of rows) expect(String(r.visitor_id)).toMatch(/^\d+$/);

    const dump = JSON.stringify(rows);
    for (const ip of ['203.0.113.7', '2001:db8::1', '198.51.100', '66.249.66.1', '192.0.2']) expect(dump).not.toContain(ip);
  });

  it('identifies visitors as decisions.md says: per day for humans, across days for agents, by visitorId when given', async () => {
    const p = await t.createProject({ name: 'identity' });
    const now = Date.now();
    const today = new Date(now - 60_000).toISOString();
    const yesterday = new Date(now - 86_400_000).toISOString();
    const ip = '203.0.113.50';
    const res = await ingest(p.projectId, {
      hits: [
        { timestamp: today, path: '/h/today', userAgent: CHROME, ip },
        { timestamp: today, path: '/h/today-again', userAgent: CHROME, ip },
        { timestamp: yesterday, path: '/h/yesterday', userAgent: CHROME, ip },
        { timestamp: today, path: '/ai/today', userAgent: GPTBOT, ip },
        { timestamp: yesterday, path: '/ai/yesterday', userAgent: GPTBOT, ip },
        { timestamp: today, path: '/v/today', userAgent: CHROME, visitorId: 'user-1' },
        { timestamp: yesterday, path: '/v/yesterday', userAgent: FIREFOX, visitorId: 'user-1' },
      ],
    }, { token: p.apiKey });
    expect(res.status).toBe(202);
    const byPath = new Map((await stored(p.projectId)).map((r) => [r.path, String(r.visitor_id)]));
    expect(byPath.get('/h/today')).toBe(byPath.get('/h/today-again'));
    expect(byPath.get('/h/today')).not.toBe(byPath.get('/h/yesterday'));
    expect(byPath.get('/ai/today')).toBe(byPath.get('/ai/yesterday'));
    expect(byPath.get('/v/today')).toBe(byPath.get('/v/yesterday'));
    expect(byPath.get('/h/today')).not.toBe(byPath.get('/ai/today'));
  });

  it('counts a retried batch once with the same Idempotency-Key', async () => {
    const p = await t.createProject({ name: 'idempotent' });
    const body = { hits: [{ path: '/retry/1', userAgent: CHROME, ip: '203.0.113.1' }, { path: '/retry/2', userAgent: GPTBOT }] };
    const headers = { 'idempotency-key': 'batch-0001' };
    const first = await ingest(p.projectId, body, { token: p.apiKey, headers });
    const second = await ingest(p.projectId, body, { token: p.apiKey, headers });
    expect(first.status).toBe(202);
    expect(second.status).toBe(202);
    expect(second.body).toEqual(first.body);
    expect(first.body).toEqual({ accepted: 2 });
    expect(await count(p.projectId)).toBe(2);

    expect((await ingest(p.projectId, body, { token: p.apiKey, headers: { 'idempotency-key': 'batch-0002' } })).status).toBe(202);
    expect(await count(p.projectId)).toBe(4);
    const tooLong = await ingest(p.projectId, body, { token: p.apiKey, headers: { 'idempotency-key': 'k'.repeat(256) } });
    expect(tooLong.status).toBe(400);
    expect(await count(p.projectId)).toBe(4);
  });

  it('accepts a timestamp 1 minute in the future, a past one and a zone offset, and strips the query', async () => {
    const q = await t.createProject({ name: 'edges' });
    const res = await ingest(q.projectId, {
      hits: [
        { timestamp: new Date(Date.now() + 60_000).toISOString(), path: '/soon', userAgent: CHROME },
        { timestamp: '2019-03-01T12:00:00+02:00', path: '/old?x=1#y', userAgent: CHROME },
        { path: '/' + 'p'.repeat(2047) + '?' + 'q'.repeat(5000), userAgent: '' },
      ],
    }, { token: q.apiKey });
    expect(res.status).toBe(202);
    const rows = await stored(q.projectId);
    expect(rows.map((r) => r.path.slice(0, 5))).toEqual(['/old', '/pppp', '/soon']);
    expect(rows[0].timestamp).toBe('2019-03-01 10:00:00.000');
    expect(rows[1].path).toHaveLength(2048);
  });

  describe('bad input gets its 4xx and stores nothing', () => {
    let p: { projectId: string; apiKey: string };
    const ok = { path: '/fine', userAgent: CHROME };
    beforeAll(async () => {
      p = await t.createProject({ name: 'bad-input' });
    });
    afterEach(async () => {
      expect(await count(p.projectId)).toBe(0);
    });

    it.each([
      ['a path without "/"', [ok, { path: 'docs/a', userAgent: CHROME }], 'hits[1].path'],
      ['a bad timestamp', [{ ...ok, timestamp: 'yesterday' }], 'hits[0].timestamp'],
      ['an impossible date', [{ ...ok, timestamp: '2026-02-30T10:00:00Z' }], 'hits[0].timestamp'],
      ['a timestamp 10 minutes in the future', [{ ...ok, timestamp: new Date(Date.now() + 10 * 60_000).toISOString() }], 'hits[0].timestamp'],
      ['a missing userAgent', [{ path: '/x' }], 'hits[0].userAgent'],
      ['a user agent over 16 KiB', [{ path: '/x', userAgent: 'a'.repeat(16 * 1024 + 1) }], 'hits[0].userAgent'],
      ['a path over 2,048 chars', [{ path: '/' + 'p'.repeat(2048), userAgent: CHROME }], 'hits[0].path'],
      ['a bad ip', [ok, ok, { ...ok, ip: '999.1.1.1' }], 'hits[2].ip'],
      ['a visitorId over 256 chars', [{ ...ok, visitorId: 'v'.repeat(257) }], 'hits[0].visitorId'],
      ['a non-string referrer', [{ ...ok, referrer: 42 }], 'hits[0].referrer'],
      ['a hit that is not an object', ['/x'], 'hits[0]'],
      ['no hits', [], 'hits'],
      ['1,001 hits', Array.from({ length: 1001 }, () => ok), 'hits'],
    ])('%s → 400 naming the field', async (_name, hits, field) => {
      const res = await ingest(p.projectId, { hits }, { token: p.apiKey });
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual(expect.any(String));
      expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field, message: expect.any(String) })]));
    });

    it('a 2 MiB body → 413', async () => {
      const big = { hits: [{ path: '/x', userAgent: 'a'.repeat(2 * 1024 * 1024) }] };
      const res = await ingest(p.projectId, big, { token: p.apiKey });
      expect(res.status).toBe(413);
      expect(res.body.error).toEqual(expect.any(String));
    });

    it('a non-JSON body → 400, a non-JSON content type → 415', async () => {
      const broken = await ingest(p.projectId, '{"hits": [', { token: p.apiKey });
      expect(broken.status).toBe(400);
      expect(broken.body.error).toEqual(expect.any(String));
      const text = await ingest(p.projectId, 'path=/x', { token: p.apiKey, headers: { 'content-type': 'text/plain' } });
      expect(text.status).toBe(415);
      const form = await ingest(p.projectId, 'path=/x', { token: p.apiKey, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect(form.status).toBe(415);
    });

    it('no key → 401, a wrong key → 401, another project\'s key → 403', async () => {
      const body = { hits: [ok] };
      expect((await t.request('POST', `/v1/ingest/${p.projectId}/hits`, { body })).status).toBe(401);
      const wrong = await ingest(p.projectId, body, { token: 'docent_' + 'x'.repeat(46) });
      expect(wrong.status).toBe(401);
      expect(wrong.body.error).toEqual(expect.any(String));
      const foreign = await ingest(p.projectId, body, { token: other.apiKey });
      expect(foreign.status).toBe(403);
    });
  });

  describe('browser beacon /v1/collect', () => {
    it('answers the CORS preflight', async () => {
      const res = await fetch(`${t.url}/v1/collect/${project.projectId}`, {
        method: 'OPTIONS',
        headers: { origin: 'https://docs.example.com', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-methods')).toBe('POST');
      expect(res.headers.get('access-control-allow-headers')).toBe('Content-Type');
    });

    it('stores a text/plain JSON beacon with the user agent from the header and the URL\'s pathname', async () => {
      const p = await t.createProject({ name: 'collect' });
      const res = await t.request('POST', `/v1/collect/${p.projectId}`, {
        body: JSON.stringify({ path: 'https://docs.example.com/guide/intro?ref=nav#part', referrer: 'https://news.ycombinator.com/item?id=1' }),
        headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': SAFARI_IOS, origin: 'https://docs.example.com' },
      });
      expect(res.status).toBe(202);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      const json = await t.request('POST', `/v1/collect/${p.projectId}`, { body: { path: '/guide/next' }, headers: { 'user-agent': CLAUDEBOT } });
      expect(json.status).toBe(202);

      const rows = await stored(p.projectId);
      expect(rows.map((r) => [r.path, r.class, r.os, r.referrer_host, r.ai_agent])).toEqual([
        ['/guide/intro', 'human', 'iOS', 'news.ycombinator.com', ''],
        ['/guide/next', 'ai', '', '', 'ClaudeBot'],
      ]);
      expect(JSON.stringify(rows)).not.toContain('127.0.0.1');
    });

    it('refuses an unknown project (404), a bad path (400) and a body over 64 KiB (413)', async () => {
      const unknown = await t.request('POST', '/v1/collect/prj_doesnotexist0000000', { body: { path: '/x' }, headers: { 'user-agent': CHROME } });
      expect(unknown.status).toBe(404);
      expect(unknown.body.error).toEqual(expect.any(String));
      const p = await t.createProject({ name: 'collect-bad' });
      const bad = await t.request('POST', `/v1/collect/${p.projectId}`, { body: { path: 'javascript:alert(1)' } });
      expect(bad.status).toBe(400);
      expect(bad.body.details).toEqual([expect.objectContaining({ field: 'path' })]);
      expect(bad.headers.get('access-control-allow-origin')).toBe('*');
      const big = await t.request('POST', `/v1/collect/${p.projectId}`, { body: JSON.stringify({ path: '/x', referrer: 'r'.repeat(65 * 1024) }), headers: { 'content-type': 'text/plain' } });
      expect(big.status).toBe(413);
      expect(await count(p.projectId)).toBe(0);
    });
  });
});

describe('Ingest writer limits (embedded engines)', () => {
  const body = (n: number) => ({ hits: Array.from({ length: n }, (_, i) => ({ path: `/limit/${i}`, userAgent: CHROME, ip: '203.0.113.9' })) });

  describe('bounded queue and failing storage', () => {
    let t: TestApp;
    let project: { projectId: string; apiKey: string };
    beforeAll(async () => {
      t = await startTestApp({ INGEST_QUEUE_MAX_ROWS: '5' });
      project = await t.createProject({ name: 'limits' });
    });
    afterAll(() => t.close());

    it('answers 503 with Retry-After when a batch would overflow the queue, and stores nothing of it', async () => {
      const full = await t.request('POST', `/v1/ingest/${project.projectId}/hits`, { token: project.apiKey, body: body(6) });
      expect(full.status).toBe(503);
      expect(Number(full.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(full.body.error).toEqual(expect.any(String));
      const fits = await t.request('POST', `/v1/ingest/${project.projectId}/hits`, { token: project.apiKey, body: body(5) });
      expect(fits.status).toBe(202);
      const rs = await t.app.get<ClickHouseClient>(CLICKHOUSE).query({ query: 'SELECT count() AS n FROM hits WHERE project_id = {p:String}', query_params: { p: project.projectId }, format: 'JSONEachRow' });
      expect(Number((await rs.json<{ n: number }>())[0].n)).toBe(5);
    });

    it('answers 503 with Retry-After when ClickHouse fails, and frees the Idempotency-Key for the retry', async () => {
      await t.app.get<ClickHouseClient>(CLICKHOUSE).close();
      const headers = { 'idempotency-key': 'after-failure' };
      const failed = await t.request('POST', `/v1/ingest/${project.projectId}/hits`, { token: project.apiKey, body: body(2), headers });
      expect(failed.status).toBe(503);
      expect(Number(failed.headers.get('retry-after'))).toBeGreaterThan(0);
      const retried = await t.request('POST', `/v1/ingest/${project.projectId}/hits`, { token: project.apiKey, body: body(2), headers });
      expect(retried.status).toBe(503); // tried again (not replayed, not "in progress")
    });
  });

  it('drains pending hits on shutdown before the ClickHouse client closes', async () => {
    const t = await startTestApp({ INGEST_FLUSH_MS: '10000', INGEST_FLUSH_ROWS: '1000000' });
    const project = await t.createProject({ name: 'drain' });
    const posted = t.request('POST', `/v1/ingest/${project.projectId}/hits`, { token: project.apiKey, body: body(3) });
    // Far below the 10 s flush timer: the hits are waiting in the writer when the app closes.
    await new Promise((r) => setTimeout(r, 300));
    const closing = t.app.close();
    const res = await posted;
    await closing;
    expect(res.status).toBe(202);

    const client = createClickHouseClient(t.config);
    try {
      const rs = await client.query({ query: 'SELECT count() AS n FROM hits WHERE project_id = {p:String}', query_params: { p: project.projectId }, format: 'JSONEachRow' });
      expect(Number((await rs.json<{ n: number }>())[0].n)).toBe(3);
    } finally {
      await client.close();
      rmSync(t.config.DATA_DIR, { recursive: true, force: true });
    }
  });
});

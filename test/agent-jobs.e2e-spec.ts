import { startTestApp, TestApp } from './support/test-app';

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('Agent job endpoints over HTTP (no worker)', () => {
  let t: TestApp;
  let projectId: string;
  let apiKey: string;

  beforeAll(async () => {
    t = await startTestApp({ AGENT_MODEL: 'test-model' });
    ({ projectId, apiKey } = await t.createProject({ repository: 'https://github.com/acme/docs', ref: 'develop' }));
  });
  afterAll(() => t.close());

  const create = (prompt: unknown, headers?: Record<string, string>, project = projectId, token = apiKey) =>
    t.request('POST', `/v2/agent/${project}/job`, { token, body: { prompt }, headers });

  it('creates an active job (201) with the documented fields and RateLimit headers', async () => {
    const res = await create('Fix the typo in the intro');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^job_[0-9A-Za-z]{20}$/),
      status: 'active',
      source: { repository: 'https://github.com/acme/docs', ref: 'develop' },
      model: 'test-model',
      prLink: null,
      createdAt: expect.stringMatching(ISO_MS),
      archivedAt: null,
      updatedAt: expect.stringMatching(ISO_MS),
      error: null,
    });
    expect(res.headers.get('ratelimit-limit')).toBe('100');
    expect(Number(res.headers.get('ratelimit-remaining'))).toBeLessThan(100);
    expect(Number(res.headers.get('ratelimit-reset'))).toBeGreaterThan(0);

    const got = await t.request('GET', `/v2/agent/${projectId}/job/${res.body.id}`, { token: apiKey });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['whitespace only', ' \n\t '],
    ['not a string', 42],
    ['too long', 'x'.repeat(100_001)],
  ])('refuses a prompt that is %s with 400 naming prompt, charging nothing', async (_, prompt) => {
    const before = await create('ok');
    const res = await t.request('POST', `/v2/agent/${projectId}/job`, { token: apiKey, body: prompt === undefined ? {} : { prompt } });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual(expect.any(String));
    expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'prompt' })]));
    expect(res.headers.get('ratelimit-remaining')).toBe(String(Number(before.headers.get('ratelimit-remaining'))));
  });

  it('refuses a create without a body, or with a body that is not a JSON object', async () => {
    const noBody = await t.request('POST', `/v2/agent/${projectId}/job`, { token: apiKey });
    expect(noBody.status).toBe(400);
    expect(noBody.body.error).toEqual(expect.any(String));
    const notJson = await t.request('POST', `/v2/agent/${projectId}/job`, { token: apiKey, body: 'prompt=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(notJson.status).toBe(415);
    const array = await t.request('POST', `/v2/agent/${projectId}/job`, { token: apiKey, body: ['x'] });
    expect(array.status).toBe(400);
  });

  it('accepts a prompt of exactly 100,000 characters', async () => {
    expect((await create('y'.repeat(100_000))).status).toBe(201);
  });

  it('answers 401 without a key, 403 on another project, 404 for an unknown or foreign job', async () => {
    const other = await t.createProject({ name: 'other' });
    expect((await t.request('POST', `/v2/agent/${projectId}/job`, { body: { prompt: 'x' } })).status).toBe(401);
    expect((await create('x', undefined, other.projectId, apiKey)).status).toBe(403);
    const foreign = await create('theirs', undefined, other.projectId, other.apiKey);
    const res = await t.request('GET', `/v2/agent/${projectId}/job/${foreign.body.id}`, { token: apiKey });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: expect.any(String) });
    expect((await t.request('GET', `/v2/agent/${projectId}/job/job_unknown`, { token: apiKey })).status).toBe(404);
    const msg = await t.request('POST', `/v2/agent/${projectId}/job/${foreign.body.id}/message`, { token: apiKey, body: { prompt: 'x' } });
    expect(msg.status).toBe(404);
    expect(msg.headers.get('ratelimit-limit')).toBe('100');
    expect((await t.request('POST', `/v2/agent/${projectId}/job/${foreign.body.id}/archive`, { token: apiKey })).status).toBe(404);
  });

  it('a follow-up to an active job answers 200 and the job stays active', async () => {
    const job = (await create('first')).body;
    const res = await t.request('POST', `/v2/agent/${projectId}/job/${job.id}/message`, { token: apiKey, body: { prompt: 'and also this' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: job.id, status: 'active', createdAt: job.createdAt });
    expect(res.headers.get('ratelimit-limit')).toBe('100');
  });

  it('archives (200, archivedAt set); a follow-up or a second archive then answers 409', async () => {
    const job = (await create('to archive')).body;
    const res = await t.request('POST', `/v2/agent/${projectId}/job/${job.id}/archive`, { token: apiKey });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: job.id, status: 'archived', archivedAt: expect.stringMatching(ISO_MS) });
    const again = await t.request('POST', `/v2/agent/${projectId}/job/${job.id}/archive`, { token: apiKey });
    expect(again.status).toBe(409);
    const msg = await t.request('POST', `/v2/agent/${projectId}/job/${job.id}/message`, { token: apiKey, body: { prompt: 'more' } });
    expect(msg.status).toBe(409);
    expect(msg.body).toEqual({ error: expect.stringContaining('archived') });
    expect(msg.headers.get('ratelimit-limit')).toBe('100');
  });

  it('replays the first response for a repeated Idempotency-Key, charging once', async () => {
    const first = await create('idempotent', { 'Idempotency-Key': 'create-1' });
    const second = await create('idempotent', { 'Idempotency-Key': 'create-1' });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.headers.get('ratelimit-remaining')).toBe(first.headers.get('ratelimit-remaining'));
    const msg1 = await t.request('POST', `/v2/agent/${projectId}/job/${first.body.id}/message`, { token: apiKey, body: { prompt: 'again' }, headers: { 'Idempotency-Key': 'msg-1' } });
    const msg2 = await t.request('POST', `/v2/agent/${projectId}/job/${first.body.id}/message`, { token: apiKey, body: { prompt: 'again' }, headers: { 'Idempotency-Key': 'msg-1' } });
    expect(msg1.status).toBe(200);
    expect(msg2.status).toBe(200);
    expect(msg2.body).toEqual(msg1.body);
    expect(msg2.headers.get('idempotent-replayed')).toBe('true');
    expect(msg2.headers.get('ratelimit-remaining')).toBe(msg1.headers.get('ratelimit-remaining'));
    const tooLong = await create('x', { 'Idempotency-Key': 'k'.repeat(256) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.details).toEqual([expect.objectContaining({ field: 'Idempotency-Key' })]);
  });

  it('lists newest first with limit, offset, status filter and hasMore', async () => {
    const p = await t.createProject({ name: 'list' });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await create(`job ${i}`, undefined, p.projectId, p.apiKey)).body.id);
    await t.request('POST', `/v2/agent/${p.projectId}/job/${ids[1]}/archive`, { token: p.apiKey });
    const list = (q: string) => t.request('GET', `/v2/agent/${p.projectId}/jobs${q}`, { token: p.apiKey });

    const all = await list('');
    expect(all.status).toBe(200);
    expect(all.body.jobs.map((j: { id: string }) => j.id)).toEqual([...ids].reverse());
    expect(all.body.hasMore).toBe(false);
    const page = await list('?limit=2&offset=2');
    expect(page.body).toEqual({ jobs: [expect.objectContaining({ id: ids[2] }), expect.objectContaining({ id: ids[1] })], hasMore: true });
    expect((await list('?limit=2&offset=4')).body.hasMore).toBe(false);
    const archived = await list('?status=archived');
    expect(archived.body.jobs.map((j: { id: string }) => j.id)).toEqual([ids[1]]);
    for (const bad of ['?limit=0', '?limit=101', '?limit=abc', '?offset=-1', '?status=done']) {
      const res = await list(bad);
      expect(res.status).toBe(400);
      expect(res.body.details?.[0]?.field).toMatch(/^(limit|offset|status)$/);
    }
  });

  it('150 concurrent creates for one project: exactly 100 × 201 and 50 × 429 with the headers', async () => {
    const p = await t.createProject({ name: 'burst' });
    const results = await Promise.all(Array.from({ length: 150 }, (_, i) => create(`burst ${i}`, undefined, p.projectId, p.apiKey)));
    const ok = results.filter((r) => r.status === 201);
    const limited = results.filter((r) => r.status === 429);
    expect(ok).toHaveLength(100);
    expect(limited).toHaveLength(50);
    for (const r of results) {
      expect(r.headers.get('ratelimit-limit')).toBe('100');
      expect(r.headers.get('ratelimit-remaining')).toMatch(/^\d+$/);
      expect(r.headers.get('ratelimit-reset')).toMatch(/^\d+$/);
    }
    for (const r of limited) {
      expect(r.headers.get('ratelimit-remaining')).toBe('0');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(r.body).toEqual({ error: expect.any(String) });
    }
    const listed = await t.request('GET', `/v2/agent/${p.projectId}/jobs?limit=100`, { token: p.apiKey });
    expect(listed.body.jobs).toHaveLength(100);
    expect(listed.body.hasMore).toBe(false);
    // The follow-up shares the budget.
    const followUp = await t.request('POST', `/v2/agent/${p.projectId}/job/${ok[0].body.id}/message`, { token: p.apiKey, body: { prompt: 'more' } });
    expect(followUp.status).toBe(429);
    expect(followUp.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});

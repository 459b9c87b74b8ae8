import { startTestApp, TestApp } from './support/test-app';

describe('Cheap polling: ETag and If-None-Match on job reads', () => {
  let t: TestApp;
  let projectId: string;
  let apiKey: string;
  beforeAll(async () => {
    t = await startTestApp();
    ({ projectId, apiKey } = await t.createProject());
  });
  afterAll(() => t.close());

  it('GET job and GET jobs answer an ETag; the same tag → 304 with no body; a change → 200 with a new tag', async () => {
    const job = (await t.request('POST', `/v2/agent/${projectId}/job`, { token: apiKey, body: { prompt: 'x' } })).body;
    for (const path of [`/v2/agent/${projectId}/job/${job.id}`, `/v2/agent/${projectId}/jobs`]) {
      const first = await t.request('GET', path, { token: apiKey });
      expect(first.status).toBe(200);
      const tag = first.headers.get('etag')!;
      expect(tag).toMatch(/^"[\w-]+"$/);
      const same = await t.request('GET', path, { token: apiKey, headers: { 'if-none-match': tag } });
      expect(same.status).toBe(304);
      expect(same.text).toBe('');
      expect(same.headers.get('etag')).toBe(tag);
      expect((await t.request('GET', path, { token: apiKey, headers: { 'if-none-match': `"other", W/${tag}` } })).status).toBe(304);
      expect((await t.request('GET', path, { token: apiKey, headers: { 'if-none-match': '"stale"' } })).status).toBe(200);
    }
    const before = (await t.request('GET', `/v2/agent/${projectId}/job/${job.id}`, { token: apiKey })).headers.get('etag')!;
    await t.request('POST', `/v2/agent/${projectId}/job/${job.id}/archive`, { token: apiKey });
    const after = await t.request('GET', `/v2/agent/${projectId}/job/${job.id}`, { token: apiKey, headers: { 'if-none-match': before } });
    expect(after.status).toBe(200);
    expect(after.body.status).toBe('archived');
    expect(after.headers.get('etag')).not.toBe(before);
    // Errors carry no ETag and are never 304.
    const missing = await t.request('GET', `/v2/agent/${projectId}/job/job_nope`, { token: apiKey, headers: { 'if-none-match': '*' } });
    expect(missing.status).toBe(404);
  });
});

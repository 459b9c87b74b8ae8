import { connect } from 'node:net';
import { ADMIN_TOKEN, startTestApp, TestApp } from './support/test-app';

/** Sends raw bytes (what fetch refuses to send) and resolves with the status line, the body and the time to close. */
function raw(url: string, bytes: string): Promise<{ statusLine: string; body: unknown; ms: number }> {
  const { port } = new URL(url);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(bytes));
    let out = '';
    socket.on('data', (d) => (out += d.toString('utf8')));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head, body = ''] = out.split('\r\n\r\n');
      let parsed: unknown = body;
      try {
        parsed = JSON.parse(body);
      } catch {
        /* keep the text */
      }
      resolve({ statusLine: head.split('\r\n')[0], body: parsed, ms: Date.now() - started });
    });
  });
}

const errorShape = { error: expect.any(String) };

describe('The HTTP edge: time limits, NUL characters, and errors raised before routing (embedded engines)', () => {
  let t: TestApp;
  let projectId: string;
  let apiKey: string;
  let rowsBefore: number;

  const countJobs = async () => {
    const res = await t.request('GET', `/v2/agent/${projectId}/jobs?limit=100`, { token: apiKey });
    return res.body.jobs.length as number;
  };

  beforeAll(async () => {
    t = await startTestApp({ REQUEST_TIMEOUT_MS: '1500', HEADERS_TIMEOUT_MS: '1000' });
    ({ projectId, apiKey } = await t.createProject({ name: 'edge' }));
    rowsBefore = await countJobs();
  });
  afterAll(() => t.close());

  it('answers 408 in the one shape and closes a connection whose body stalls, before authentication', async () => {
    const res = await raw(t.url, `POST /v1/ingest/${projectId}/hits HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{}`);
    expect(res.statusLine).toBe('HTTP/1.1 408 Request Timeout');
    expect(res.body).toEqual(errorShape);
    expect(res.ms).toBeLessThan(1500 + 2500);
  });

  it('closes a connection whose headers stall', async () => {
    const res = await raw(t.url, 'GET /health HTTP/1.1\r\nHost: x\r\n');
    expect(res.statusLine).toBe('HTTP/1.1 408 Request Timeout');
    expect(res.ms).toBeLessThan(1000 + 2500);
  });

  it.each([
    ['a malformed Content-Length', `POST /v1/collect/${'prj_x'} HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n{}`, 400],
    ['headers over the limit', `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
    ['a request line over the limit (414-like)', `GET /health?x=${'a'.repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 431],
    ['garbage instead of HTTP', 'HELLO\r\n\r\n', 400],
  ])('answers %s in the one error shape', async (_name, bytes, status) => {
    const res = await raw(t.url, bytes);
    expect(res.statusLine).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
    expect(res.body).toEqual(errorShape);
  });

  it('answers a malformed %-encoding in the path with 400 in the one shape', async () => {
    const res = await t.request('GET', '/v1/projects/%E0%A4%A', { token: ADMIN_TOKEN });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errorShape);
  });

  describe('NUL characters never reach a store', () => {
    it.each([
      ['a prompt', () => ['POST', `/v2/agent/${projectId}/job`, { prompt: 'fix\u0000it' }], 'prompt'],
      ['a project name', () => ['POST', '/v1/projects', { name: 'a\u0000b' }], 'name'],
      ['a nested ingest field', () => ['POST', `/v1/ingest/${projectId}/hits`, { hits: [{ path: '/a', userAgent: 'x\u0000' }] }], 'hits[0].userAgent'],
      ['the beacon body', () => ['POST', `/v1/collect/${projectId}`, { path: '/a\u0000' }], 'path'],
    ] as Array<[string, () => [string, string, unknown], string]>)('%s → 400 naming the field', async (_name, make, field) => {
      const [method, path, body] = make();
      const token = path.startsWith('/v1/projects') ? ADMIN_TOKEN : apiKey;
      const res = await t.request(method, path, { token, body });
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual([{ field, message: `${field} must not contain NUL characters` }]);
    });

    it.each([
      ['a job id', () => `/v2/agent/${projectId}/job/job_%00x`],
      ['a project id', () => '/v1/projects/prj_%00'],
      ['a key id', () => `/v1/projects/${projectId}/keys/key_%00`],
      ['the beacon project id', () => '/v1/collect/prj_%00'],
    ])('%s in the path → 404', async (_name, path) => {
      for (const method of ['GET', 'POST', 'DELETE']) {
        const res = await t.request(method, path(), { token: ADMIN_TOKEN, body: method === 'POST' ? { path: '/a' } : undefined });
        expect(res.status).toBe(404);
        expect(res.body).toEqual(errorShape);
      }
    });

    it('a query parameter → 400 naming it', async () => {
      const res = await t.request('GET', `/v2/agent/${projectId}/jobs?status=active%00`, { token: apiKey });
      expect(res.status).toBe(400);
      expect(res.body.details[0].field).toBe('status');
    });

    it('and nothing was stored by any of them', async () => {
      expect(await countJobs()).toBe(rowsBefore);
    });
  });

  it.each(['1e1', '0x10', ' 5', '+5', '5.0', '', '-1', '101'])('the jobs list refuses limit=%j as the visitors report does', async (limit) => {
    const res = await t.request('GET', `/v2/agent/${projectId}/jobs?limit=${encodeURIComponent(limit)}`, { token: apiKey });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ field: 'limit', message: 'limit must be an integer from 1 to 100' }]);
  });

  it('the jobs list takes plain digits', async () => {
    expect((await t.request('GET', `/v2/agent/${projectId}/jobs?limit=05&offset=0`, { token: apiKey })).status).toBe(200);
  });
});

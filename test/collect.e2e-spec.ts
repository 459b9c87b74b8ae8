import { startTestApp, TestApp } from './support/test-app';

const UA = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

/** The beacon as a browser on another origin sees it: every answer readable, errors in the one shape. */
describe('POST /v1/collect/{projectId}: CORS and errors', () => {
  let t: TestApp;
  let projectId: string;

  beforeAll(async () => {
    t = await startTestApp();
    ({ projectId } = await t.createProject({ name: 'collect' }));
  });
  afterAll(() => t.close());

  const post = (id: string, body: string, contentType = 'text/plain;charset=UTF-8') =>
    t.request('POST', `/v1/collect/${id}`, { body, headers: { 'content-type': contentType, 'user-agent': UA, origin: 'https://docs.example.com' } });

  it('202 with Access-Control-Allow-Origin: *', async () => {
    const res = await post(projectId, JSON.stringify({ path: '/docs/a' }));
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ accepted: 1 });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it.each([
    ['413, a body over 64 KiB', () => post(projectId, JSON.stringify({ path: '/x', referrer: 'y'.repeat(70_000) })), 413],
    ['415, a form body', () => post(projectId, 'path=/x', 'application/x-www-form-urlencoded'), 415],
    ['400, JSON that does not parse', () => post(projectId, '{"path":'), 400],
    ['400, a path that is not one', () => post(projectId, JSON.stringify({ path: 'nope' })), 400],
    ['404, no such project', () => post('prj_00000000000000000000', JSON.stringify({ path: '/x' })), 404],
  ])('%s: readable cross-origin, in the one error shape', async (_name, send, status) => {
    const res = await send();
    expect(res.status).toBe(status);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toEqual(expect.objectContaining({ error: expect.any(String) }));
  });

  it('the preflight answers 204 with the CORS headers', async () => {
    const res = await t.request('OPTIONS', `/v1/collect/${projectId}`, { headers: { origin: 'https://docs.example.com', 'access-control-request-method': 'POST' } });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toBe('POST');
  });

  it('random project ids all get 404, and a project created meanwhile is found at once', async () => {
    const ids = Array.from({ length: 200 }, (_, i) => `prj_random${String(i).padStart(16, '0')}`);
    const answers = await Promise.all(ids.map((id) => post(id, JSON.stringify({ path: '/x' }))));
    expect(answers.map((r) => r.status)).toEqual(ids.map(() => 404));
    const { projectId: fresh } = await t.createProject({ name: 'fresh' });
    expect((await post(fresh, JSON.stringify({ path: '/x' }))).status).toBe(202);
  });

  it('is listed in the OpenAPI document', async () => {
    const res = await t.request('GET', '/openapi.json');
    expect(res.body.paths['/v1/collect/{projectId}'].post.responses).toHaveProperty('202');
    expect(res.body.components.schemas).toHaveProperty('CollectBodyDoc');
  });
});

import { ADMIN_TOKEN, startTestApp, TestApp } from './support/test-app';

describe('Projects list and the key\'s own project', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('GET /v1/projects pages every project oldest first, with hasMore (operator token only)', async () => {
    const made = [];
    for (const name of ['list-a', 'list-b', 'list-c']) made.push(await t.createProject({ name }));
    const all = await t.request('GET', '/v1/projects?limit=100', { token: ADMIN_TOKEN });
    expect(all.status).toBe(200);
    expect(all.body.hasMore).toBe(false);
    const ids = all.body.projects.map((p: { id: string }) => p.id);
    expect(ids.slice(-3)).toEqual(made.map((m) => m.projectId));
    expect(all.body.projects.at(-1)).toEqual((await t.request('GET', `/v1/projects/${made[2].projectId}`, { token: ADMIN_TOKEN })).body);

    // Pages never skip or repeat a project.
    const seen: string[] = [];
    for (let offset = 0; ; offset += 2) {
      const page = await t.request('GET', `/v1/projects?limit=2&offset=${offset}`, { token: ADMIN_TOKEN });
      expect(page.status).toBe(200);
      seen.push(...page.body.projects.map((p: { id: string }) => p.id));
      if (!page.body.hasMore) break;
    }
    expect(seen).toEqual(ids);

    expect((await t.request('GET', '/v1/projects', { token: made[0].apiKey })).status).toBe(403);
    expect((await t.request('GET', '/v1/projects')).status).toBe(401);
    for (const bad of ['limit=0', 'limit=101', 'limit=x', 'offset=-1']) {
      const res = await t.request('GET', `/v1/projects?${bad}`, { token: ADMIN_TOKEN });
      expect(res.status).toBe(400);
      expect(res.body.details[0].field).toBe(bad.split('=')[0]);
    }
  });

  it('GET /v1/projects/me tells a project key its project; the operator token belongs to none (403)', async () => {
    const { projectId, apiKey } = await t.createProject({ name: 'me' });
    const me = await t.request('GET', '/v1/projects/me', { token: apiKey });
    expect(me.status).toBe(200);
    expect(me.body).toEqual((await t.request('GET', `/v1/projects/${projectId}`, { token: apiKey })).body);
    const operator = await t.request('GET', '/v1/projects/me', { token: ADMIN_TOKEN });
    expect(operator.status).toBe(403);
    expect(operator.body.error).toMatch(/operator token/);
    expect((await t.request('GET', '/v1/projects/me', { token: 'docent_notakeynotakeynotakeynotakeynotakey0000000' })).status).toBe(401);
  });

  it('documents both in the OpenAPI document', async () => {
    const doc = (await t.request('GET', '/openapi.json')).body;
    expect(doc.paths['/v1/projects'].get.parameters.map((p: { name: string }) => p.name).sort()).toEqual(['limit', 'offset']);
    expect(doc.paths['/v1/projects/me'].get).toBeDefined();
  });
});

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrateClickHouse } from '../src/clickhouse/clickhouse-migrations';
import { CLICKHOUSE } from '../src/clickhouse/clickhouse.module';
import { Database } from '../src/database/database';
import { migratePostgres } from '../src/database/migrations';
import { ADMIN_TOKEN, startTestApp, TestApp } from './support/test-app';

describe('Foundation over HTTP (embedded engines)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('GET /health answers 200 when both stores answer', async () => {
    const res = await t.request('GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', clickhouse: 'ok', postgres: 'ok', agentRanges: expect.any(Array) });
  });

  it('serves the OpenAPI document and its UI', async () => {
    const doc = await t.request('GET', '/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.paths['/v1/projects']).toBeDefined();
    expect((await t.request('GET', '/docs')).status).toBe(200);
  });

  describe('management API round trip', () => {
    it('creates, reads, updates a project; creates, lists and revokes keys', async () => {
      const created = await t.request('POST', '/v1/projects', {
        token: ADMIN_TOKEN,
        body: { name: 'Acme docs', repository: 'https://github.com/acme/docs' },
      });
      expect(created.status).toBe(201);
      expect(created.body.apiKey).toMatch(/^docent_[0-9A-Za-z]{46}$/);
      const project = created.body.project;
      expect(project).toEqual({
        id: expect.stringMatching(/^prj_/),
        name: 'Acme docs',
        repository: 'https://github.com/acme/docs',
        ref: 'main',
        cloneUrl: 'https://github.com/acme/docs.git',
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      });

      const key = created.body.apiKey;
      const other = await t.createProject({ name: 'other' });

      expect((await t.request('GET', `/v1/projects/${project.id}`, { token: key })).body).toEqual(project);
      expect((await t.request('GET', `/v1/projects/${project.id}`, { token: ADMIN_TOKEN })).status).toBe(200);
      const foreign = await t.request('GET', `/v1/projects/${other.projectId}`, { token: key });
      expect(foreign.status).toBe(403);
      expect(foreign.body.error).toEqual(expect.any(String));

      const patched = await t.request('PATCH', `/v1/projects/${project.id}`, { token: ADMIN_TOKEN, body: { ref: 'develop', cloneUrl: 'file:///srv/git/docs.git' } });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ name: 'Acme docs', ref: 'develop', cloneUrl: 'file:///srv/git/docs.git' });

      const second = await t.request('POST', `/v1/projects/${project.id}/keys`, { token: ADMIN_TOKEN });
      expect(second.status).toBe(201);
      expect(second.body).toEqual({ id: expect.stringMatching(/^key_/), key: expect.stringMatching(/^docent_/), createdAt: expect.any(String) });

      const list = await t.request('GET', `/v1/projects/${project.id}/keys`, { token: ADMIN_TOKEN });
      expect(list.status).toBe(200);
      expect(list.body.keys).toHaveLength(2);
      expect(JSON.stringify(list.body)).not.toContain(key);
      expect(list.body.keys.every((k: { hint: string; revokedAt: null }) => k.hint.startsWith('docent_') && k.revokedAt === null)).toBe(true);

      const firstKeyId = list.body.keys.find((k: { id: string }) => k.id !== second.body.id).id;
      expect((await t.request('DELETE', `/v1/projects/${project.id}/keys/${firstKeyId}`, { token: ADMIN_TOKEN })).status).toBe(204);
      expect((await t.request('GET', `/v1/projects/${project.id}`, { token: key })).status).toBe(401);
      expect((await t.request('GET', `/v1/projects/${project.id}`, { token: second.body.key })).status).toBe(200);
      const after = await t.request('GET', `/v1/projects/${project.id}/keys`, { token: ADMIN_TOKEN });
      expect(after.body.keys.find((k: { id: string }) => k.id === firstKeyId).revokedAt).toEqual(expect.any(String));
    });

    it('keeps management operations for the operator token', async () => {
      const { projectId, apiKey } = await t.createProject();
      expect((await t.request('POST', '/v1/projects', { token: apiKey, body: { name: 'x' } })).status).toBe(403);
      expect((await t.request('GET', `/v1/projects/${projectId}/keys`, { token: apiKey })).status).toBe(403);
      expect((await t.request('PATCH', `/v1/projects/${projectId}`, { token: apiKey, body: { name: 'y' } })).status).toBe(403);
    });

    it('answers 404 for an unknown project or key', async () => {
      expect((await t.request('GET', '/v1/projects/prj_nope', { token: ADMIN_TOKEN })).status).toBe(404);
      const { projectId } = await t.createProject();
      expect((await t.request('DELETE', `/v1/projects/${projectId}/keys/key_nope`, { token: ADMIN_TOKEN })).status).toBe(404);
    });

    it('names invalid fields', async () => {
      const res = await t.request('POST', '/v1/projects', { token: ADMIN_TOKEN, body: { name: '', repository: 'ftp://x', ref: '../main' } });
      expect(res.status).toBe(400);
      expect(res.body.details.map((d: { field: string }) => d.field).sort()).toEqual(expect.arrayContaining(['name', 'ref', 'repository']));
    });
  });

  describe('one error shape for every error', () => {
    const expectShape = (res: { body: { error: unknown; details?: unknown } }) => {
      expect(typeof res.body.error).toBe('string');
      expect(Object.keys(res.body).every((k) => k === 'error' || k === 'details')).toBe(true);
    };

    it('malformed JSON → 400', async () => {
      const res = await t.request('POST', '/v1/projects', { token: ADMIN_TOKEN, body: '{"name":', headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(400);
      expectShape(res);
    });

    it('wrong content type → 415', async () => {
      const res = await t.request('POST', '/v1/projects', { token: ADMIN_TOKEN, body: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect(res.status).toBe(415);
      expectShape(res);
      const plain = await t.request('POST', '/v1/projects', { token: ADMIN_TOKEN, body: '{"name":"x"}', headers: { 'content-type': 'text/plain' } });
      expect(plain.status).toBe(415);
    });

    it('a 2 MiB body → 413', async () => {
      const res = await t.request('POST', '/v1/projects', { token: ADMIN_TOKEN, body: { name: 'x'.repeat(2 * 1024 * 1024) } });
      expect(res.status).toBe(413);
      expectShape(res);
    });

    it('unknown route → 404', async () => {
      const res = await t.request('GET', '/v9/nothing/here');
      expect(res.status).toBe(404);
      expectShape(res);
    });

    it.each([
      ['missing', undefined],
      ['not bearer', 'Basic dXNlcjpwYXNz'],
      ['garbled', 'Bearer !!!'],
      ['bad checksum', `Bearer docent_${'A'.repeat(46)}`],
      ['empty bearer', 'Bearer '],
    ])('%s Authorization header → 401', async (_name, header) => {
      const { projectId } = await t.createProject();
      const res = await t.request('GET', `/v1/projects/${projectId}`, { headers: header ? { authorization: header } : {} });
      expect(res.status).toBe(401);
      expectShape(res);
    });
  });
});

describe('Restart on the same DATA_DIR', () => {
  it('keeps projects and keys and re-applies no migration', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'docent-restart-'));
    const first = await startTestApp({ DATA_DIR: dataDir });
    const { projectId, apiKey } = await first.createProject({ name: 'persisted' });
    await first.app.close();

    const second = await startTestApp({ DATA_DIR: dataDir });
    try {
      const res = await second.request('GET', `/v1/projects/${projectId}`, { token: apiKey });
      expect(res.status).toBe(200);
      expect(res.body.name).toBe('persisted');
      expect(await migratePostgres(second.app.get(Database))).toEqual([]);
      expect(await migrateClickHouse(second.app.get(CLICKHOUSE))).toEqual([]);
    } finally {
      await second.close();
    }
  });
});

import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { newId } from '../src/common/ids';
import { Database } from '../src/database/database';
import { PgDatabase } from '../src/database/pg-database';
import { FakeGitHub, startFakeGitHub } from './support/fake-github';
import { byConversation, FakeOpenAI, startFakeOpenAI } from './support/fake-openai';
import { BareRepo, createBareRepo } from './support/git-fixtures';
import { startTestApp, TestApp } from './support/test-app';
import { until } from './support/until';
import { startWebhookReceiver, WebhookReceiver } from './support/webhook-receiver';

const url = process.env.TEST_DATABASE_URL;
const ROOT = resolve(__dirname, '..');

// A standalone worker (`node dist/worker.js`) completes a job and is killed with SIGKILL before the
// delivery succeeds; a fresh worker delivers it after the restart, once, with the same webhook-id.
(url ? describe : describe.skip)('Webhook outbox survives kill -9 (needs TEST_DATABASE_URL)', () => {
  let t: TestApp;
  let admin: Database;
  let model: FakeOpenAI;
  let github: FakeGitHub;
  let repo: BareRepo;
  let receiver: WebhookReceiver;
  let schemaUrl: string;
  const schema = `wh_crash_${newId('s').slice(2).toLowerCase()}`;
  const dirs: string[] = [];
  const children: ChildProcess[] = [];

  function startWorker(): { child: ChildProcess; exited: Promise<unknown> } {
    const dataDir = mkdtempSync(join(tmpdir(), 'docent-whw-'));
    dirs.push(dataDir);
    const child = spawn(process.execPath, ['dist/worker.js'], {
      cwd: ROOT,
      env: {
        ...process.env, DATA_DIR: dataDir, DATABASE_URL: schemaUrl, LOG_LEVEL: 'warn', WEBHOOK_ALLOW_PRIVATE: 'true',
        AGENT_BASE_URL: model.baseURL, AGENT_MODEL: 'fake-model', AGENT_API_KEY: 'sk-crash', GITHUB_API_URL: github.apiUrl, GITHUB_TOKEN: github.token,
      },
      stdio: 'ignore',
    });
    children.push(child);
    return { child, exited: new Promise((r) => child.on('exit', r)) };
  }

  beforeAll(async () => {
    execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'ignore' });
    admin = new PgDatabase(url!, 1);
    await admin.query(`CREATE SCHEMA ${schema}`);
    schemaUrl = `${url}${url!.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    [model, github, repo, receiver] = await Promise.all([
      startFakeOpenAI(byConversation(() => [{ toolCalls: [{ name: 'write_file', args: { path: 'docs/crash.md', content: 'x\n' } }] }, { text: 'Add the page' }])),
      startFakeGitHub(),
      createBareRepo({ files: { 'docs/intro.md': '# Intro\n' } }),
      startWebhookReceiver(),
    ]);
    t = await startTestApp({ DATABASE_URL: schemaUrl, WORKER: 'off', DELIVERY: 'off', WEBHOOK_ALLOW_PRIVATE: 'true' });
  }, 120_000);

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await t?.close();
    await Promise.all([model?.close(), github?.close(), receiver?.close()]);
    repo?.remove();
    await admin?.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin?.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('the job completes, the worker dies before a successful delivery; after restart job.completed arrives once', async () => {
    const { projectId, apiKey } = await t.createProject({ repository: 'https://github.com/acme/docs', cloneUrl: repo.cloneUrl });
    const hook = await t.request('POST', `/v1/projects/${projectId}/webhooks`, { token: apiKey, body: { url: `${receiver.url}/crash`, events: ['job.completed'] } });
    receiver.secrets.set('/crash', hook.body.secret);
    receiver.behave = (_p, n) => (n === 1 ? 503 : 200);
    const first = startWorker();
    const job = await t.request('POST', `/v2/agent/${projectId}/job`, { token: apiKey, body: { prompt: 'add a page' } });
    await until('first attempt failed', async () => {
      const [row] = await admin.query<{ attempts: number }>(`SELECT attempts FROM ${schema}.webhook_deliveries WHERE webhook_id = $1`, [hook.body.webhook.id]);
      return row?.attempts === 1;
    }, 60_000);
    first.child.kill('SIGKILL');
    await first.exited;
    expect(receiver.received).toHaveLength(1);
    startWorker();
    await until('delivered after restart', async () => receiver.received.length >= 2, 60_000);
    await new Promise((r) => setTimeout(r, 1500));
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received.every((r) => r.verified && r.id === receiver.received[0].id && r.body.data.id === job.body.id)).toBe(true);
    const log = (await t.request('GET', `/v1/projects/${projectId}/webhooks/${hook.body.webhook.id}/deliveries`, { token: apiKey })).body;
    expect(log.deliveries).toEqual([expect.objectContaining({ status: 'delivered', attempts: 2, event: 'job.completed' })]);
  }, 120_000);
});

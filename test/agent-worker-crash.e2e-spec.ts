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

const url = process.env.TEST_DATABASE_URL;
const ROOT = resolve(__dirname, '..');
const LEASE_MS = 2000;

interface WorkerProcess {
  child: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
}

// Two standalone workers (`node dist/worker.js`) share one real Postgres; only there can two processes share a queue.
(url ? describe : describe.skip)('Two worker processes on one Postgres, one killed mid-turn (needs TEST_DATABASE_URL)', () => {
  let t: TestApp;
  let admin: Database;
  let model: FakeOpenAI;
  let github: FakeGitHub;
  let repo: BareRepo;
  let schemaUrl: string;
  const schema = `crash_test_${newId('s').slice(2).toLowerCase()}`;
  const dataDirs: string[] = [];
  const workers: WorkerProcess[] = [];
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));

  function startWorker(): WorkerProcess {
    const dataDir = mkdtempSync(join(tmpdir(), 'docent-worker-'));
    dataDirs.push(dataDir);
    const child = spawn(process.execPath, ['dist/worker.js'], {
      cwd: ROOT,
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        DATABASE_URL: schemaUrl,
        LOG_LEVEL: 'info',
        AGENT_BASE_URL: model.baseURL,
        AGENT_MODEL: 'fake-model',
        AGENT_API_KEY: 'sk-crash-test',
        GITHUB_API_URL: github.apiUrl,
        GITHUB_TOKEN: github.token,
        AGENT_LEASE_MS: String(LEASE_MS),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output: string[] = [];
    child.stdout!.on('data', (d: Buffer) => output.push(d.toString()));
    child.stderr!.on('data', (d: Buffer) => output.push(d.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    const worker = { child, output, exited };
    workers.push(worker);
    return worker;
  }

  beforeAll(async () => {
    execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'ignore' });
    admin = new PgDatabase(url!, 1);
    await admin.query(`CREATE SCHEMA ${schema}`);
    schemaUrl = `${url}${url!.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    [model, github, repo] = await Promise.all([
      // The first answer of every conversation is held until the test releases it: the killed worker dies waiting for it.
      startFakeOpenAI(byConversation(() => [{ waitFor: held, toolCalls: [{ name: 'write_file', args: { path: 'docs/crash.md', content: 'survived\n' } }] }, { text: 'Add the crash page' }])),
      startFakeGitHub(),
      createBareRepo({ files: { 'docs/intro.md': '# Intro\n' } }),
    ]);
    t = await startTestApp({ DATABASE_URL: schemaUrl, WORKER: 'off' });
  }, 120_000);

  afterAll(async () => {
    for (const w of workers) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
    await Promise.all(workers.map((w) => w.exited));
    await t?.close();
    await Promise.all([model?.close(), github?.close()]);
    repo?.remove();
    await admin?.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin?.close();
    for (const d of dataDirs) rmSync(d, { recursive: true, force: true });
  });

  it('the survivor finishes the job after the lease expires, with exactly one pull request', async () => {
    const a = startWorker();
    const b = startWorker();
    await until('both workers to start', async () => [a, b].every((w) => w.output.join('').includes('agent worker started')), 30_000);

    const { projectId, apiKey } = await t.createProject({ repository: 'https://github.com/acme/docs', cloneUrl: repo.cloneUrl });
    const created = await t.request('POST', `/v2/agent/${projectId}/job`, { token: apiKey, body: { prompt: 'Add a crash page' } });
    expect(created.status).toBe(201);
    const id = created.body.id;

    await model.waitForRequests(1); // one worker has the job and waits for the model
    const [{ locked_by: owner }] = await admin.query<{ locked_by: string }>(`SELECT locked_by FROM ${schema}.agent_jobs WHERE id = $1`, [id]);
    const victim = [a, b].find((w) => owner.includes(`:${w.child.pid}:`))!;
    const survivor = victim === a ? b : a;
    expect(victim).toBeDefined();
    const killedAt = Date.now();
    victim.child.kill('SIGKILL');
    await victim.exited;
    release();

    const job = await until(
      'the job to complete',
      async () => {
        const res = await t.request('GET', `/v2/agent/${projectId}/job/${id}`, { token: apiKey });
        return res.body.status !== 'active' && res.body;
      },
      30_000,
    );
    const takenOverAfter = Date.now() - killedAt;
    expect(job).toMatchObject({ status: 'completed', error: null, prLink: 'https://github.com/acme/docs/pull/1' });
    expect(github.calls.filter((c) => c.method === 'POST')).toHaveLength(1);
    expect(github.pulls).toHaveLength(1);
    expect(await repo.readFile(`docent/${id}`, 'docs/crash.md')).toBe('survived\n');
    expect(await repo.log(`docent/${id}`)).toHaveLength(2);
    const [message] = await admin.query<{ status: string; attempts: number }>(`SELECT status, attempts FROM ${schema}.agent_job_messages WHERE job_id = $1`, [id]);
    expect(message).toEqual({ status: 'done', attempts: 2 });
    expect(survivor.child.exitCode).toBeNull();
    // Taken over only once the dead worker's lease ran out.
    expect(takenOverAfter).toBeGreaterThan(LEASE_MS / 2);
  }, 90_000);

  it('SIGTERM gives a job in progress back at once; another worker finishes it', async () => {
    const { projectId, apiKey } = await t.createProject({ repository: 'https://github.com/acme/docs2', cloneUrl: repo.cloneUrl });
    const survivor = workers.find((w) => w.child.exitCode === null && w.child.signalCode === null)!;
    const gate = { open: () => undefined as void };
    const slow = new Promise<void>((r) => (gate.open = r));
    model.setScript(byConversation(() => [{ waitFor: slow, toolCalls: [{ name: 'write_file', args: { path: 'docs/term.md', content: 'term\n' } }] }, { text: 'Add the term page' }]));
    const before = model.requests.length;
    const created = await t.request('POST', `/v2/agent/${projectId}/job`, { token: apiKey, body: { prompt: 'Add a term page' } });
    const id = created.body.id;
    await model.waitForRequests(before + 1);
    const third = startWorker();
    await until('the third worker to start', async () => third.output.join('').includes('agent worker started'), 30_000);
    survivor.child.kill('SIGTERM');
    await survivor.exited;
    expect(survivor.output.join('')).not.toMatch(/"level":50/); // no error logged on the way out
    gate.open();
    const job = await until('the job to complete', async () => {
      const res = await t.request('GET', `/v2/agent/${projectId}/job/${id}`, { token: apiKey });
      return res.body.status !== 'active' && res.body;
    });
    expect(job).toMatchObject({ status: 'completed', prLink: expect.stringMatching(/^https:\/\/github\.com\/acme\/docs2\/pull\/\d+$/) });
    expect(github.calls.filter((c) => c.method === 'POST' && (c.body as { head?: string }).head === `docent/${id}`)).toHaveLength(1);
    const [message] = await admin.query<{ attempts: number }>(`SELECT attempts FROM ${schema}.agent_job_messages WHERE job_id = $1`, [id]);
    // Only a graceful release (not an expired lease) refunds the interrupted attempt.
    expect(message.attempts).toBe(1);
    const [row] = await admin.query<{ locked_by: string | null }>(`SELECT locked_by FROM ${schema}.agent_jobs WHERE id = $1`, [id]);
    expect(row.locked_by).toBeNull();
  }, 90_000);
});

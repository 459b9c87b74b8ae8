// npm run bench:agent-claim [-- --jobs 50 --backend pglite|postgres|both]
//
// Create-to-claim latency of agent jobs: POST /v2/agent/{projectId}/job one job at a time (each
// after the previous one was claimed, so the worker is idle), then read when the worker claimed it.
// Figures, per backend, p50 / p95 / max over the jobs:
//   server: job created_at (the create transaction) → first message claimed_at (worker started it),
//           both Postgres clock;
//   client: the 201 arriving at this process → claimed_at (can be ≤ 0: the claim beat the response).
// pglite: the service with its in-process worker (NOTIFY inside PGlite).
// postgres (BENCH_DATABASE_URL or TEST_DATABASE_URL): the service with WORKER=off plus one standalone
// worker process (`node dist/worker.js`), so the NOTIFY crosses processes through the server.
// No model is configured: a claimed job fails at once, which frees the worker; only the claim is timed.
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createApp } from '../src/app';
import { newId } from '../src/common/ids';
import { loadConfig } from '../src/config/config';
import { Database } from '../src/database/database';
import { PgDatabase } from '../src/database/pg-database';
import { percentile } from './percentile';

const ROOT = resolve(__dirname, '..');
const ADMIN_TOKEN = 'bench-operator-token-0123456789';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1];
}
const JOBS = Number(arg('jobs', '50'));
const BACKEND = arg('backend', 'both');
const PG_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 2));
  }
}

function report(name: string, server: number[], client: number[]): void {
  const fmt = (v: number[]) => `p50 ${percentile(v, 50).toFixed(1)} ms, p95 ${percentile(v, 95).toFixed(1)} ms, max ${Math.max(...v).toFixed(1)} ms`;
  console.log(`${name} (${server.length} jobs)\n  server created_at → claimed_at: ${fmt(server)}\n  client 201 → claimed_at:        ${fmt(client)}`);
}

/** Creates JOBS jobs one after another against `baseUrl` and reads each one's claim time from `db`. */
async function measure(baseUrl: string, db: Database, schema = ''): Promise<{ server: number[]; client: number[] }> {
  const post = async (path: string, token: string, body: unknown) => {
    const res = await fetch(baseUrl + path, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
  };
  const project = await post('/v1/projects', ADMIN_TOKEN, { name: 'claim bench', repository: 'https://github.com/acme/docs' });
  const { id: projectId } = project.body.project;
  const apiKey = project.body.apiKey;
  const server: number[] = [];
  const client: number[] = [];
  for (let i = 0; i < JOBS + 3; i++) {
    const created = await post(`/v2/agent/${projectId}/job`, apiKey, { prompt: `claim bench ${i}` });
    const receivedAt = Date.now();
    if (created.status !== 201) throw new Error(`create answered ${created.status}`);
    const row = await until(async () => {
      const [r] = await db.query<{ created_ms: number; claimed_ms: number | null }>(
        `SELECT extract(epoch FROM j.created_at) * 1000 AS created_ms, extract(epoch FROM m.claimed_at) * 1000 AS claimed_ms
         FROM ${schema}agent_jobs j JOIN ${schema}agent_job_messages m ON m.job_id = j.id AND m.seq = 1 WHERE j.id = $1`,
        [created.body.id],
      );
      return r?.claimed_ms != null ? r : undefined;
    });
    // Let the worker finish the job (it fails at once: no model) so the next one finds it idle.
    await until(async () => {
      const [r] = await db.query<{ status: string }>(`SELECT status FROM ${schema}agent_jobs WHERE id = $1`, [created.body.id]);
      return r.status !== 'active' ? r : undefined;
    });
    if (i < 3) continue; // warm-up
    server.push(Number(row.claimed_ms) - Number(row.created_ms));
    client.push(Number(row.claimed_ms) - receivedAt);
  }
  return { server, client };
}

async function pglite(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'docent-claim-bench-'));
  const app = await createApp(loadConfig({ DATA_DIR: dataDir, ADMIN_TOKEN, LOG_LEVEL: 'silent', WORKER: 'on' }), { logger: false });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.getHttpServer().address() as { port: number };
    const { server, client } = await measure(`http://127.0.0.1:${port}`, app.get(Database));
    report('PGlite, in-process worker', server, client);
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function postgres(url: string): Promise<void> {
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  const schema = `claim_bench_${newId('s').slice(2).toLowerCase()}`;
  const admin = new PgDatabase(url, 2);
  await admin.query(`CREATE SCHEMA ${schema}`);
  const schemaUrl = `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'docent-claim-bench-'));
  const workerDir = mkdtempSync(join(tmpdir(), 'docent-claim-worker-'));
  let worker: ChildProcess | undefined;
  const app = await createApp(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: schemaUrl, ADMIN_TOKEN, LOG_LEVEL: 'silent', WORKER: 'off' }), { logger: false });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.getHttpServer().address() as { port: number };
    const proc = spawn(process.execPath, ['dist/worker.js'], { cwd: ROOT, env: { ...process.env, DATA_DIR: workerDir, DATABASE_URL: schemaUrl, LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'inherit'] });
    worker = proc;
    await new Promise<void>((ready) => proc.stdout!.on('data', (d: Buffer) => d.toString().includes('agent worker started') && ready()));
    const { server, client } = await measure(`http://127.0.0.1:${port}`, admin, `${schema}.`);
    report('Postgres server, standalone worker process', server, client);
  } finally {
    worker?.kill('SIGTERM');
    await app.close();
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(workerDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (BACKEND === 'pglite' || BACKEND === 'both') await pglite();
  if (BACKEND === 'postgres' || BACKEND === 'both') {
    if (PG_URL) await postgres(PG_URL);
    else console.log('Postgres: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL)');
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);

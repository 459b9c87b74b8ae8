// Crash durability of ingest (issue 3, acceptance 4): several clients post batches to the built
// service, the service is killed with SIGKILL mid-stream (several times), restarted on the same
// DATA_DIR, and then the store is counted directly. Every batch answered 202 must be stored whole.
//
//   npm run bench:ingest-crash [-- --rounds 3 --clients 4 --batch 200]
import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from './free-port';
import { createClickHouseClient } from '../src/clickhouse/clickhouse.provider';
import { loadConfig } from '../src/config/config';

const ROOT = resolve(__dirname, '..');
const ADMIN_TOKEN = 'crash-test-operator-token-0123456789';
const UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
}
const ROUNDS = arg('rounds', 3);
const CLIENTS = arg('clients', 4);
const BATCH = arg('batch', 200);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function startService(dataDir: string, port: number): ChildProcess {
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'main.js')], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', ADMIN_TOKEN, LOG_LEVEL: 'warn', WORKER: 'off' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return child;
}

async function waitHealthy(base: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode} while starting`);
    try {
      if ((await fetch(`${base}/health`)).status === 200) return;
    } catch {
      /* not listening yet */
    }
    await sleep(100);
  }
  throw new Error('service did not become healthy');
}

const exited = (child: ChildProcess) => new Promise<void>((r) => (child.exitCode !== null || child.signalCode !== null ? r() : child.once('exit', () => r())));

interface Counters {
  sentBatches: number;
  ackedBatches: Set<string>;
  failedBatches: number;
}

async function client(base: string, projectId: string, apiKey: string, id: number, round: number, counters: Counters, stop: { now: boolean }): Promise<void> {
  for (let b = 0; !stop.now; b++) {
    const batch = `r${round}c${id}b${b}`;
    const hits = Array.from({ length: BATCH }, (_, i) => ({ path: `/crash/${batch}/${i}`, userAgent: UA, ip: `10.${id}.${b % 250}.${i % 250}` }));
    counters.sentBatches++;
    try {
      const res = await fetch(`${base}/v1/ingest/${projectId}/hits`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ hits }),
      });
      await res.arrayBuffer();
      if (res.status === 202) counters.ackedBatches.add(batch);
      else counters.failedBatches++;
    } catch {
      counters.failedBatches++; // the connection died with the service: not acknowledged
      return;
    }
  }
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'docent-crash-'));
  const counters: Counters = { sentBatches: 0, ackedBatches: new Set(), failedBatches: 0 };
  let projectId = '';
  let apiKey = '';
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const child = startService(dataDir, port);
      await waitHealthy(base, child);
      if (!projectId) {
        const res = await fetch(`${base}/v1/projects`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'crash' }) });
        const body = (await res.json()) as { project: { id: string }; apiKey: string };
        projectId = body.project.id;
        apiKey = body.apiKey;
      }
      const stop = { now: false };
      const before = counters.ackedBatches.size;
      const clients = Array.from({ length: CLIENTS }, (_, id) => client(base, projectId, apiKey, id, round, counters, stop));
      // Kill at a random moment once acknowledgements flow, so batches are mid-insert at the kill.
      const killAfter = 1500 + Math.floor(Math.random() * 1500);
      await sleep(killAfter);
      child.kill('SIGKILL');
      await exited(child);
      stop.now = true;
      await Promise.all(clients);
      process.stdout.write(`round ${round + 1}: killed after ${killAfter} ms; ${counters.ackedBatches.size - before} batches acknowledged this round\n`);
    }

    // Restart on the same DATA_DIR: it must boot and serve, then stop cleanly so the store can be opened here.
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const child = startService(dataDir, port);
    await waitHealthy(base, child);
    const after = await fetch(`${base}/v1/ingest/${projectId}/hits`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ hits: [{ path: '/crash/after-restart', userAgent: UA }] }),
    });
    child.kill('SIGTERM');
    await exited(child);

    const clickhouse = createClickHouseClient(loadConfig({ DATA_DIR: dataDir }));
    const rs = await clickhouse.query({
      query: `SELECT extract(path, '^/crash/([^/]+)/') AS batch, count() AS n FROM hits
              WHERE project_id = {projectId:String} GROUP BY batch`,
      query_params: { projectId },
      format: 'JSONEachRow',
    });
    const stored = new Map((await rs.json<{ batch: string; n: number }>()).map((r) => [r.batch, Number(r.n)]));
    await clickhouse.close();

    const ackedHits = counters.ackedBatches.size * BATCH;
    let storedHits = 0;
    for (const [batch, n] of stored) if (batch) storedHits += n;
    const missing = [...counters.ackedBatches].filter((b) => stored.get(b) !== BATCH);
    const unackedStored = [...stored.keys()].filter((b) => b && !counters.ackedBatches.has(b)).length;

    process.stdout.write(
      [
        '',
        `rounds (kill -9): ${ROUNDS}, clients: ${CLIENTS}, hits per batch: ${BATCH}`,
        `sent:          ${counters.sentBatches} batches = ${counters.sentBatches * BATCH} hits`,
        `acknowledged:  ${counters.ackedBatches.size} batches = ${ackedHits} hits (202)`,
        `not answered:  ${counters.failedBatches} batches (connection died with the service, or non-202)`,
        `stored:        ${storedHits} hits in ${stored.size - (stored.has('') ? 1 : 0)} batches (${unackedStored} batches stored but never acknowledged: in flight at the kill)`,
        `acked batches missing or incomplete: ${missing.length}${missing.length ? ` (${missing.slice(0, 5).join(', ')})` : ''}`,
        `after restart: POST answered ${after.status}; hit stored: ${stored.get('') === undefined ? 'no' : 'yes'}`,
        '',
        missing.length === 0 && storedHits >= ackedHits && after.status === 202 ? 'PASS: every acknowledged hit is stored' : 'FAIL',
        '',
      ].join('\n'),
    );
    process.exitCode = missing.length === 0 && storedHits >= ackedHits && after.status === 202 ? 0 : 1;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

void main();

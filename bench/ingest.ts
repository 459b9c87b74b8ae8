// npm run bench:ingest [-- --seconds 5 --rounds 3 --clients 4 --connections 256 --log-level warn --only a|b --half --verification-ab --cpu-prof DIR]
//
// P1 (a) hits/s through POST /v1/ingest (500-hit batches, several concurrent clients, acknowledged hits
//     only) against raw client.insert of the same rows (500-row inserts, as many concurrent callers)
//     into the same embedded engine;
// P2 (b) single-hit POST /v1/collect req/s and p99 against a bare NestJS-on-Fastify route answering 202,
//     both with autocannon at 256 connections; P2a the same at 50 connections (each side as fast as it
//     goes); --half adds each one's p99 at half its peak rate.
// --verification-ab: P1's ingest also against a second service with AGENT_VERIFICATION=off, in the
//     same rounds (alternating), for the cost of checking AI hits' IPs against operators' ranges.
// Warm-up first, then alternating rounds; medians are reported. Every server runs in its own
// process (chDB binds one data directory per process) while this process drives the load.
import autocannon from 'autocannon';
import { ChildProcess, fork, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from './free-port';
import { classifyUserAgent } from '../src/ingest/classifier/user-agent-classifier';
import { AgentRanges } from '../src/ingest/verification/agent-ranges';
import { HitRow, toClickHouseTime } from '../src/ingest/hits.repository';
import { visitorIdentity } from '../src/ingest/visitor-identity';

const ROOT = resolve(__dirname, '..');
const ADMIN_TOKEN = 'bench-operator-token-0123456789';
const BATCH = 500;

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1];
}
const SECONDS = Number(arg('seconds', '5'));
const ROUNDS = Number(arg('rounds', '3'));
const CLIENTS = Number(arg('clients', '4'));
// Enough connections that the beacon, whose answer waits for its group commit (INGEST_FLUSH_MS), is bounded by CPU, not by connections / latency.
const CONNECTIONS = Number(arg('connections', '256'));
const HALF_RATE_CONNECTIONS = Number(arg('half-rate-connections', '50'));
const LOG_LEVEL = arg('log-level', 'warn');
const ONLY = arg('only', '');
const HALF = process.argv.includes('--half');
const CPU_PROF = arg('cpu-prof', '');
const VERIFICATION_AB = process.argv.includes('--verification-ab');

const USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function message<T>(child: ChildProcess): Promise<T> {
  return new Promise((res, rej) => {
    child.once('message', (m) => res(m as T));
    child.once('exit', (code) => rej(new Error(`child exited with ${code}`)));
  });
}

const exited = (child: ChildProcess) => new Promise<void>((r) => (child.exitCode !== null ? r() : child.once('exit', () => r())));

async function startService(dataDir: string, env: Record<string, string> = {}): Promise<{ base: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [...(CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`] : []), join(ROOT, 'dist', 'main.js')], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', ADMIN_TOKEN, LOG_LEVEL, WORKER: 'off', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error('service exited while starting');
    try {
      if ((await fetch(`${base}/health`)).status === 200) return { base, child };
    } catch {
      /* not yet */
    }
    await sleep(100);
  }
  throw new Error('service did not start');
}

function fixedHits(): Array<{ timestamp: string; path: string; userAgent: string; ip: string }> {
  const now = Date.now();
  return Array.from({ length: BATCH }, (_, i) => ({
    timestamp: new Date(now - i * 1000).toISOString(),
    path: `/docs/section-${i % 40}/page-${i % 97}`,
    userAgent: USER_AGENTS[i % USER_AGENTS.length],
    ip: `10.${i % 7}.${i % 250}.${(i * 7) % 250}`,
  }));
}

/** The rows the service would store for these hits (fixed salt: the hashing cost is the same). */
function rowsFor(projectId: string, hits: ReturnType<typeof fixedHits>): HitRow[] {
  const ranges = new AgentRanges();
  return hits.map((h) => {
    const c = classifyUserAgent(h.userAgent);
    return {
      project_id: projectId,
      timestamp: toClickHouseTime(Date.parse(h.timestamp)),
      path: h.path,
      visitor_id: visitorIdentity({ projectId, class: c.class, ip: h.ip, userAgent: h.userAgent, salt: 'bench' }),
      class: c.class,
      ai_agent: c.aiAgent,
      ai_category: c.aiCategory,
      ai_operator: c.aiOperator,
      verification: c.class === 'ai' ? ranges.verify(c.aiAgent, h.ip) : 'unknown',
      browser: c.browser,
      os: c.os,
      device: c.device,
      referrer_host: '',
      utm_source: '',
    };
  });
}

function cannon(opts: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((res, rej) => {
    autocannon(opts, (err, result) => (err ? rej(err) : res(result)));
  });
}

interface Figures {
  rawHitsPerSec: number[];
  rawBatchesHitsPerSec: number[];
  rawGroupedHitsPerSec: number[];
  ingestHitsPerSec: number[];
  ingestNon2xx: number[];
  ingestNoVerifyHitsPerSec: number[];
  ingestWithVerifyHitsPerSec: number[];
  keyedHitsPerSec: number[];
  collectRps: number[];
  collectP99: number[];
  collectHalfP99: number[];
  collect50Rps: number[];
  collect50P99: number[];
  bare50Rps: number[];
  bare50P99: number[];
  bareRps: number[];
  bareP99: number[];
  bareHalfP99: number[];
}

async function main(): Promise<void> {
  const serviceDir = mkdtempSync(join(tmpdir(), 'docent-bench-svc-'));
  const rawDir = mkdtempSync(join(tmpdir(), 'docent-bench-raw-'));
  const offDir = mkdtempSync(join(tmpdir(), 'docent-bench-noverify-'));
  const children: ChildProcess[] = [];
  try {
    const { base, child: service } = await startService(serviceDir);
    children.push(service);
    const created = await fetch(`${base}/v1/projects`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'bench' }) });
    const { project, apiKey } = (await created.json()) as { project: { id: string }; apiKey: string };

    // The same service with AGENT_VERIFICATION=off, for the A/B of verification's cost.
    let off: { base: string; projectId: string; apiKey: string } | undefined;
    if (VERIFICATION_AB) {
      const { base: offBase, child } = await startService(offDir, { AGENT_VERIFICATION: 'off' });
      children.push(child);
      const res = await fetch(`${offBase}/v1/projects`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'bench' }) });
      const body = (await res.json()) as { project: { id: string }; apiKey: string };
      off = { base: offBase, projectId: body.project.id, apiKey: body.apiKey };
    }

    const register = join(__dirname, 'ingest-register.cjs');
    const raw = fork(join(__dirname, 'ingest-raw-insert.ts'), [], { execArgv: ['-r', register], env: { ...process.env, DATA_DIR: rawDir }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    children.push(raw);
    await message(raw);
    const bare = fork(join(__dirname, 'ingest-bare-app.ts'), [], { execArgv: ['-r', register], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    children.push(bare);
    const { port: barePort } = await message<{ port: number }>(bare);

    const hits = fixedHits();
    const rows = rowsFor(project.id, hits);
    const ingestBody = JSON.stringify({ hits });
    const collectBody = JSON.stringify({ path: 'https://docs.example.com/guide/start?x=1', referrer: 'https://www.google.com/' });
    const browserHeaders = { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': USER_AGENTS[0] };

    // Two baselines: the clients' own 500-row batches inserted concurrently, and the same rows in
    // one CLIENTS×500-row insert at a time (the shape group commit produces). The ratio uses the better.
    const grouped = Array.from({ length: CLIENTS }, () => rows).flat();
    const runRaw = async (seconds: number, shape: 'batches' | 'grouped') => {
      raw.send(shape === 'batches' ? { rows, concurrency: CLIENTS, durationMs: seconds * 1000 } : { rows: grouped, concurrency: 1, durationMs: seconds * 1000 });
      const { inserted, seconds: took } = await message<{ inserted: number; seconds: number }>(raw);
      return inserted / took;
    };
    let keyCounter = 0;
    const runIngest = async (seconds: number, keyed = false, target = { base, projectId: project.id, apiKey }) => {
      const r = await cannon({
        url: `${target.base}/v1/ingest/${target.projectId}/hits`,
        method: 'POST',
        headers: { authorization: `Bearer ${target.apiKey}`, 'content-type': 'application/json' },
        body: ingestBody,
        connections: CLIENTS,
        duration: seconds,
        // Keyed: a fresh Idempotency-Key per request (each keyed batch is its own deduplicated insert).
        ...(keyed ? { requests: [{ setupRequest: (req: autocannon.Request) => ({ ...req, headers: { ...req.headers, 'idempotency-key': `bench-${process.pid}-${++keyCounter}` } }) }] } : {}),
      });
      return { hitsPerSec: (r['2xx'] * BATCH) / r.duration, non2xx: r.non2xx + r.errors };
    };
    // At a fixed rate, fewer connections: autocannon releases each second's quota in a burst across all of them.
    const runCollect = (url: string, seconds: number, overallRate?: number, connections = overallRate ? HALF_RATE_CONNECTIONS : CONNECTIONS) =>
      cannon({ url, method: 'POST', headers: browserHeaders, body: collectBody, connections, duration: seconds, ...(overallRate ? { overallRate } : {}) });
    const collectUrl = `${base}/v1/collect/${project.id}`;
    const bareUrl = `http://127.0.0.1:${barePort}/v1/collect/${project.id}`;

    const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
    process.stdout.write(`machine: ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), load average ${load()} at start\n`);
    process.stdout.write(`warm-up (${Math.max(2, SECONDS / 2)} s each)...\n`);
    const warm = Math.max(2, SECONDS / 2);
    const doA = ONLY !== 'b';
    const doB = ONLY !== 'a';
    if (doA) await runRaw(warm, 'batches');
    if (doA) await runRaw(warm, 'grouped');
    if (doA) await runIngest(warm);
    if (doA) await runIngest(warm, true);
    if (doA && off) await runIngest(warm, false, off);
    if (doB) await runCollect(collectUrl, warm);
    if (doB) await runCollect(bareUrl, warm);
    if (doB) await runCollect(collectUrl, warm, undefined, HALF_RATE_CONNECTIONS);
    if (doB) await runCollect(bareUrl, warm, undefined, HALF_RATE_CONNECTIONS);

    const f: Figures = {
      rawHitsPerSec: [], rawBatchesHitsPerSec: [], rawGroupedHitsPerSec: [], ingestHitsPerSec: [], ingestNon2xx: [], keyedHitsPerSec: [],
      ingestNoVerifyHitsPerSec: [], ingestWithVerifyHitsPerSec: [],
      collectRps: [], collectP99: [], collectHalfP99: [], bareRps: [], bareP99: [], bareHalfP99: [],
      collect50Rps: [], collect50P99: [], bare50Rps: [], bare50P99: [],
    };
    for (let round = 1; round <= ROUNDS; round++) {
      // Alternate the order so neither side always runs on a fresher (or more merged) engine.
      const order = round % 2 === 1 ? ['raw', 'ingest'] : ['ingest', 'raw'];
      for (const which of doA ? order : []) {
        if (which === 'raw') {
          const batches = await runRaw(SECONDS / 2, 'batches');
          const groupedRate = await runRaw(SECONDS / 2, 'grouped');
          f.rawBatchesHitsPerSec.push(batches);
          f.rawGroupedHitsPerSec.push(groupedRate);
          f.rawHitsPerSec.push(Math.max(batches, groupedRate));
        }
        else {
          const r = await runIngest(SECONDS);
          f.ingestHitsPerSec.push(r.hitsPerSec);
          f.ingestNon2xx.push(r.non2xx);
          const keyed = await runIngest(SECONDS, true);
          f.keyedHitsPerSec.push(keyed.hitsPerSec);
          f.ingestNon2xx.push(keyed.non2xx);
          if (off) {
            // Back to back, order alternating by round: verification on (the main service) and off.
            const pair = round % 2 === 1 ? [false, true] : [true, false];
            for (const withVerification of pair) {
              const v = await runIngest(SECONDS, false, withVerification ? { base, projectId: project.id, apiKey } : off);
              (withVerification ? f.ingestWithVerifyHitsPerSec : f.ingestNoVerifyHitsPerSec).push(v.hitsPerSec);
            }
          }
        }
      }
      const sides = round % 2 === 1 ? (['collect', 'bare'] as const) : (['bare', 'collect'] as const);
      for (const side of doB ? sides : []) {
        const url = side === 'collect' ? collectUrl : bareUrl;
        const peak = await runCollect(url, SECONDS);
        const at50 = await runCollect(url, SECONDS, undefined, HALF_RATE_CONNECTIONS);
        for (const [name, r] of [['peak', peak], ['50 connections', at50]] as const) {
          if (r.non2xx + r.errors > 0) process.stdout.write(`  ${side}: ${r.non2xx} non-2xx, ${r.errors} errors at ${name}\n`);
        }
        (side === 'collect' ? f.collectRps : f.bareRps).push(peak.requests.average);
        (side === 'collect' ? f.collectP99 : f.bareP99).push(peak.latency.p99);
        (side === 'collect' ? f.collect50Rps : f.bare50Rps).push(at50.requests.average);
        (side === 'collect' ? f.collect50P99 : f.bare50P99).push(at50.latency.p99);
        if (HALF) {
          const half = await runCollect(url, SECONDS, Math.max(1, Math.round(peak.requests.average / 2)));
          (side === 'collect' ? f.collectHalfP99 : f.bareHalfP99).push(half.latency.p99);
        }
      }
      process.stdout.write(
        `round ${round}: raw ${Math.round(f.rawBatchesHitsPerSec.at(-1) ?? 0)} / ${Math.round(f.rawGroupedHitsPerSec.at(-1) ?? 0)} hits/s, ingest ${Math.round(f.ingestHitsPerSec.at(-1) ?? 0)} hits/s (keyed ${Math.round(f.keyedHitsPerSec.at(-1) ?? 0)}` +
          `${off ? `; verification on ${Math.round(f.ingestWithVerifyHitsPerSec.at(-1) ?? 0)} / off ${Math.round(f.ingestNoVerifyHitsPerSec.at(-1) ?? 0)}` : ''}); ` +
          `collect ${Math.round(f.collectRps.at(-1) ?? 0)} req/s (p99 ${f.collectP99.at(-1) ?? 0} ms) vs bare ${Math.round(f.bareRps.at(-1) ?? 0)}; ` +
          `at ${HALF_RATE_CONNECTIONS} conn. collect ${Math.round(f.collect50Rps.at(-1) ?? 0)} req/s (p99 ${f.collect50P99.at(-1) ?? 0} ms) vs bare ${Math.round(f.bare50Rps.at(-1) ?? 0)}\n`,
      );
    }

    const m = Object.fromEntries(Object.entries(f).map(([k, v]) => [k, v.length ? median(v) : NaN])) as Record<keyof Figures, number>;
    const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
    const table = [
      ['', 'Docent', 'baseline', 'ratio', 'goal'],
      [`P1 (a) hits/s, ${BATCH}-hit batches, ${CLIENTS} clients`, fmt(m.ingestHitsPerSec), fmt(m.rawHitsPerSec) + ' (raw insert, best shape)', (m.ingestHitsPerSec / m.rawHitsPerSec).toFixed(2), '≥ 0.7'],
      [`    with an Idempotency-Key per batch`, fmt(m.keyedHitsPerSec), '', (m.keyedHitsPerSec / m.rawHitsPerSec).toFixed(2), ''],
      [`    raw: ${CLIENTS}×${BATCH}-row inserts at once`, '', fmt(m.rawBatchesHitsPerSec), (m.ingestHitsPerSec / m.rawBatchesHitsPerSec).toFixed(2), ''],
      [`    raw: one ${CLIENTS * BATCH}-row insert at a time`, '', fmt(m.rawGroupedHitsPerSec), (m.ingestHitsPerSec / m.rawGroupedHitsPerSec).toFixed(2), ''],
      ...(off
        ? [[`    verification on ÷ off (AGENT_VERIFICATION), same rounds`, fmt(m.ingestWithVerifyHitsPerSec), fmt(m.ingestNoVerifyHitsPerSec) + ' (off)', (m.ingestWithVerifyHitsPerSec / m.ingestNoVerifyHitsPerSec).toFixed(3), '≥ 0.95']]
        : []),
      [`P2 (b) /v1/collect req/s, ${CONNECTIONS} connections`, fmt(m.collectRps), fmt(m.bareRps) + ' (bare Nest)', (m.collectRps / m.bareRps).toFixed(2), '≥ 0.6'],
      ['   (b) p99 ms', String(m.collectP99), String(m.bareP99), '', ''],
      [`P2a (b) /v1/collect req/s, ${HALF_RATE_CONNECTIONS} connections`, fmt(m.collect50Rps), fmt(m.bare50Rps) + ' (bare Nest)', (m.collect50Rps / m.bare50Rps).toFixed(2), '≥ 0.5'],
      [`P2a (b) p99 ms, ${HALF_RATE_CONNECTIONS} connections`, String(m.collect50P99), String(m.bare50P99), '', '≤ 25'],
      ...(HALF ? [[`   (b) p99 ms at half peak (${HALF_RATE_CONNECTIONS} connections)`, String(m.collectHalfP99), String(m.bareHalfP99), '', '']] : []),
    ];
    const widths = table[0].map((_, c) => Math.max(...table.map((r) => r[c].length)));
    process.stdout.write(
      `\nmedians of ${ROUNDS} rounds of ${SECONDS} s (LOG_LEVEL=${LOG_LEVEL}; ingest non-2xx per round: ${f.ingestNon2xx.join(', ')})\n` +
        table.map((r) => `| ${r.map((cell, c) => cell.padEnd(widths[c])).join(' | ')} |`).join('\n') +
        `\nload average ${load()} at the end\n`,
    );
    for (const child of [raw, bare]) child.send('exit');
    for (const child of children) if (child !== raw && child !== bare) child.kill('SIGTERM');
    await Promise.all(children.map(exited));
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(serviceDir, { recursive: true, force: true });
    rmSync(rawDir, { recursive: true, force: true });
    rmSync(offDir, { recursive: true, force: true });
  }
}

void main();

// npm run bench:memory [-- --millions 10 --idle-seconds 10]
//
// P6  RSS of the built service (`node dist/main.js`, embedded engines, default settings) after its
//     first start on an empty DATA_DIR, idle; and after a second start on the same data.
// P6b peak RSS of the service while `npm run cli -- export visitors` walks the whole month report
//     of a 10 M-hit month (generated with INSERT … SELECT FROM numbers() by a separate process, as
//     chDB binds one data directory per process; the service is restarted on it).
// Each figure with where the memory is: /proc/PID/smaps grouped by mapping (anonymous memory, the
// chDB library's code, malloc heap, node), and the V8 heap and external (wasm, buffers) sizes from
// /metrics. The peak is the kernel's VmHWM, reset just before the export (/proc/PID/clear_refs).
import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from './free-port';
import { createClickHouseClient } from '../src/clickhouse/clickhouse.provider';
import { loadConfig } from '../src/config/config';

const ROOT = resolve(__dirname, '..');
const ADMIN_TOKEN = 'bench-operator-token-0123456789';
const MONTH_FROM = '2026-03-01';
const MONTH_TO = '2026-04-01';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1];
}
const MILLIONS = Number(arg('millions', '10'));
const IDLE_SECONDS = Number(arg('idle-seconds', '10'));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;
const exited = (child: ChildProcess) => new Promise<number | null>((r) => (child.exitCode !== null ? r(child.exitCode) : child.once('exit', (code) => r(code))));

interface Service {
  child: ChildProcess;
  base: string;
}

async function startService(dataDir: string): Promise<Service> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'main.js')], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', ADMIN_TOKEN, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 1200; i++) {
    if (child.exitCode !== null) throw new Error('service exited while starting');
    try {
      if ((await fetch(`${base}/health`)).status === 200) return { child, base };
    } catch {
      /* not yet */
    }
    await sleep(100);
  }
  throw new Error('service did not start');
}

async function stopService(s: Service): Promise<void> {
  s.child.kill('SIGTERM');
  await exited(s.child);
}

function status(pid: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of readFileSync(`/proc/${pid}/status`, 'utf8').split('\n')) {
    const m = /^(Vm\w+|Rss\w+):\s+(\d+) kB/.exec(line);
    if (m) out[m[1]] = Number(m[2]) * 1024;
  }
  return out;
}

/** Resident bytes per mapping kind: anonymous (heaps, wasm, chDB's allocations), libchdb.so code, node, malloc heap. */
function residentByMapping(pid: number): Record<string, number> {
  const out: Record<string, number> = {};
  let current = '';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const header = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (header) {
      const name = header[1].trim();
      current = name === '' ? 'anonymous' : name === '[heap]' ? 'malloc heap' : name.endsWith('libchdb.so') ? 'libchdb.so (code)' : name.endsWith('/node') ? 'node binary' : name.startsWith('[') ? name : 'other files';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) out[current] = (out[current] ?? 0) + Number(rss[1]) * 1024;
  }
  return out;
}

async function scrape(base: string): Promise<Record<string, number>> {
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).text();
  const out: Record<string, number> = {};
  for (const name of ['nodejs_heap_size_total_bytes', 'nodejs_heap_size_used_bytes', 'nodejs_external_memory_bytes', 'docent_clickhouse_memory_tracked_bytes']) {
    const m = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
    if (m) out[name] = Number(m[1]);
  }
  return out;
}

function describe(label: string, pid: number, metrics: Record<string, number>): string {
  const st = status(pid);
  const parts = Object.entries(residentByMapping(pid))
    .sort((a, b) => b[1] - a[1])
    .filter(([, v]) => v > 1024 * 1024)
    .map(([k, v]) => `${k} ${mb(v)}`);
  return (
    `${label}: RSS ${mb(st.VmRSS)} (peak ${mb(st.VmHWM)})\n` +
    `    by mapping: ${parts.join(', ')}\n` +
    `    V8 heap ${mb(metrics.nodejs_heap_size_total_bytes ?? 0)} (used ${mb(metrics.nodejs_heap_size_used_bytes ?? 0)}), ` +
    `external (PGlite wasm, buffers) ${mb(metrics.nodejs_external_memory_bytes ?? 0)}` +
    (metrics.docent_clickhouse_memory_tracked_bytes !== undefined ? `, chDB tracked ${mb(metrics.docent_clickhouse_memory_tracked_bytes)}` : '') +
    '\n'
  );
}

/** Child mode: fills DATA_DIR's hits with a month for one project, 250,000 rows per insert (within the default 512 MiB engine cap). */
async function generate(dataDir: string, projectId: string, millions: number): Promise<void> {
  const client = createClickHouseClient(loadConfig({ DATA_DIR: dataDir }));
  // ~1 M visitors (85 % human, 12 % AI, 3 % bots) over 2,000 pages with Zipf-like popularity.
  const query = `INSERT INTO hits (project_id, timestamp, path, visitor_id, class, ai_agent, ai_category, browser, os, device, referrer_host)
    SELECT {p:String},
      toDateTime64('${MONTH_FROM} 00:00:00', 3, 'UTC') + toIntervalMillisecond(cityHash64(number, 1) % (31 * 86400000)),
      concat('/docs/page-', toString(least(2000, toUInt32(floor(pow(1 - ((cityHash64(number, 2) % 1000000) / 1e6) * (1 - pow(2001, -0.1)), -10)))))),
      cityHash64({p:String}, v), multiIf(v % 100 < 85, 'human', v % 100 < 97, 'ai', 'bot'),
      if(v % 100 BETWEEN 85 AND 96, ['GPTBot', 'ClaudeBot', 'PerplexityBot'][v % 3 + 1], ''), if(v % 100 BETWEEN 85 AND 96, 'training', ''),
      ['Chrome', 'Firefox', 'Safari'][v % 3 + 1], ['Windows', 'macOS', 'Linux'][v % 3 + 1], 'desktop', ''
    FROM (SELECT number, cityHash64(number, 3) % 1000000 AS v FROM numbers({first:UInt64}, 250000))`;
  for (let i = 0; i < millions * 4; i++) {
    await client.command({ query, query_params: { p: projectId, first: i * 250_000 }, clickhouse_settings: { async_insert: 0 } });
    if (i % 4 === 3) process.stderr.write('.');
  }
  process.stderr.write('\n');
  await client.close();
}

async function main(): Promise<void> {
  if (process.argv[2] === '--generate') return generate(process.argv[3], process.argv[4], Number(process.argv[5]));
  process.stdout.write(`machine: ${cpus().length} cores, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} at start\n\n`);
  const dataDir = mkdtempSync(join(tmpdir(), 'docent-bench-mem-'));
  try {
    // P6: first start, then idle.
    let svc = await startService(dataDir);
    await sleep(IDLE_SECONDS * 1000);
    const p6 = describe(`P6  after first start, idle ${IDLE_SECONDS} s`, svc.child.pid!, await scrape(svc.base));
    process.stdout.write(p6);
    const created = await fetch(`${svc.base}/v1/projects`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'memory bench' }) });
    const { project, apiKey } = (await created.json()) as { project: { id: string }; apiKey: string };
    await stopService(svc);

    svc = await startService(dataDir);
    await sleep(IDLE_SECONDS * 1000);
    process.stdout.write(describe(`    after a second start, idle ${IDLE_SECONDS} s`, svc.child.pid!, await scrape(svc.base)));
    await stopService(svc);

    // P6b: a month of MILLIONS M hits, then the whole month report exported.
    const started = Date.now();
    const gen = spawn(process.execPath, ['-r', join(__dirname, 'ingest-register.cjs'), __filename, '--generate', dataDir, project.id, String(MILLIONS)], { stdio: ['ignore', 'inherit', 'inherit'] });
    if ((await exited(gen)) !== 0) throw new Error('generating hits failed');
    process.stdout.write(`\ngenerated ${MILLIONS} M hits in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);

    svc = await startService(dataDir);
    await sleep(IDLE_SECONDS * 1000);
    const pid = svc.child.pid!;
    process.stdout.write(describe(`    started on ${MILLIONS} M hits, idle`, pid, await scrape(svc.base)));
    writeFileSync(`/proc/${pid}/clear_refs`, '5'); // resets VmHWM: the peak below is the export's
    let sampledPeak = 0;
    const sampler = setInterval(() => (sampledPeak = Math.max(sampledPeak, status(pid).VmRSS ?? 0)), 50);
    const exportStarted = Date.now();
    const cli = spawn(process.execPath, [join(ROOT, 'dist', 'cli', 'main.js'), 'export', 'visitors', '--url', svc.base, '--key', apiKey, '--project', project.id, '--from', MONTH_FROM, '--to', MONTH_TO], { stdio: ['ignore', 'pipe', 'inherit'] });
    let lines = 0;
    cli.stdout!.on('data', (chunk: Buffer) => (lines += chunk.toString().split('\n').length - 1));
    const code = await exited(cli);
    clearInterval(sampler);
    const seconds = (Date.now() - exportStarted) / 1000;
    const st = status(pid);
    process.stdout.write(
      `P6b export visitors, ${MILLIONS} M-hit month: exit ${code}, ${Math.max(0, lines - 1)} paths in ${seconds.toFixed(1)} s; ` +
        `peak RSS ${mb(st.VmHWM)} (sampled every 50 ms: ${mb(sampledPeak)})\n`,
    );
    process.stdout.write(describe('    after the export', pid, await scrape(svc.base)));
    await stopService(svc);
    process.stdout.write(`\nload average ${loadavg().map((l) => l.toFixed(2)).join(' ')} at the end\n`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

void main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});

// npm run bench — the growth table: for 1 M, 10 M and 30 M hits in a month, the visitors report,
// the time series by day and one breakdown (by=agent), each p50 beside its naive-SQL counterpart from
// the same run; ingest hits/s; bytes on disk per hit; RSS. Each size runs bench/visitors.ts in its own
// process (chDB binds one data dir per process) with BENCH_CASES=growth. Generated data is kept under
// BENCH_DATA_ROOT (default /tmp/docent-bench-data) and reused by later runs.
// Env: BENCH_SIZES (default 1,10,30), BENCH_ROUNDS (default 5).
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';

const SIZES = (process.env.BENCH_SIZES ?? '1,10,30').split(',').map(Number);
const ROOT = process.env.BENCH_DATA_ROOT ?? '/tmp/docent-bench-data';

interface Result {
  millions: number;
  results: Array<{ name: string; api: number; naive: number }>;
  rssBefore: number;
  peak: number;
  bytesPerHit: number;
  bytesPerHitRaw: number;
  ingestRate: number;
}

const rows: Result[] = [];
for (const millions of SIZES) {
  process.stderr.write(`\n== ${millions} M hits ==\n`);
  const run = spawnSync(process.execPath, ['-r', './bench/ingest-register.cjs', 'bench/visitors.ts'], {
    cwd: resolve(__dirname, '..'),
    env: { ...process.env, BENCH_CASES: 'growth', BENCH_JSON: '1', BENCH_HITS_MILLIONS: String(millions), BENCH_DATA_DIR: join(ROOT, `m${millions}`) },
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  if (run.status !== 0) throw new Error(`bench for ${millions} M hits failed (${run.status})`);
  rows.push(JSON.parse(run.stdout.trim().split('\n').pop()!));
}

const ms = (x: number) => `${x.toFixed(0)}`;
const cell = (r: Result, i: number) => `${ms(r.results[i].api)} (naive ${ms(r.results[i].naive)}, ${(r.results[i].api / r.results[i].naive).toFixed(2)}×)`;
process.stdout.write(`\n| hits / month | visitors month p50 ms | timeseries by day p50 ms | breakdown by=agent p50 ms | ingest hits/s | bytes on disk / hit (hits alone) | RSS MB (before / peak) |\n|---|---|---|---|---|---|---|\n`);
for (const r of rows) {
  process.stdout.write(`| ${r.millions} M | ${cell(r, 0)} | ${cell(r, 1)} | ${cell(r, 2)} | ${r.ingestRate.toFixed(0)} | ${r.bytesPerHit.toFixed(1)} (${r.bytesPerHitRaw.toFixed(1)}) | ${r.rssBefore.toFixed(0)} / ${r.peak.toFixed(0)} |\n`);
}

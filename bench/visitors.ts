// npm run bench:visitors — a realistic month in the embedded engine, then the visitors report's
// latency over HTTP beside a naive SQL baseline, in alternating rounds. Prints a table.
// Env: BENCH_ROUNDS (default 20), BENCH_HITS_MILLIONS (default 10).
import type { ClickHouseClient } from '@clickhouse/client';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../src/app';
import { CLICKHOUSE } from '../src/clickhouse/clickhouse.module';
import { loadConfig } from '../src/config/config';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const MILLIONS = Number(process.env.BENCH_HITS_MILLIONS ?? 10);
const ADMIN_TOKEN = 'bench-operator-token-0123456789';

// Shape of the month (per 10 M hits): 9 M human/AI hits in sessions of 4 page views, 1 M bot hits.
// Visitors 0–849,999 are human: each has one session on one day, and 30 % (255,000) a second one on
// another day. Visitors 850,000–999,999 (15 %) are AI agents sharing the remaining 1.145 M sessions
// on random days. Paths follow Zipf(1.1) over 2,000 pages (inverse-CDF of the continuous power law).
const zipf = (u: string) => `least(2000, toUInt32(floor(pow(1 - ${u} * (1 - pow(2001, -0.1)), -10))))`;
const pathOf = (r: string) => `concat('/docs/', ['guides','api','reference','tutorials','blog','changelog','sdk'][${r} % 7 + 1], '/page-', toString(${r}))`;
const START = `toDateTime64('2026-03-01 00:00:00', 3, 'UTC')`;
const COLUMNS = 'project_id, timestamp, path, visitor_id, class, ai_agent, ai_category, browser, os, device, referrer_host';
const PEOPLE = `
INSERT INTO hits (${COLUMNS})
SELECT {projectId:String}, ${START} + toIntervalMillisecond(day * 86400000 + (cityHash64(s, 7) % 86000) * 1000 + j * 45000 + cityHash64(i, 9) % 1000),
  ${pathOf(zipf('((cityHash64(i, 8) % 1000000) / 1e6)'))}, cityHash64({projectId:String}, v), if(v < 850000, 'human', 'ai'),
  if(v < 850000, '', ['GPTBot','ClaudeBot','PerplexityBot','ChatGPT-User'][v % 4 + 1]), if(v < 850000, '', ['training','training','search','assistant'][v % 4 + 1]),
  ['Chrome','Firefox','Safari','Edge'][v % 4 + 1], ['Windows','macOS','Linux','iOS','Android'][v % 5 + 1], ['desktop','mobile'][v % 2 + 1], ['','google.com','github.com'][v % 3 + 1]
FROM (
  SELECT number AS i, intDiv(i, 4) AS s, i % 4 AS j,
    toUInt64(multiIf(s < 850000, s, s < 1105000, intDiv(toUInt64(s - 850000) * 10, 3), 850000 + cityHash64(s, 3) % 150000)) AS v,
    toUInt64(multiIf(s < 850000, cityHash64(v, 1) % 30, s < 1105000, (cityHash64(v, 1) % 30 + 1 + cityHash64(v, 2) % 29) % 30, cityHash64(s, 4) % 30)) AS day
  FROM numbers({first:UInt64}, {count:UInt64})
)`;
const BOTS = `
INSERT INTO hits (${COLUMNS})
SELECT {projectId:String}, ${START} + toIntervalMillisecond(cityHash64(number, 6) % (30 * 86400000)), ${pathOf(zipf('((cityHash64(number, 8) % 1000000) / 1e6)'))},
  cityHash64({projectId:String}, 2000000 + cityHash64(number, 5) % 20000), 'bot', '', '', 'HeadlessChrome', 'Linux', 'desktop', ''
FROM numbers({count:UInt64})`;

const NAIVE_TABLE = `CREATE TABLE naive_hits (project_id String, timestamp DateTime64(3, 'UTC'), path String, visitor_id UInt64, class Enum8('human' = 1, 'ai' = 2, 'bot' = 3))
ENGINE = MergeTree ORDER BY (project_id, timestamp)`;
const NAIVE = `SELECT path, uniqExactIf(visitor_id, class = 'human') AS human, uniqExactIf(visitor_id, class = 'ai') AS ai, uniqExactIf(visitor_id, class IN ('human', 'ai')) AS total
FROM naive_hits WHERE project_id = {projectId:String} AND timestamp >= {from:DateTime64(3, 'UTC')} AND timestamp < {to:DateTime64(3, 'UTC')}
GROUP BY path HAVING total > 0 ORDER BY total DESC, path ASC LIMIT 51`;

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const status = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1024;
/** Resets VmHWM to the current RSS (Linux), so the peak covers the measured phase only. */
const resetPeak = () => writeFileSync('/proc/self/clear_refs', '5');

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'docent-bench-visitors-'));
  const config = loadConfig({ DATA_DIR: dataDir, ADMIN_TOKEN, LOG_LEVEL: 'silent', WORKER: 'off' });
  const app = await createApp(config, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
  const ch = app.get<ClickHouseClient>(CLICKHOUSE);
  try {
    const created = await fetch(`${url}/v1/projects`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: '{"name":"bench"}' });
    const { project, apiKey } = (await created.json()) as { project: { id: string }; apiKey: string };
    const projectId = project.id;

    let t0 = performance.now();
    const people = Math.round(MILLIONS * 900_000);
    for (let first = 0; first < people; first += 1_000_000) {
      await ch.command({ query: PEOPLE, query_params: { projectId, first, count: Math.min(1_000_000, people - first) } });
    }
    await ch.command({ query: BOTS, query_params: { projectId, count: Math.round(MILLIONS * 100_000) } });
    const generated = performance.now() - t0;
    const stats = await (await ch.query({
      query: `SELECT class, count() AS hits, uniqExact(visitor_id) AS visitors, uniqExact(path) AS paths FROM hits WHERE project_id = {projectId:String} GROUP BY class ORDER BY class`,
      query_params: { projectId }, format: 'JSONEachRow',
    })).json<Record<string, number>>();
    t0 = performance.now();
    await ch.command({ query: NAIVE_TABLE });
    await ch.command({ query: `INSERT INTO naive_hits SELECT project_id, timestamp, path, visitor_id, class FROM hits WHERE project_id = {projectId:String}`, query_params: { projectId } });
    const naiveLoad = performance.now() - t0;
    // Let background merges settle, as they would have over a real month.
    const parts = async () => (await (await ch.query({ query: `SELECT table, count() AS parts, sum(rows) AS rows FROM system.parts WHERE active AND table IN ('hits', 'visits_by_path', 'visits_by_visitor', 'naive_hits') GROUP BY table ORDER BY table`, format: 'JSONEachRow' })).json<{ table: string; parts: number; rows: number }>());
    for (let i = 0; i < 30; i++) {
      const p = await parts();
      if (p.every((r) => Number(r.parts) <= 3)) break;
      await new Promise((r) => setTimeout(r, 2000));
    }
    process.stdout.write(`generated ${MILLIONS} M hits in ${(generated / 1000).toFixed(1)} s (naive table ${(naiveLoad / 1000).toFixed(1)} s)\n`);
    for (const s of stats) process.stdout.write(`  ${String(s.class).padEnd(6)} ${String(s.hits).padStart(9)} hits ${String(s.visitors).padStart(8)} visitors ${s.paths} paths\n`);
    for (const p of await parts()) process.stdout.write(`  ${p.table.padEnd(18)} ${String(p.rows).padStart(9)} rows in ${p.parts} parts\n`);

    const api = (query: string) => async () => {
      const res = await fetch(`${url}/v1/analytics/${projectId}/visitors?${query}`, { headers: { authorization: `Bearer ${apiKey}` } });
      const body = (await res.json()) as { visitors?: unknown[] };
      if (res.status !== 200 || !body.visitors) throw new Error(`${res.status} ${JSON.stringify(body)}`);
    };
    const naive = (from: string, to: string) => async () => {
      const rs = await ch.query({ query: NAIVE, query_params: { projectId, from, to }, format: 'JSONEachRow' });
      await rs.json();
    };
    const cases: Array<[string, () => Promise<void>]> = [
      ['(a) API month, first page', api('dateFrom=2026-03-01&dateTo=2026-03-31')],
      ['(b) API 7 days', api('dateFrom=2026-03-10&dateTo=2026-03-17')],
      ['(c) API month, offset 950', api('dateFrom=2026-03-01&dateTo=2026-03-31&offset=950')],
      ["(b') API 7 days, sub-day edges", api('dateFrom=2026-03-10T10:00:00Z&dateTo=2026-03-17T10:00:00Z')],
      ['naive SQL month', naive('2026-03-01 00:00:00', '2026-03-31 00:00:00')],
      ['naive SQL 7 days', naive('2026-03-10 00:00:00', '2026-03-17 00:00:00')],
    ];
    for (const [, fn] of cases) for (let i = 0; i < 3; i++) await fn(); // warm-up
    const rssBefore = status('VmRSS');
    resetPeak();

    const times = new Map<string, number[]>(cases.map(([name]) => [name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate the order every round so drift on a shared machine falls on both sides.
      const order = round % 2 ? [...cases].reverse() : cases;
      for (const [name, fn] of order) {
        const start = performance.now();
        await fn();
        times.get(name)!.push(performance.now() - start);
      }
    }
    const roundsPeak = status('VmHWM');
    resetPeak();
    for (const [name, fn] of cases) if (name.startsWith('(')) for (let i = 0; i < 5; i++) await fn();
    const apiPeak = status('VmHWM');
    const p50 = (name: string) => percentile(times.get(name)!, 50);
    process.stdout.write(`\n${ROUNDS} rounds, ms            p50      p95\n`);
    for (const [name] of cases) process.stdout.write(`${name.padEnd(32)} ${p50(name).toFixed(0).padStart(6)} ${percentile(times.get(name)!, 95).toFixed(0).padStart(8)}\n`);
    const base = p50('naive SQL month');
    process.stdout.write(`\nratio API p50 / naive month p50: (a) ${(p50(cases[0][0]) / base).toFixed(2)}  (b) ${(p50(cases[1][0]) / base).toFixed(2)}  (c) ${(p50(cases[2][0]) / base).toFixed(2)}\n`);
    process.stdout.write(`ratio (b) / naive 7 days p50: ${(p50(cases[1][0]) / p50('naive SQL 7 days')).toFixed(2)}\n`);
    process.stdout.write(`RSS (service + embedded chDB, one process): ${rssBefore.toFixed(0)} MB before the rounds; peak ${roundsPeak.toFixed(0)} MB during them (baseline included); peak ${apiPeak.toFixed(0)} MB over API calls alone\n`);
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);

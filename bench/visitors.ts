// npm run bench:visitors — a realistic month in the embedded engine, then the analytics reports'
// latency over HTTP (visitors, timeseries, every breakdown; month, 7-day, 1-day and sub-day-edge
// windows) beside a naive single-query SQL of the same rows over a plain hits table, in alternating
// rounds after a warm-up. No result cache exists, so none is in any figure. Prints a table.
// Env: BENCH_ROUNDS (default 5), BENCH_HITS_MILLIONS (default 10), BENCH_DATA_DIR (reuse a generated
// data dir across runs: generated once, kept), BENCH_CASES=growth (visitors, timeseries and one
// breakdown on the month only, plus ingest hits/s, bytes per hit; with BENCH_JSON=1 one JSON line for
// bench/growth.ts), BENCH_TENANTS=500 (P8: the month report alone, then with 500 more projects
// holding 80,000 hits each).
import type { ClickHouseClient } from '@clickhouse/client';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../src/app';
import { CLICKHOUSE } from '../src/clickhouse/clickhouse.module';
import { loadConfig } from '../src/config/config';
import { REFERRAL_MAPS } from '../src/insights/ai-assistants';
import { COLUMNS, pathOf, START, zipf } from './month';
import { percentile } from './percentile';
import { settle } from './settle';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const MILLIONS = Number(process.env.BENCH_HITS_MILLIONS ?? 10);
const GROWTH = process.env.BENCH_CASES === 'growth';
const JSON_OUT = process.env.BENCH_JSON === '1';
const TENANTS = Number(process.env.BENCH_TENANTS ?? 0);
const ADMIN_TOKEN = 'bench-operator-token-0123456789';
const log = (s: string) => (JSON_OUT ? process.stderr : process.stdout).write(s);

// Shape of the month, scaled to its size (per 10 M hits): 9 M human/AI hits in sessions of 4 page
// views, 1 M bot hits. Visitors 0 – H-1 (850,000 per 10 M) are human: each has one session on one
// day, and 30 % a second one on another day. Visitors H – H+A-1 (150,000 per 10 M, 15 %) are AI agents
// sharing the remaining 1.145 M sessions on random days. Paths follow Zipf(1.1) over 2,000 pages
// (inverse-CDF of the continuous power law); 1 in 10 AI fetches asks for the page's .md, 1 in 50 for
// /llms.txt. Humans come from search, GitHub, direct, and 1 in 20 from an AI assistant (some tagged
// with utm_source).
const PEOPLE = `
INSERT INTO hits (${COLUMNS})
SELECT {projectId:String}, ${START} + toIntervalMillisecond(day * 86400000 + (cityHash64(s, 7) % 86000) * 1000 + j * 45000 + cityHash64(i, 9) % 1000),
  if(v >= {humans:UInt64} AND cityHash64(i, 11) % 50 = 0, '/llms.txt', concat(${pathOf(zipf('((cityHash64(i, 8) % 1000000) / 1e6)'))}, if(v >= {humans:UInt64} AND cityHash64(i, 10) % 10 = 0, '.md', ''))),
  cityHash64({projectId:String}, v), if(v < {humans:UInt64}, 'human', 'ai'),
  if(v < {humans:UInt64}, '', ['GPTBot','ClaudeBot','PerplexityBot','ChatGPT-User'][v % 4 + 1]), if(v < {humans:UInt64}, '', ['training','training','search','assistant'][v % 4 + 1]),
  if(v < {humans:UInt64}, '', ['OpenAI','Anthropic','Perplexity','OpenAI'][v % 4 + 1]), if(v < {humans:UInt64}, 'unknown', ['verified','verified','unverified','unknown'][cityHash64(s, 12) % 4 + 1]),
  ['Chrome','Firefox','Safari','Edge'][v % 4 + 1], ['Windows','macOS','Linux','iOS','Android'][v % 5 + 1], ['desktop','mobile'][v % 2 + 1],
  if(v < {humans:UInt64}, ['','google.com','github.com','','google.com','github.com','','google.com','github.com','','google.com','github.com','','google.com','github.com','','google.com','github.com','chatgpt.com','perplexity.ai'][v % 20 + 1], ''),
  if(v < {humans:UInt64} AND v % 20 = 18 AND v % 3 = 0, 'chatgpt.com', '')
FROM (
  SELECT number AS i, intDiv(i, 4) AS s, i % 4 AS j,
    toUInt64(multiIf(s < {humans:UInt64}, s, s < {revisits:UInt64}, intDiv(toUInt64(s - {humans:UInt64}) * 10, 3), {humans:UInt64} + cityHash64(s, 3) % {agents:UInt64})) AS v,
    toUInt64(multiIf(s < {humans:UInt64}, cityHash64(v, 1) % 30, s < {revisits:UInt64}, (cityHash64(v, 1) % 30 + 1 + cityHash64(v, 2) % 29) % 30, cityHash64(s, 4) % 30)) AS day
  FROM numbers({first:UInt64}, {count:UInt64})
)`;
const BOTS = `
INSERT INTO hits (${COLUMNS})
SELECT {projectId:String}, ${START} + toIntervalMillisecond(cityHash64(number, 6) % (30 * 86400000)), ${pathOf(zipf('((cityHash64(number, 8) % 1000000) / 1e6)'))},
  cityHash64({projectId:String}, 1000000000 + cityHash64(number, 5) % {bots:UInt64}), 'bot', '', '', '', 'unknown', 'HeadlessChrome', 'Linux', 'desktop', '', ''
FROM numbers({count:UInt64})`;

// The plain table a user would write: the same columns, sorted by time.
const NAIVE_TABLE = `CREATE TABLE IF NOT EXISTS naive_hits (project_id String, timestamp DateTime64(3, 'UTC'), path String, visitor_id UInt64, class Enum8('human' = 1, 'ai' = 2, 'bot' = 3),
  ai_agent String, ai_category String, ai_operator String, verification String, browser String, os String, device String, referrer_host String, utm_source String)
ENGINE = MergeTree ORDER BY (project_id, timestamp)`;
const NAIVE_WHERE = `project_id = {projectId:String} AND timestamp >= {from:DateTime64(3, 'UTC')} AND timestamp < {to:DateTime64(3, 'UTC')}`;
const NAIVE_COUNTS = `uniqExactIf(visitor_id, class = 'human') AS human, uniqExactIf(visitor_id, class = 'ai') AS ai, uniqExactIf(visitor_id, class IN ('human', 'ai')) AS total`;
const NAIVE_VISITORS = `SELECT path, ${NAIVE_COUNTS} FROM naive_hits WHERE ${NAIVE_WHERE} GROUP BY path HAVING total > 0 ORDER BY total DESC, path ASC LIMIT 51`;
const NAIVE_TIMESERIES = `SELECT toStartOfDay(timestamp, 'UTC') AS start, ${NAIVE_COUNTS}, countIf(class = 'human') AS hits_human, countIf(class = 'ai') AS hits_ai, countIf(class = 'bot') AS hits_bot
FROM naive_hits WHERE ${NAIVE_WHERE} GROUP BY start ORDER BY start`;
const FORMAT = `multiIf(endsWith(lower(path), '/llms.txt') OR endsWith(lower(path), '/llms-full.txt'), 'llms.txt', endsWith(lower(path), '.md') OR endsWith(lower(path), '.mdx'), 'markdown',
  endsWith(lower(path), '.html') OR endsWith(lower(path), '.htm') OR (position(splitByChar('/', path)[-1], '.') = 0 AND lower(splitByChar('/', path)[-1]) NOT IN ('feed', 'rss', 'atom', 'sitemap')), 'html', 'other')`;
const NAIVE_DIMENSION: Record<string, [string, string, string]> = {
  agent: ['ai_agent', `class = 'ai'`, `, max(ai_operator), max(ai_category), countIf(verification = 'verified'), countIf(verification = 'unverified'), countIf(verification = 'unknown')`],
  category: ['ai_category', `class = 'ai'`, ''],
  referrer: ['referrer_host', `class = 'human'`, ''],
  source: ['utm_source', `class = 'human'`, ''],
  browser: ['browser', `class = 'human'`, ''],
  os: ['os', `class = 'human'`, ''],
  device: ['device', `class = 'human'`, ''],
  format: [FORMAT, `class IN ('human', 'ai')`, ''],
};
const naiveBreakdown = (by: string) => by === 'operator'
  ? `SELECT if(class = 'ai', ai_operator, if(transform(referrer_host, {hosts:Array(String)}, {hostOperators:Array(String)}, '') != '', transform(referrer_host, {hosts:Array(String)}, {hostOperators:Array(String)}, ''),
      transform(lower(utm_source), {utmSources:Array(String)}, {utmOperators:Array(String)}, ''))) AS value,
    uniqExactIf(visitor_id, class = 'ai') AS total, countIf(class = 'ai') AS hits, uniqExactIf(visitor_id, class = 'human') AS referred
  FROM naive_hits WHERE ${NAIVE_WHERE} AND (class = 'ai' OR (class = 'human' AND (referrer_host IN {hosts:Array(String)} OR lower(utm_source) IN {utmSources:Array(String)})))
  GROUP BY value ORDER BY total DESC, hits DESC, value ASC LIMIT 51`
  : `SELECT ${NAIVE_DIMENSION[by][0]} AS value, ${NAIVE_COUNTS}, count() AS hits${NAIVE_DIMENSION[by][2]} FROM naive_hits WHERE ${NAIVE_WHERE} AND ${NAIVE_DIMENSION[by][1]}
  GROUP BY value ORDER BY total DESC, hits DESC, value ASC LIMIT 51`;

const BY = ['agent', 'operator', 'category', 'referrer', 'source', 'browser', 'os', 'device', 'format'];

const status = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1024;
/** Resets VmHWM to the current RSS (Linux), so the peak covers the measured phase only. */
const resetPeak = () => writeFileSync('/proc/self/clear_refs', '5');

interface Meta {
  projectId: string;
  apiKey: string;
  millions: number;
  generatedSeconds: number;
  tenants?: number;
}

async function generate(ch: ClickHouseClient, projectId: string, millions: number): Promise<void> {
  const people = Math.round(millions * 900_000);
  const k = millions / 10;
  const shape = { humans: Math.round(850_000 * k), revisits: Math.round(1_105_000 * k), agents: Math.round(150_000 * k) };
  for (let first = 0; first < people; first += 2_000_000) {
    await ch.command({ query: PEOPLE, query_params: { projectId, first, count: Math.min(2_000_000, people - first), ...shape } });
  }
  await ch.command({ query: BOTS, query_params: { projectId, count: Math.round(millions * 100_000), bots: Math.round(20_000 * k) } });
  await ch.command({ query: NAIVE_TABLE });
  await ch.command({ query: `INSERT INTO naive_hits SELECT ${COLUMNS} FROM hits WHERE project_id = {projectId:String}`, query_params: { projectId } });
}

async function main() {
  const keep = process.env.BENCH_DATA_DIR;
  const dataDir = keep ?? mkdtempSync(join(tmpdir(), 'docent-bench-visitors-'));
  if (keep) mkdirSync(keep, { recursive: true });
  const metaFile = join(dataDir, 'bench-meta.json');
  // Generation inserts 2 M rows per statement; the service's small-VM memory defaults (512 MiB for
  // chDB, 400 MB per query) are raised unless the caller sets them, as the figures before them were.
  const memory = { CLICKHOUSE_MAX_MEMORY_BYTES: process.env.CLICKHOUSE_MAX_MEMORY_BYTES ?? String(3 * 1024 ** 3), QUERY_MAX_MEMORY_BYTES: process.env.QUERY_MAX_MEMORY_BYTES ?? String(2 * 1024 ** 3) };
  const config = loadConfig({ DATA_DIR: dataDir, ADMIN_TOKEN, LOG_LEVEL: 'silent', WORKER: 'off', ...memory });
  const app = await createApp(config, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
  const ch = app.get<ClickHouseClient>(CLICKHOUSE);
  const post = async (path: string, body: unknown, token = ADMIN_TOKEN) => {
    const res = await fetch(`${url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return res.json() as Promise<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
  };
  try {
    let meta: Meta | undefined = existsSync(metaFile) ? JSON.parse(readFileSync(metaFile, 'utf8')) : undefined;
    if (meta && meta.millions !== MILLIONS) throw new Error(`${dataDir} holds ${meta.millions} M hits, not ${MILLIONS}`);
    if (!meta) {
      const created = await post('/v1/projects', { name: 'bench' });
      const t0 = performance.now();
      await generate(ch, created.project.id, MILLIONS);
      meta = { projectId: created.project.id, apiKey: created.apiKey, millions: MILLIONS, generatedSeconds: (performance.now() - t0) / 1000 };
      writeFileSync(metaFile, JSON.stringify(meta));
    }
    const { projectId, apiKey } = meta;
    const tables = await settle(ch);
    const stats = await (await ch.query({
      query: `SELECT class, count() AS hits, uniqExact(visitor_id) AS visitors, uniqExact(path) AS paths FROM hits WHERE project_id = {projectId:String} GROUP BY class ORDER BY class`,
      query_params: { projectId }, format: 'JSONEachRow',
    })).json<Record<string, number>>();
    const hitsTotal = stats.reduce((n, s) => n + Number(s.hits), 0);
    log(`${MILLIONS} M hits, generated in ${meta.generatedSeconds.toFixed(1)} s (data dir ${keep ? 'kept' : 'temporary'})\n`);
    for (const s of stats) log(`  ${String(s.class).padEnd(6)} ${String(s.hits).padStart(9)} hits ${String(s.visitors).padStart(8)} visitors ${s.paths} paths\n`);
    for (const p of tables) log(`  ${p.table.padEnd(24)} ${String(p.rows).padStart(9)} rows in ${String(p.parts).padStart(2)} parts, ${(Number(p.bytes) / 1e6).toFixed(1)} MB\n`);
    const product = tables.filter((t) => t.table !== 'naive_hits');
    const bytesPerHit = product.reduce((n, t) => n + Number(t.bytes), 0) / hitsTotal;
    const bytesPerHitRaw = Number(tables.find((t) => t.table === 'hits')?.bytes ?? 0) / hitsTotal;

    const api = (endpoint: string, query: string) => async () => {
      const res = await fetch(`${url}/v1/analytics/${projectId}/${endpoint}?${query}`, { headers: { authorization: `Bearer ${apiKey}` } });
      const body = await res.json();
      if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(body)}`);
    };
    const naive = (sql: string, from: string, to: string) => async () => {
      await (await ch.query({ query: sql, query_params: { projectId, from, to, ...REFERRAL_MAPS }, format: 'JSONEachRow' })).json();
    };
    const windows: Record<string, [string, string, string, string]> = {
      month: ['dateFrom=2026-03-01&dateTo=2026-03-31', '2026-03-01 00:00:00', '2026-03-31 00:00:00', 'month'],
      '7d': ['dateFrom=2026-03-10&dateTo=2026-03-17', '2026-03-10 00:00:00', '2026-03-17 00:00:00', '7 days'],
      '1d': ['dateFrom=2026-03-12&dateTo=2026-03-13', '2026-03-12 00:00:00', '2026-03-13 00:00:00', '1 day'],
      edges: ['dateFrom=2026-03-10T10:30:00Z&dateTo=2026-03-13T10:30:00Z', '2026-03-10 10:30:00', '2026-03-13 10:30:00', '10:30 → 10:30 +3 d'],
    };
    // [name, api, naive] pairs; each pair is one line of the table.
    const pairs: Array<[string, () => Promise<void>, () => Promise<void>]> = [];
    const add = (name: string, endpoint: string, extra: string, w: keyof typeof windows, sql: string) =>
      pairs.push([`${name}, ${windows[w][3]}`, api(endpoint, `${windows[w][0]}${extra}`), naive(sql, windows[w][1], windows[w][2])]);
    if (GROWTH) {
      add('visitors first page', 'visitors', '', 'month', NAIVE_VISITORS);
      add('timeseries by day', 'timeseries', '&interval=day', 'month', NAIVE_TIMESERIES);
      add('breakdown by=agent', 'breakdown', '&by=agent', 'month', naiveBreakdown('agent'));
    } else {
      for (const w of ['month', '7d', 'edges'] as const) add('visitors first page', 'visitors', '', w, NAIVE_VISITORS);
      for (const w of ['month', '7d', '1d'] as const) add('timeseries by day', 'timeseries', '&interval=day', w, NAIVE_TIMESERIES);
      for (const by of BY) for (const w of ['month', '7d', '1d'] as const) add(`breakdown by=${by}`, 'breakdown', `&by=${by}`, w, naiveBreakdown(by));
    }

    const measure = async (rounds: number, list = pairs) => {
      const cases = list.flatMap(([name, a, n]): Array<[string, () => Promise<void>]> => [[`${name}|api`, a], [`${name}|naive`, n]]);
      for (const [, fn] of cases) await fn(); // warm-up
      const times = new Map<string, number[]>(cases.map(([name]) => [name, []]));
      for (let round = 0; round < rounds; round++) {
        // Alternate the order every round so drift on a shared machine falls on both sides.
        const order = round % 2 ? [...cases].reverse() : cases;
        for (const [name, fn] of order) {
          const start = performance.now();
          await fn();
          times.get(name)!.push(performance.now() - start);
        }
      }
      return list.map(([name]) => ({ name, api: percentile(times.get(`${name}|api`)!, 50), naive: percentile(times.get(`${name}|naive`)!, 50), apiP95: percentile(times.get(`${name}|api`)!, 95) }));
    };

    const rssBefore = status('VmRSS');
    resetPeak();
    const results = await measure(ROUNDS);
    const peak = status('VmHWM');
    log(`\n${ROUNDS} rounds, p50 ms                      API   naive SQL   API÷naive   API p95\n`);
    for (const r of results) log(`${r.name.padEnd(40)} ${r.api.toFixed(0).padStart(6)} ${r.naive.toFixed(0).padStart(10)} ${(r.api / r.naive).toFixed(2).padStart(10)} ${r.apiP95.toFixed(0).padStart(9)}\n`);
    log(`RSS (service + embedded chDB, one process): ${rssBefore.toFixed(0)} MB before the rounds, peak ${peak.toFixed(0)} MB during them\n`);
    log(`bytes on disk per hit: ${bytesPerHit.toFixed(1)} (hits alone ${bytesPerHitRaw.toFixed(1)}, the rest rollups)\n`);

    let ingestRate: number | undefined;
    if (GROWTH) ingestRate = await ingest(post);
    if (GROWTH) log(`ingest: ${ingestRate!.toFixed(0)} hits/s (POST /v1/ingest, 500-hit batches, 4 concurrent clients, load generated in-process)\n`);

    let tenants: { alone: number; naiveAlone: number; crowded: number; naiveCrowded: number } | undefined;
    if (TENANTS > 0) tenants = await multiTenant(ch, pairs.slice(0, 1), measure, meta, metaFile);
    if (JSON_OUT) process.stdout.write(`${JSON.stringify({ millions: MILLIONS, hits: hitsTotal, results, rssBefore, peak, bytesPerHit, bytesPerHitRaw, ingestRate, tenants })}\n`);
  } finally {
    await app.close();
    if (!keep) rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Hits/s through POST /v1/ingest into this data dir, for the growth table. */
async function ingest(post: (path: string, body: unknown, token?: string) => Promise<Record<string, any>>): Promise<number> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const created = await post('/v1/projects', { name: `ingest-${Date.now()}` });
  const ua = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
  const batch = (c: number, n: number) => ({ hits: Array.from({ length: 500 }, (_, i) => ({ path: `/docs/p${i % 50}?utm_source=x`, userAgent: ua, ip: `10.${c}.${n % 250}.${i % 250}` })) });
  let accepted = 0;
  const until = performance.now() + 5000;
  const start = performance.now();
  await Promise.all([0, 1, 2, 3].map(async (c) => {
    for (let n = 0; performance.now() < until; n++) accepted += Number((await post(`/v1/ingest/${created.project.id}/hits`, batch(c, n), created.apiKey)).accepted ?? 0);
  }));
  return accepted / ((performance.now() - start) / 1000);
}

/**
 * P8: the month report of the big project, alone, then with 500 more projects (80,000 hits each,
 * 40 M in all) in the same tables. The naive month query is measured in both phases as a control
 * for drift between them.
 */
async function multiTenant(
  ch: ClickHouseClient,
  pair: Array<[string, () => Promise<void>, () => Promise<void>]>,
  measure: (rounds: number, list?: Array<[string, () => Promise<void>, () => Promise<void>]>) => Promise<Array<{ api: number; naive: number }>>,
  meta: Meta,
  metaFile: string,
) {
  if (meta.tenants !== undefined) throw new Error('P8 needs a data dir without the other projects yet (the alone figure is measured first): use a new BENCH_DATA_DIR');
  const [alone] = await measure(ROUNDS * 2, pair);
  {
    const t0 = performance.now();
    for (let t = 0; t < TENANTS; t += 25) {
      // 25 projects per statement: each gets 72,000 human/AI hits and 8,000 bot hits in March.
      await ch.command({
        query: `INSERT INTO hits (${COLUMNS})
SELECT concat('prj_tenant', toString(p)), ${START} + toIntervalMillisecond(cityHash64(number, 21) % (30 * 86400000)), ${pathOf(zipf('((cityHash64(number, 22) % 1000000) / 1e6)'))},
  cityHash64(p, cityHash64(number, 23) % 9000), if(number % 10 = 0, 'bot', if(number % 7 = 0, 'ai', 'human')),
  if(number % 10 != 0 AND number % 7 = 0, 'GPTBot', ''), if(number % 10 != 0 AND number % 7 = 0, 'training', ''), if(number % 10 != 0 AND number % 7 = 0, 'OpenAI', ''), 'unknown',
  'Chrome', 'Windows', 'desktop', 'google.com', ''
FROM (SELECT number, {first:UInt32} + intDiv(number, 80000) AS p FROM numbers({count:UInt64}))`,
        query_params: { first: t, count: 80_000 * Math.min(25, TENANTS - t) },
      });
      const names = Array.from({ length: Math.min(25, TENANTS - t) }, (_, i) => `prj_tenant${t + i}`);
      await ch.command({ query: `INSERT INTO naive_hits SELECT ${COLUMNS} FROM hits WHERE project_id IN {names:Array(String)}`, query_params: { names } });
    }
    meta.tenants = TENANTS;
    writeFileSync(metaFile, JSON.stringify(meta));
    log(`\nP8: ${TENANTS} more projects (${(TENANTS * 0.08).toFixed(0)} M hits) generated in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
  }
  await settle(ch);
  const [crowded] = await measure(ROUNDS * 2, pair);
  log(`P8 visitors month p50: alone ${alone.api.toFixed(0)} ms, with ${TENANTS} other projects ${crowded.api.toFixed(0)} ms → ${(crowded.api / alone.api).toFixed(2)} × ` +
    `(naive SQL control: ${alone.naive.toFixed(0)} → ${crowded.naive.toFixed(0)} ms)\n`);
  return { alone: alone.api, naiveAlone: alone.naive, crowded: crowded.api, naiveCrowded: crowded.naive };
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);

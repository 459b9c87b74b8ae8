// npm run bench:dashboard (run it under `flock /tmp/docent-bench.lock`) — how long the dashboard's
// Overview takes to become interactive on a 10 M-hit month, measured in a real browser (Debian's
// Chromium via playwright-core) against the whole app on the embedded engines. Prints figures.
//
// "Ready" = the cards, the chart and the top pages show the month's numbers (User Timing mark
// docent:overview-ready, set by the page itself); "complete" = every panel has answered
// (docent:overview-complete). Both are measured from navigation start, so they include the HTML,
// the JS, and every API call the page makes.
// Env: BENCH_ROUNDS (default 5), BENCH_HITS_MILLIONS (default 10), BENCH_LOG_LEVEL (the service's
// logs, e.g. warn to see why an API call failed; silent by default).
import type { ClickHouseClient } from '@clickhouse/client';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { createApp } from '../src/app';
import { CLICKHOUSE } from '../src/clickhouse/clickhouse.module';
import { loadConfig } from '../src/config/config';
import { COLUMNS, pathOf, START, zipf } from './month';
import { percentile } from './percentile';
import { settle } from './settle';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const MILLIONS = Number(process.env.BENCH_HITS_MILLIONS ?? 10);
const ADMIN_TOKEN = 'bench-operator-token-0123456789';
const CHUNK = 250_000;
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

// The month of bench/visitors.ts (same sessions, visitors, Zipf paths; 10 % bot hits), with the
// dimensions the overview breaks down filled in: AI operators, IP verification, assistant referrers
// and utm_source, markdown and llms.txt fetches by agents.
const PEOPLE = `
INSERT INTO hits (${COLUMNS})
SELECT {projectId:String}, ${START} + toIntervalMillisecond(day * 86400000 + (cityHash64(s, 7) % 86000) * 1000 + j * 45000 + cityHash64(i, 9) % 1000),
  if(v >= 850000 AND j = 3, ['/llms.txt', concat(${pathOf(zipf('((cityHash64(i, 8) % 1000000) / 1e6)'))}, '.md')][v % 2 + 1], ${pathOf(zipf('((cityHash64(i, 8) % 1000000) / 1e6)'))}),
  cityHash64({projectId:String}, v), if(v < 850000, 'human', 'ai'),
  if(v < 850000, '', ['GPTBot','ClaudeBot','PerplexityBot','ChatGPT-User','OAI-SearchBot','Claude-User'][v % 6 + 1]),
  if(v < 850000, '', ['training','training','search','assistant','search','assistant'][v % 6 + 1]),
  if(v < 850000, '', ['OpenAI','Anthropic','Perplexity','OpenAI','OpenAI','Anthropic'][v % 6 + 1]),
  if(v < 850000, 'unknown', ['verified','verified','unverified','unknown'][cityHash64(s, 11) % 4 + 1]),
  ['Chrome','Firefox','Safari','Edge'][v % 4 + 1], ['Windows','macOS','Linux','iOS','Android'][v % 5 + 1], ['desktop','mobile'][v % 2 + 1],
  if(v < 850000, ['','google.com','github.com','chatgpt.com','perplexity.ai','news.ycombinator.com'][v % 6 + 1], ''),
  if(v < 850000 AND v % 6 = 3, 'chatgpt.com', '')
FROM (
  SELECT number AS i, intDiv(i, 4) AS s, i % 4 AS j,
    toUInt64(multiIf(s < 850000, s, s < 1105000, intDiv(toUInt64(s - 850000) * 10, 3), 850000 + cityHash64(s, 3) % 150000)) AS v,
    toUInt64(multiIf(s < 850000, cityHash64(v, 1) % 30, s < 1105000, (cityHash64(v, 1) % 30 + 1 + cityHash64(v, 2) % 29) % 30, cityHash64(s, 4) % 30)) AS day
  FROM numbers({first:UInt64}, {count:UInt64})
)`;
const BOTS = `
INSERT INTO hits (${COLUMNS})
SELECT {projectId:String}, ${START} + toIntervalMillisecond(cityHash64(number, 6) % (30 * 86400000)), ${pathOf(zipf('((cityHash64(number, 8) % 1000000) / 1e6)'))},
  cityHash64({projectId:String}, 2000000 + cityHash64(number, 5) % 20000), 'bot', '', '', '', 'unknown', 'HeadlessChrome', 'Linux', 'desktop', '', ''
FROM numbers({first:UInt64}, {count:UInt64})`;

const fmt = (ms: number) => `${Math.round(ms)} ms`.padStart(8);

interface Sample {
  ready: number;
  complete: number;
  /** ready minus the end of the last response it waited for: what the page itself costs. */
  client: number;
  api: Record<string, number>;
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'docent-bench-dashboard-'));
  const config = loadConfig({ DATA_DIR: dataDir, ADMIN_TOKEN, LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent', WORKER: 'off' });
  const app = await createApp(config, { logger: process.env.BENCH_LOG_LEVEL !== undefined });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
  const ch = app.get<ClickHouseClient>(CLICKHOUSE);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const created = await fetch(`${url}/v1/projects`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: '{"name":"bench"}' });
    const { project, apiKey } = (await created.json()) as { project: { id: string; name: string }; apiKey: string };

    const t0 = performance.now();
    const people = Math.round(MILLIONS * 900_000);
    // 250,000 rows per INSERT: the embedded engine runs under its 512 MiB cap, materialized views included.
    for (let first = 0; first < people; first += CHUNK) {
      await ch.command({ query: PEOPLE, query_params: { projectId: project.id, first, count: Math.min(CHUNK, people - first) } });
    }
    const bots = Math.round(MILLIONS * 100_000);
    for (let first = 0; first < bots; first += CHUNK) {
      await ch.command({ query: BOTS, query_params: { projectId: project.id, first, count: Math.min(CHUNK, bots - first) } });
    }
    const [{ hits }] = await (await ch.query({ query: 'SELECT count() AS hits FROM hits WHERE project_id = {p:String}', query_params: { p: project.id }, format: 'JSONEachRow' })).json<{ hits: string }>();
    console.log(`generated ${Number(hits).toLocaleString('en-US')} hits (March 2026) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const tables = await settle(ch);
    console.log(`merges settled: ${tables.map((t) => `${t.table} ${t.parts}`).join(', ')} parts`);

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    // Signed in as the page itself would be: the key in sessionStorage, never in the URL.
    await context.addInitScript(`sessionStorage.setItem('docent.session', ${JSON.stringify(JSON.stringify({ kind: 'key', token: apiKey, project }))})`);

    async function load(query: string): Promise<Sample> {
      const page = await context.newPage();
      const failures: string[] = [];
      page.on('response', (res) => {
        if (res.url().includes('/v1/') && res.status() >= 400) failures.push(`${res.status()} ${new URL(res.url()).pathname.split('/').pop()}?${new URL(res.url()).searchParams.get('by') ?? ''}`);
      });
      await page.goto(`${url}/dashboard/${project.id}?${query}`);
      await page.waitForSelector('.overview[data-complete="true"]', { timeout: 120_000 });
      const from = new URLSearchParams(query).get('from');
      const result = (await page.evaluate(`((from) => {
        const mark = (n) => performance.getEntriesByName(n)[0]?.startTime ?? NaN;
        const api = {};
        let primaryEnd = 0;
        for (const r of performance.getEntriesByType('resource')) {
          const u = new URL(r.name);
          if (!u.pathname.startsWith('/v1/')) continue;
          const name = u.pathname.split('/').pop() + (u.searchParams.get('by') ? ':' + u.searchParams.get('by') : '') + (u.searchParams.get('dateFrom') !== from ? ' (prev)' : '');
          api[name] = Math.max(api[name] ?? 0, r.responseEnd - r.startTime);
          if (name === 'visitors' || name === 'timeseries') primaryEnd = Math.max(primaryEnd, r.responseEnd);
        }
        const ready = mark('docent:overview-ready');
        return { ready, complete: mark('docent:overview-complete'), client: ready - primaryEnd, api };
      })(${JSON.stringify(from)})`)) as Sample;
      if (failures.length) console.log(`  ${query}: API errors ${[...new Set(failures)].join(', ')}`);
      await page.close();
      return result;
    }

    const scenarios: Array<[string, string]> = [
      ['month (30 days, by day)', 'range=custom&from=2026-03-01&to=2026-03-30&tz=UTC'],
      ['7 days (by day)', 'range=custom&from=2026-03-10&to=2026-03-16&tz=UTC'],
      ['1 day (by hour)', 'range=custom&from=2026-03-12&to=2026-03-12&tz=UTC'],
      ['month, one page section (pathPrefix)', 'range=custom&from=2026-03-01&to=2026-03-30&tz=UTC&path=%2Fdocs%2Fguides%2F'],
    ];
    const first = await load(scenarios[0][1]); // cold: first query of the engine, empty HTTP cache
    console.log(`\nfirst load after start (cold engine, cold browser cache): ready ${fmt(first.ready)}, complete ${fmt(first.complete)}`);
    for (const [, q] of scenarios) await load(q); // warm-up
    const samples = new Map<string, Sample[]>(scenarios.map(([name]) => [name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, q] of round % 2 ? [...scenarios].reverse() : scenarios) samples.get(name)!.push(await load(q));
    }

    console.log(`\nOverview in Chromium, ${ROUNDS} rounds (alternating order), from navigation start:`);
    console.log(`${'window'.padEnd(38)} ${'ready p50'.padStart(9)} ${'ready max'.padStart(9)} ${'complete p50'.padStart(12)} ${'complete max'.padStart(12)} ${'page p50'.padStart(9)}`);
    for (const [name, xs] of samples) {
      const ready = xs.map((x) => x.ready);
      const complete = xs.map((x) => x.complete);
      console.log(`${name.padEnd(38)} ${fmt(percentile(ready, 50)).padStart(9)} ${fmt(Math.max(...ready)).padStart(9)} ${fmt(percentile(complete, 50)).padStart(12)} ${fmt(Math.max(...complete)).padStart(12)} ${fmt(percentile(xs.map((x) => x.client), 50)).padStart(9)}`);
    }
    console.log('("page" = ready minus the end of the last response the cards, chart and top pages waited for: the dashboard\'s own cost)');
    const month = samples.get(scenarios[0][0])!;
    // The same requests one at a time from Node: what each costs the server without the others beside it.
    const q = 'dateFrom=2026-03-01&dateTo=2026-03-31&timezone=UTC';
    const alone: Record<string, string> = {
      visitors: `visitors?${q}&limit=10`, timeseries: `timeseries?${q}&interval=day`, 'visitors (prev)': 'visitors?dateFrom=2026-01-30&dateTo=2026-03-01&timezone=UTC&limit=1',
      ...Object.fromEntries(['agent', 'operator', 'referrer', 'format', 'browser'].map((by) => [`breakdown:${by}`, `breakdown?by=${by}&${q}&limit=10`])),
    };
    const sequential: Record<string, number[]> = {};
    for (let round = 0; round < 3; round++) {
      for (const [name, path] of Object.entries(alone)) {
        const t = performance.now();
        const res = await fetch(`${url}/v1/analytics/${project.id}/${path}`, { headers: { authorization: `Bearer ${apiKey}` } });
        const body = await res.text();
        if (!res.ok) console.log(`  ${name}: ${res.status} ${body.slice(0, 300)}`);
        (sequential[name] ??= []).push(performance.now() - t);
      }
    }
    console.log('\nAPI calls of the month view, p50: as the browser saw them (concurrent) and one at a time from Node (3 rounds):');
    for (const name of Object.keys(alone)) console.log(`  ${name.padEnd(20)} ${fmt(percentile(month.map((m) => m.api[name] ?? NaN), 50))} ${fmt(percentile(sequential[name], 50))}`);
  } finally {
    await browser.close();
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

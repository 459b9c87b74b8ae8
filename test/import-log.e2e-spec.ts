import { ClickHouseClient } from '@clickhouse/client';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { CLICKHOUSE } from '../src/clickhouse/clickhouse.module';
import { ImportSummary, run } from '../src/cli/import-log';
import { startTestApp, TestApp } from './support/test-app';

// A real-format nginx combined log (351 lines): browsers, AI crawlers and assistants, search
// bots, tools, assets, redirects, 404s, HEAD/POST, a TLS probe and a few broken lines.
const FIXTURE = join(__dirname, 'fixtures', 'access.log.1');
const EXPECTED = {
  linesRead: 351,
  byClass: { human: 108, ai: 54, bot: 29 },
  rejected: { unparseable: 3, invalid: 2, method: 10, status: 14, asset: 131, api: 0 },
};
const PAGE_VIEWS = 108 + 54 + 29;

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

async function cli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string; summary?: ImportSummary }> {
  const stdout = new Capture();
  const stderr = new Capture();
  const code = await run(argv, { stdout, stderr });
  let summary: ImportSummary | undefined;
  if (argv.includes('--json') && stdout.text) summary = JSON.parse(stdout.text) as ImportSummary;
  return { code, stdout: stdout.text, stderr: stderr.text, summary };
}

describe('import-log CLI against the ingest API', () => {
  let t: TestApp;
  let clickhouse: ClickHouseClient;
  let dir: string;

  beforeAll(async () => {
    t = await startTestApp();
    clickhouse = t.app.get<ClickHouseClient>(CLICKHOUSE);
    dir = mkdtempSync(join(tmpdir(), 'docent-import-'));
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function countsByClass(projectId: string): Promise<Record<string, number>> {
    const result = await clickhouse.query({
      query: 'SELECT class, count() AS n FROM hits WHERE project_id = {projectId:String} GROUP BY class',
      query_params: { projectId },
      format: 'JSONEachRow',
    });
    const rows = await result.json<{ class: string; n: number | string }>();
    return Object.fromEntries(rows.map((r) => [r.class, Number(r.n)]));
  }

  const args = (p: { projectId: string; apiKey: string }, ...rest: string[]) => ['--url', t.url, '--key', p.apiKey, '--project', p.projectId, ...rest];

  it('imports the page views of a real-format log with the right classes; a second run adds nothing', async () => {
    const project = await t.createProject({ name: 'import-log' });

    const first = await cli(args(project, '--json', FIXTURE));
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.summary).toMatchObject({ ...EXPECTED, hitsSent: PAGE_VIEWS, hitsAccepted: PAGE_VIEWS, batches: 1 });
    expect(Object.values(first.summary!.aiAgents).reduce((a, b) => a + b, 0)).toBe(54);
    expect(Object.keys(first.summary!.aiAgents)).toEqual(expect.arrayContaining(['GPTBot', 'ClaudeBot', 'PerplexityBot', 'ChatGPT-User']));
    expect(await countsByClass(project.projectId)).toEqual(EXPECTED.byClass);

    // Stored as logged: the instant with its offset applied, paths without query strings, no assets.
    const stored = await clickhouse.query({
      query: `SELECT toString(min(timestamp)) AS first, countIf(path LIKE '%?%') AS with_query,
                countIf(match(path, '\\\\.(css|js|map|ico|svg|png|woff2|xml)$') OR path = '/robots.txt') AS assets
              FROM hits WHERE project_id = {projectId:String}`,
      query_params: { projectId: project.projectId },
      format: 'JSONEachRow',
    });
    const [check] = await stored.json<{ first: string; with_query: number | string; assets: number | string }>();
    expect([check.first, Number(check.with_query), Number(check.assets)]).toEqual(['2025-10-10 04:01:28.000', 0, 0]);

    // Same file again (a re-run after a crash): the same Idempotency-Keys, nothing stored twice.
    const second = await cli(args(project, '--json', FIXTURE));
    expect(second.code).toBe(0);
    expect(second.summary).toMatchObject({ linesRead: EXPECTED.linesRead, hitsSent: PAGE_VIEWS });
    expect(await countsByClass(project.projectId)).toEqual(EXPECTED.byClass);
  });

  it('reads gzip logs, splits them into --batch sized requests and prints a readable summary', async () => {
    const project = await t.createProject({ name: 'import-log-gz' });
    const gz = join(dir, 'access.log.2.gz');
    writeFileSync(gz, gzipSync(readFileSync(FIXTURE)));

    const res = await cli(args(project, '--batch', '50', gz));
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/lines read\s+351\n/);
    expect(res.stdout).toMatch(/hits sent\s+191\s+in 4 batches\n/);
    expect(res.stdout).toMatch(/hits accepted\s+191\n/);
    expect(res.stdout).toMatch(/\n {4}human\s+108\n {4}ai\s+54\s+\S.*GPTBot.*\n {4}bot\s+29\n/);
    expect(res.stdout).toMatch(/lines rejected\s+160\n/);
    expect(res.stdout).toMatch(/static asset or robots\/sitemap\s+131\n/);
    expect(await countsByClass(project.projectId)).toEqual(EXPECTED.byClass);
  });

  it('drops a hit the API refuses, stores the rest of its batch, and exits 1', async () => {
    const project = await t.createProject({ name: 'import-log-refused' });
    const log = join(dir, 'refused.log');
    const chrome = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/129.0.0.0 Safari/537.36';
    const future = new Date(Date.now() + 3600_000);
    const stamp = (d: Date) => `${String(d.getUTCDate()).padStart(2, '0')}/${d.toUTCString().slice(8, 11)}/${d.getUTCFullYear()}:${d.toISOString().slice(11, 19)} +0000`;
    writeFileSync(
      log,
      [
        `203.0.113.1 - - [10/Oct/2025:10:00:00 +0000] "GET /docs/a HTTP/1.1" 200 100 "-" "${chrome}"`,
        `203.0.113.2 - - [${stamp(future)}] "GET /docs/from-the-future HTTP/1.1" 200 100 "-" "${chrome}"`,
        `203.0.113.3 - - [10/Oct/2025:10:00:02 +0000] "GET /docs/b HTTP/1.1" 200 100 "-" "curl/8.5.0"`,
      ].join('\n'),
    );
    const res = await cli(args(project, '--json', log));
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('hits[1].timestamp');
    expect(res.summary).toMatchObject({ hitsSent: 3, hitsAccepted: 2, byClass: { human: 1, ai: 0, bot: 1 }, rejected: { api: 1 } });
    expect(await countsByClass(project.projectId)).toEqual({ human: 1, bot: 1 });
  });

  it('stops at once on a wrong key, storing nothing', async () => {
    const project = await t.createProject({ name: 'import-log-bad-key' });
    const other = await t.createProject({ name: 'import-log-other' });
    const res = await cli(args({ projectId: project.projectId, apiKey: other.apiKey }, '--json', FIXTURE));
    expect(res.code).toBe(1);
    expect(res.summary?.error).toMatch(/^403 /);
    expect(res.summary?.hitsAccepted).toBe(0);
    expect(await countsByClass(project.projectId)).toEqual({});
  });

  it('retries a 503 after its Retry-After and counts the batch once', async () => {
    const project = await t.createProject({ name: 'import-log-retry' });
    // A proxy in front of the service that answers the first request 503, as an overloaded service would.
    let requests = 0;
    const upstream = new URL(t.url);
    const proxy: Server = createServer((req, res) => {
      requests++;
      if (requests === 1) {
        req.resume();
        res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' }).end('{"error":"Busy."}');
        return;
      }
      const forward = httpRequest({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      req.pipe(forward);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    try {
      const started = Date.now();
      const res = await cli(['--url', proxyUrl, '--key', project.apiKey, '--project', project.projectId, '--json', FIXTURE]);
      expect(res.code).toBe(0);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
      expect(res.stderr).toMatch(/503 Busy\.; retrying in 1\.0 s/);
      expect(requests).toBe(2);
      expect(res.summary?.hitsAccepted).toBe(PAGE_VIEWS);
      expect(await countsByClass(project.projectId)).toEqual(EXPECTED.byClass);
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
  });

  it('answers usage errors with exit code 2', async () => {
    const missingKey = await cli(['--url', t.url, '--project', 'prj_x', FIXTURE]);
    expect(missingKey.code).toBe(2);
    expect(missingKey.stderr).toContain('--key is required');
    expect((await cli(['--url', t.url, '--key', 'k', '--project', 'p', '--batch', '1001', FIXTURE])).code).toBe(2);
    expect((await cli(['--url', t.url, '--key', 'k', '--project', 'p', '--format', 'w3c', FIXTURE])).code).toBe(2);
    expect((await cli(['--url', t.url, '--key', 'k', '--project', 'p'])).code).toBe(2);
  });
});

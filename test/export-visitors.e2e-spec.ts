import type { ClickHouseClient } from '@clickhouse/client';
import { createServer, Server } from 'node:http';
import { Writable } from 'node:stream';
import { CLICKHOUSE } from '../src/clickhouse/clickhouse.module';
import { csvField, run } from '../src/cli/export-visitors';
import { startTestApp, TestApp } from './support/test-app';
import { FixtureHit, insertHits, seededRandom } from './visitors.fixtures';

function sink() {
  let text = '';
  const stream = new Writable({
    write(chunk, _enc, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, text: () => text };
}

async function exportVisitors(args: string[]) {
  const out = sink();
  const err = sink();
  const code = await run(['visitors', ...args], { stdout: out.stream, stderr: err.stream }, { attempts: 4, baseDelayMs: 10, maxDelayMs: 50 });
  return { code, stdout: out.text(), stderr: err.text() };
}

/** Splits RFC 4180 CSV (quoted fields may hold commas, quotes and newlines). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') row.push(field), (field = '');
    else if (c === '\n') row.push(field), rows.push(row), (row = []), (field = '');
    else field += c;
  }
  return rows;
}

describe('npm run cli -- export visitors', () => {
  let t: TestApp;
  let p: { projectId: string; apiKey: string };
  const range = { dateFrom: '2026-03-01', dateTo: '2026-03-20T12:00:00+02:00' };
  let expected: { totals: unknown; visitors: Array<{ path: string; human: number; ai: number; total: number }> };

  beforeAll(async () => {
    t = await startTestApp();
    p = await t.createProject();
    const random = seededRandom(7);
    const hits: FixtureHit[] = [];
    for (let i = 0; i < 3000; i++) {
      const n = Math.floor(random() * 240);
      // Paths a CSV writer must quote.
      const path = n % 50 === 0 ? `/odd/"quoted",comma ${n}` : n % 77 === 0 ? `/odd/new\nline ${n}` : `/docs/${n}`;
      hits.push({ at: Date.parse('2026-02-25T00:00:00Z') + Math.floor(random() * 30 * 86_400_000), path, visitor: BigInt(1 + Math.floor(random() * 400)), class: random() < 0.3 ? 'ai' : random() < 0.1 ? 'bot' : 'human' });
    }
    await insertHits(t.app.get<ClickHouseClient>(CLICKHOUSE), p.projectId, hits);
    // The API's own rows, in one request.
    const res = await t.request('GET', `/v1/analytics/${p.projectId}/visitors?${new URLSearchParams({ ...range, limit: '250' })}`, { token: p.apiKey });
    expect(res.body.hasMore).toBe(false);
    expected = { totals: res.body.totals, visitors: res.body.visitors };
    expect(expected.visitors.length).toBeGreaterThan(200);
  });
  afterAll(async () => {
    await t.close();
  });

  const base = () => ['--url', t.url, '--key', p.apiKey, '--project', p.projectId, '--from', range.dateFrom, '--to', range.dateTo];

  it('writes every page as JSON, reproducing the API rows', async () => {
    const out = await exportVisitors([...base(), '--format', 'json', '--limit', '17']);
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual(expected);
  });

  it('writes every page as CSV with proper quoting', async () => {
    const out = await exportVisitors([...base(), '--limit', '40']);
    expect(out.code).toBe(0);
    const rows = parseCsv(out.stdout);
    expect(rows[0]).toEqual(['path', 'human', 'ai', 'total']);
    expect(rows.slice(1)).toEqual(expected.visitors.map((v) => [v.path, String(v.human), String(v.ai), String(v.total)]));
    expect(out.stdout).toContain('"/odd/""quoted"",comma 0"');
  });

  it('retries 503 and 429 honouring Retry-After, then carries on', async () => {
    let calls = 0;
    const flaky: Server = createServer(async (req, res) => {
      calls++;
      if (calls === 2 || calls === 3) {
        res.writeHead(calls === 2 ? 503 : 429, { 'retry-after': '0', 'content-type': 'application/json' }).end('{"error":"busy"}');
        return;
      }
      const upstream = await fetch(t.url + req.url, { headers: { authorization: String(req.headers.authorization) } });
      res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(await upstream.text());
    });
    await new Promise<void>((resolve) => flaky.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(flaky.address() as { port: number }).port}`;
      const out = await exportVisitors(['--url', url, '--key', p.apiKey, '--project', p.projectId, '--from', range.dateFrom, '--to', range.dateTo, '--format', 'json', '--limit', '100']);
      expect(out.code).toBe(0);
      expect(JSON.parse(out.stdout)).toEqual(expected);
      expect(out.stderr).toMatch(/503 busy; retrying/);
      expect(out.stderr).toMatch(/429 busy; retrying/);
    } finally {
      await new Promise((resolve) => flaky.close(resolve));
    }
  });

  it('exits non-zero with the API error on 4xx, and 2 on a bad command line', async () => {
    const bad = await exportVisitors(['--url', t.url, '--key', p.apiKey, '--project', p.projectId, '--from', '2026-13-01']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/400 .*dateFrom/);
    const other = await t.createProject();
    const forbidden = await exportVisitors(['--url', t.url, '--key', other.apiKey, '--project', p.projectId]);
    expect(forbidden.code).toBe(1);
    expect(forbidden.stderr).toMatch(/403/);
    expect((await exportVisitors(['--url', t.url, '--project', p.projectId])).code).toBe(2);
    expect((await exportVisitors(['--url', t.url, '--key', 'k', '--project', 'p', '--format', 'xml'])).code).toBe(2);
  });

  it('quotes CSV fields only when needed', () => {
    expect(csvField('/docs/a')).toBe('/docs/a');
    expect(csvField('/a,b')).toBe('"/a,b"');
    expect(csvField('/a"b')).toBe('"/a""b"');
    expect(csvField('/a\nb')).toBe('"/a\nb"');
  });
});

import type { ClickHouseClient } from '@clickhouse/client';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { run as updateAgentRanges } from '../src/cli/update-agent-ranges';
import { CLICKHOUSE } from '../src/clickhouse/clickhouse.module';
import { startTestApp, TestApp } from './support/test-app';
import { until } from './support/until';

const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';
const CHROME = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const OPENAI_RANGE_IP = '20.125.66.85'; // in openai-gptbot.json (its PROVENANCE test address)
const ELSEWHERE = '1.1.1.1';

/** Verified agents (classification.md §2–3) over HTTP, on the real embedded engines. */
describe('verified agents and Signature-Agent', () => {
  let t: TestApp;
  let clickhouse: ClickHouseClient;
  let dataDir: string;
  let project: { projectId: string; apiKey: string };

  beforeAll(async () => {
    // A corrupt refreshed list is already there when the service starts.
    dataDir = mkdtempSync(join(tmpdir(), 'docent-verified-'));
    mkdirSync(join(dataDir, 'agent-ranges'));
    writeFileSync(join(dataDir, 'agent-ranges', 'openai-gptbot.json'), '{"creationTime": "2026-11-30", "prefixes": [{"ipv4Prefix": "20.125.66.80/2');
    t = await startTestApp({ DATA_DIR: dataDir, AGENT_RANGES_CHECK_MS: '200' });
    clickhouse = t.app.get(CLICKHOUSE);
    project = await t.createProject({ name: 'verified-agents' });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const ingest = (hits: unknown[]) => t.request('POST', `/v1/ingest/${project.projectId}/hits`, { token: project.apiKey, body: { hits } });
  const stored = async (pathPrefix: string) => {
    const rs = await clickhouse.query({
      query: `SELECT path, class, ai_agent, ai_category, ai_operator, verification FROM hits
              WHERE project_id = {projectId:String} AND startsWith(path, {prefix:String}) ORDER BY path`,
      query_params: { projectId: project.projectId, prefix: pathPrefix },
      format: 'JSONEachRow',
    });
    return rs.json<{ path: string; class: string; ai_agent: string; ai_category: string; ai_operator: string; verification: string }>();
  };

  it('starts despite a corrupt ranges file, on the shipped list, and /health says why and how old each list is', async () => {
    const res = await t.request('GET', '/health');
    expect(res.status).toBe(200);
    const gptbot = res.body.agentRanges.find((l: { id: string }) => l.id === 'openai-gptbot');
    expect(gptbot).toMatchObject({ operator: 'OpenAI', agents: ['GPTBot'], source: 'shipped', prefixes: 21, problem: expect.stringContaining('not a valid range list') });
    expect(res.body.agentRanges).toHaveLength(16);
    for (const list of res.body.agentRanges) expect(list.ageSeconds).toEqual(expect.any(Number));
  });

  it('GPTBot from an OpenAI range, from elsewhere and without an IP: verified, unverified, unknown', async () => {
    const res = await ingest([
      { path: '/v/1', userAgent: GPTBOT, ip: OPENAI_RANGE_IP },
      { path: '/v/2', userAgent: GPTBOT, ip: ELSEWHERE },
      { path: '/v/3', userAgent: GPTBOT },
      { path: '/v/4', userAgent: CHROME, ip: OPENAI_RANGE_IP },
    ]);
    expect(res.status).toBe(202);
    expect(await stored('/v/')).toEqual([
      { path: '/v/1', class: 'ai', ai_agent: 'GPTBot', ai_category: 'training', ai_operator: 'OpenAI', verification: 'verified' },
      { path: '/v/2', class: 'ai', ai_agent: 'GPTBot', ai_category: 'training', ai_operator: 'OpenAI', verification: 'unverified' },
      { path: '/v/3', class: 'ai', ai_agent: 'GPTBot', ai_category: 'training', ai_operator: 'OpenAI', verification: 'unknown' },
      { path: '/v/4', class: 'human', ai_agent: '', ai_category: '', ai_operator: '', verification: 'unknown' },
    ]);

    const breakdown = await t.request('GET', `/v1/analytics/${project.projectId}/breakdown?by=agent`, { token: project.apiKey });
    expect(breakdown.status).toBe(200);
    expect(breakdown.body.rows.find((r: { value: string }) => r.value === 'GPTBot')).toMatchObject({
      operator: 'OpenAI',
      category: 'training',
      hits: 3,
      verification: { verified: 1, unverified: 1, unknown: 1 },
    });
  });

  it('a Chrome UA with Signature-Agent "https://chatgpt.com" is OpenAI\'s agent, on the hits API and on the beacon', async () => {
    expect((await ingest([{ path: '/s/api', userAgent: CHROME, signatureAgent: '"https://chatgpt.com"' }])).status).toBe(202);
    const beacon = await t.request('POST', `/v1/collect/${project.projectId}`, {
      body: { path: '/s/beacon' },
      headers: { 'user-agent': CHROME, 'signature-agent': '"https://chatgpt.com"' },
    });
    expect(beacon.status).toBe(202);
    const plain = await t.request('POST', `/v1/collect/${project.projectId}`, { body: { path: '/s/plain' }, headers: { 'user-agent': CHROME, 'signature-agent': 'garbage' } });
    expect(plain.status).toBe(202);
    expect(await stored('/s/')).toEqual([
      { path: '/s/api', class: 'ai', ai_agent: 'ChatGPT Agent', ai_category: 'agent', ai_operator: 'OpenAI', verification: 'unknown' },
      { path: '/s/beacon', class: 'ai', ai_agent: 'ChatGPT Agent', ai_category: 'agent', ai_operator: 'OpenAI', verification: 'unknown' },
      { path: '/s/plain', class: 'human', ai_agent: '', ai_category: '', ai_operator: '', verification: 'unknown' },
    ]);
  });

  it.each([
    ['ip', { ip: '20.125.66.300' }, 'hits[0].ip'],
    ['ip', { ip: 'localhost' }, 'hits[0].ip'],
    ['signatureAgent', { signatureAgent: 'chatgpt' }, 'hits[0].signatureAgent'],
    ['signatureAgent', { signatureAgent: `"https://${'a'.repeat(250)}.com"` }, 'hits[0].signatureAgent'],
    ['signatureAgent', { signatureAgent: 42 }, 'hits[0].signatureAgent'],
  ])('a malformed %s → 400 naming the field', async (_field, extra, field) => {
    const res = await ingest([{ path: '/bad', userAgent: GPTBOT, ...extra }]);
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([expect.objectContaining({ field })]);
  });

  it('update-agent-ranges into DATA_DIR: the running service uses the new list without a restart', async () => {
    const server: Server = createServer((req, res) => {
      if (req.url === '/openai-gptbot.json') res.end('{"creationTime":"2026-11-30T10:00:00.000000","prefixes":[{"ipv4Prefix":"1.1.1.0/24"}]}');
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const out = new PassThrough();
      const code = await updateAgentRanges(['--from', `http://127.0.0.1:${(server.address() as AddressInfo).port}`, '--only', 'openai-gptbot'], { stdout: out, stderr: out }, { DATA_DIR: dataDir });
      expect(code).toBe(0);
    } finally {
      server.close();
    }
    await until('the refreshed GPTBot list', async () => {
      const res = await t.request('GET', '/health');
      return res.body.agentRanges.find((l: { id: string }) => l.id === 'openai-gptbot').source === 'refreshed';
    });
    expect((await ingest([{ path: '/r/1', userAgent: GPTBOT, ip: ELSEWHERE }, { path: '/r/2', userAgent: GPTBOT, ip: OPENAI_RANGE_IP }])).status).toBe(202);
    expect((await stored('/r/')).map((h) => h.verification)).toEqual(['verified', 'unverified']);
    const health = await t.request('GET', '/health');
    expect(health.body.agentRanges.find((l: { id: string }) => l.id === 'openai-gptbot')).toMatchObject({
      source: 'refreshed',
      publishedAt: '2026-11-30T10:00:00.000000',
      prefixes: 1,
      ageSeconds: expect.any(Number),
    });
    expect(health.body.agentRanges.find((l: { id: string }) => l.id === 'openai-gptbot')).not.toHaveProperty('problem');
  });
});

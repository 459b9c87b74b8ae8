import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ADMIN_TOKEN, startTestApp, TestApp } from './support/test-app';
import { until } from './support/until';

const METRICS_TOKEN = 'metrics-scrape-token-0123456789';
const UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** One sample's value from the text format, or undefined when the series is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics', () => {
  let t: TestApp;
  let projectId: string;
  let apiKey: string;
  const scrape = async () => {
    const res = await t.request('GET', '/metrics', { token: METRICS_TOKEN });
    expect(res.status).toBe(200);
    return res.text;
  };

  beforeAll(async () => {
    // The worker runs with no model configured: a claimed job fails at once, after one turn.
    t = await startTestApp({ METRICS_TOKEN, WORKER: 'on' });
    ({ projectId, apiKey } = await t.createProject({ name: 'metrics', repository: 'https://github.com/acme/docs' }));
  });
  afterAll(() => t.close());

  describe('auth', () => {
    it('401 without a token and with an unknown one, in the one error shape', async () => {
      for (const token of [undefined, 'not-a-token-we-know-0123456789']) {
        const res = await t.request('GET', '/metrics', { token });
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ error: expect.any(String) });
        expect(res.text).not.toContain('docent_');
      }
    });

    it('403 with a valid project key: process-wide figures are the operator\'s', async () => {
      const res = await t.request('GET', '/metrics', { token: apiKey });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: expect.stringMatching(/METRICS_TOKEN/) });
    });

    it('200 with the operator token and with METRICS_TOKEN, in the Prometheus text format', async () => {
      for (const token of [ADMIN_TOKEN, METRICS_TOKEN]) {
        const res = await t.request('GET', '/metrics', { token });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
        expect(res.text).toMatch(/^# HELP /m);
      }
    });
  });

  it('names every metric the Prometheus way, with process and Node defaults', async () => {
    const text = await scrape();
    const names = new Set([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => m[1]));
    for (const name of [
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_p99_seconds',
      'docent_http_request_duration_seconds',
      'docent_hits_accepted_total',
      'docent_ingest_requests_rejected_total',
      'docent_group_commit_flush_rows',
      'docent_group_commit_flush_duration_seconds',
      'docent_group_commit_buffer_rows',
      'docent_clickhouse_memory_tracked_bytes',
      'docent_clickhouse_query_duration_seconds',
      'docent_agent_jobs',
      'docent_agent_job_claim_latency_seconds',
      'docent_agent_turns_total',
      'docent_agent_turn_duration_seconds',
      'docent_webhook_deliveries_total',
    ]) {
      expect(names).toContain(name);
    }
    for (const name of names) expect(name).toMatch(/^(docent|process|nodejs)_[a-z0-9_]+$/);
    expect(sample(text, 'docent_group_commit_buffer_rows')).toBe(0);
  });

  it('the sample Grafana dashboard queries only metrics that exist', async () => {
    const text = await scrape();
    const dashboard = readFileSync(join(__dirname, '..', 'deploy', 'grafana', 'docent.json'), 'utf8');
    const used = new Set([...dashboard.matchAll(/\b((?:docent|process|nodejs)_[a-z0-9_]+)/g)].map((m) => m[1]));
    expect(used.size).toBeGreaterThan(10);
    const declared = new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]));
    for (const name of used) expect(declared).toContain(name.replace(/_(bucket|count|sum)$/, ''));
  });

  it('a beacon hit moves the accepted counter, the flush histogram and the route histogram', async () => {
    const before = await scrape();
    const res = await t.request('POST', `/v1/collect/${projectId}`, { body: { path: '/docs/metrics' }, headers: { 'user-agent': UA } });
    expect(res.status).toBe(202);
    const after = await scrape();
    const delta = (series: string) => (sample(after, series) ?? 0) - (sample(before, series) ?? 0);
    expect(delta('docent_hits_accepted_total{source="beacon"}')).toBe(1);
    expect(delta('docent_group_commit_flush_rows_count')).toBeGreaterThanOrEqual(1);
    expect(delta('docent_group_commit_flush_duration_seconds_count{outcome="ok"}')).toBeGreaterThanOrEqual(1);
    expect(delta('docent_http_request_duration_seconds_count{method="POST",route="/v1/collect/:projectId",status="202"}')).toBe(1);
  });

  it('batched ingest counts its hits; refusals count by reason, never by project or path', async () => {
    const before = await scrape();
    const hits = [0, 1, 2].map((i) => ({ path: `/docs/batch-${i}`, userAgent: UA, ip: '10.0.0.1' }));
    expect((await t.request('POST', `/v1/ingest/${projectId}/hits`, { token: apiKey, body: { hits } })).status).toBe(202);
    expect((await t.request('POST', `/v1/collect/${projectId}`, { body: { path: 'no-slash' } })).status).toBe(400);
    expect((await t.request('POST', '/v1/collect/prj_doesNotExist0000000', { body: { path: '/x' } })).status).toBe(404);
    expect((await t.request('POST', `/v1/collect/${projectId}`, { body: 'x'.repeat(70_000), headers: { 'content-type': 'text/plain' } })).status).toBe(413);
    expect((await t.request('GET', '/no/such/route/scan-probe-42')).status).toBe(404);
    const after = await scrape();
    const delta = (series: string) => (sample(after, series) ?? 0) - (sample(before, series) ?? 0);
    expect(delta('docent_hits_accepted_total{source="ingest"}')).toBe(3);
    expect(delta('docent_ingest_requests_rejected_total{source="beacon",reason="invalid"}')).toBe(1);
    expect(delta('docent_ingest_requests_rejected_total{source="beacon",reason="unknown_project"}')).toBe(1);
    expect(delta('docent_ingest_requests_rejected_total{source="beacon",reason="too_large"}')).toBe(1);
    // Bounded cardinality: no label carries a project id, a key, an IP or a raw path.
    for (const secret of [projectId, apiKey, 'prj_doesNotExist', '/docs/batch', '10.0.0.1', '/docs/metrics', 'scan-probe-42']) expect(after).not.toContain(secret);
    expect(after).toContain('route="unmatched"');
  });

  it('a visitors report is timed by report name', async () => {
    const before = await scrape();
    expect((await t.request('GET', `/v1/analytics/${projectId}/visitors`, { token: apiKey })).status).toBe(200);
    const after = await scrape();
    const count = (text: string) => sample(text, 'docent_clickhouse_query_duration_seconds_count{report="visitors_totals",outcome="ok"}') ?? 0;
    expect(count(after) - count(before)).toBe(1);
  });

  it('a job moves the jobs gauge, the claim latency and the turn counter', async () => {
    const before = await scrape();
    const created = await t.request('POST', `/v2/agent/${projectId}/job`, { token: apiKey, body: { prompt: 'anything' } });
    expect(created.status).toBe(201);
    await until('the job to fail (no model configured)', async () => {
      const body = (await t.request('GET', `/v2/agent/${projectId}/job/${created.body.id}`, { token: apiKey })).body;
      return body.status === 'failed';
    });
    const after = await scrape();
    const delta = (series: string) => (sample(after, series) ?? 0) - (sample(before, series) ?? 0);
    expect(delta('docent_agent_jobs{status="failed"}')).toBe(1);
    expect(sample(after, 'docent_agent_jobs{status="active"}')).toBe(0);
    expect(delta('docent_agent_job_claim_latency_seconds_count')).toBe(1);
    expect(delta('docent_agent_turns_total{outcome="failed"}')).toBe(1);
  });
});

import type { ClickHouseClient } from '@clickhouse/client';
import { CLICKHOUSE } from '../src/clickhouse/clickhouse.module';
import { Clock } from '../src/common/clock';
import { ReportScheduler } from '../src/reports/report-scheduler';
import { WebhookDispatcher } from '../src/webhooks/webhook-dispatcher';
import { startTestApp, TestApp } from './support/test-app';
import { until } from './support/until';
import { FixtureHit, insertHits } from './visitors.fixtures';
import { startWebhookReceiver, WebhookReceiver } from './support/webhook-receiver';

describe('Scheduled reports', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let projectId: string;
  let apiKey: string;
  let now = Date.parse('2030-01-06T12:00:30Z');

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' });
    t.app.get(Clock).now = () => new Date(now);
    ({ projectId, apiKey } = await t.createProject());
    const hits: FixtureHit[] = [];
    // 600 paths (more than two pages of 250) in the 7 days before 2030-01-06, plus noise outside the window.
    for (let i = 0; i < 600; i++) {
      const at = Date.parse('2029-12-30T00:00:00Z') + i * 60_000;
      hits.push({ at, path: `/docs/p${i % 300}${i % 7 === 0 ? ',"q"' : ''}`, visitor: BigInt(i % 250), class: i % 3 === 0 ? 'ai' : 'human' });
    }
    hits.push({ at: Date.parse('2030-01-06T01:00:00Z'), path: '/docs/today', visitor: 1n, class: 'human' });
    await insertHits(t.app.get<ClickHouseClient>(CLICKHOUSE), projectId, hits);
    const hook = await t.request('POST', `/v1/projects/${projectId}/webhooks`, { token: apiKey, body: { url: `${receiver.url}/reports`, events: ['report.ready'] } });
    receiver.secrets.set('/reports', hook.body.secret);
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  const create = (body: Record<string, unknown>) => t.request('POST', `/v1/projects/${projectId}/reports`, { token: apiKey, body });
  const fields = (res: { body: { details?: Array<{ field?: string }> } }) => (res.body.details ?? []).map((d) => d.field);

  it.each([
    ['invalid cron', { cron: '61 * * * *' }, 'cron'],
    ['6-field cron', { cron: '0 0 8 * * 1' }, 'cron'],
    ['unknown timezone', { timezone: 'Mars/Olympus' }, 'timezone'],
    ['unknown range', { range: 'lastYear' }, 'range'],
    ['5,000-char name', { name: 'x'.repeat(5000) }, 'name'],
    ['unknown format', { format: 'xml' }, 'format'],
  ])('%s → 400 naming the field', async (_n, patch, field) => {
    const res = await create({ name: 'Weekly', cron: '0 8 * * 1', timezone: 'Europe/Berlin', range: 'previousWeek', format: 'csv', ...patch });
    expect(res.status).toBe(400);
    expect(fields(res)).toContain(field);
  });

  it('CRUD; another project gets 404', async () => {
    const res = await create({ name: 'Weekly', cron: '0 8 * * 1', timezone: 'Europe/Berlin', range: 'previousWeek', format: 'json' });
    expect(res.status).toBe(201);
    expect(res.body.report).toEqual({
      id: expect.stringMatching(/^rep_/), name: 'Weekly', cron: '0 8 * * 1', timezone: 'Europe/Berlin', range: 'previousWeek', format: 'json',
      createdAt: expect.any(String), updatedAt: expect.any(String), nextRunAt: '2030-01-07T07:00:00.000Z',
    });
    const id = res.body.report.id;
    const patched = await t.request('PATCH', `/v1/projects/${projectId}/reports/${id}`, { token: apiKey, body: { cron: '30 9 * * *', timezone: 'UTC' } });
    expect(patched.body.report).toMatchObject({ cron: '30 9 * * *', nextRunAt: '2030-01-07T09:30:00.000Z' });
    expect((await t.request('GET', `/v1/projects/${projectId}/reports`, { token: apiKey })).body.reports.map((r: { id: string }) => r.id)).toContain(id);
    const other = await t.createProject();
    for (const [m, p] of [['GET', ''], ['PATCH', ''], ['DELETE', ''], ['POST', '/run'], ['GET', '/runs']]) {
      expect((await t.request(m, `/v1/projects/${other.projectId}/reports/${id}${p}`, { token: other.apiKey, body: m === 'PATCH' ? { name: 'x' } : undefined })).status).toBe(404);
    }
    expect((await t.request('DELETE', `/v1/projects/${projectId}/reports/${id}`, { token: apiKey })).status).toBe(204);
    expect((await t.request('GET', `/v1/projects/${projectId}/reports/${id}`, { token: apiKey })).status).toBe(404);
  });

  it('run now: the CSV equals walking every page of the visitors API for the same window, byte for byte after sorting; report.ready is signed', async () => {
    const rep = (await create({ name: 'Last week', cron: '0 8 * * 1', timezone: 'UTC', range: 'last7Days', format: 'csv' })).body.report;
    const run = await t.request('POST', `/v1/projects/${projectId}/reports/${rep.id}/run`, { token: apiKey });
    expect(run.status).toBe(202);
    expect(run.body.run).toMatchObject({ status: 'pending', window: { dateFrom: '2029-12-30T00:00:00.000Z', dateTo: '2030-01-06T00:00:00.000Z' } });
    await until('run succeeded', async () => (await t.request('GET', `/v1/projects/${projectId}/reports/${rep.id}/runs`, { token: apiKey })).body.runs[0]?.status === 'succeeded');
    const content = await t.request('GET', `/v1/projects/${projectId}/reports/${rep.id}/runs/${run.body.run.id}/content`, { token: apiKey });
    expect(content.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines: string[] = [];
    for (let offset = 0; ; offset += 250) {
      const page = (await t.request('GET', `/v1/analytics/${projectId}/visitors?dateFrom=2029-12-30T00:00:00.000Z&dateTo=2030-01-06T00:00:00.000Z&limit=250&offset=${offset}`, { token: apiKey })).body;
      for (const v of page.visitors) lines.push(`${/[",]/.test(v.path) ? `"${v.path.replace(/"/g, '""')}"` : v.path},${v.human},${v.ai},${v.total}`);
      if (!page.hasMore) break;
    }
    expect(lines.length).toBeGreaterThan(250);
    const [header, ...rows] = content.text.trimEnd().split('\n');
    expect(header).toBe('path,human,ai,total');
    expect(rows.sort().join('\n')).toBe(lines.sort().join('\n'));
    const ready = await until('report.ready', async () => receiver.received.find((r) => r.body.type === 'report.ready' && r.body.data.run.id === run.body.run.id));
    expect(ready.verified).toBe(true);
    expect(ready.body.data).toMatchObject({ report: { id: rep.id }, run: { status: 'succeeded' }, contentUrl: `/v1/projects/${projectId}/reports/${rep.id}/runs/${run.body.run.id}/content` });
  });

  it('JSON content has window, totals, visitors (all pages), timeseries and agents', async () => {
    const rep = (await create({ name: 'json', cron: '0 8 * * 1', range: 'last7Days', format: 'json' })).body.report;
    const run = (await t.request('POST', `/v1/projects/${projectId}/reports/${rep.id}/run`, { token: apiKey })).body.run;
    await until('run succeeded', async () => (await t.request('GET', `/v1/projects/${projectId}/reports/${rep.id}/runs`, { token: apiKey })).body.runs[0]?.status === 'succeeded');
    const body = (await t.request('GET', `/v1/projects/${projectId}/reports/${rep.id}/runs/${run.id}/content`, { token: apiKey })).body;
    expect(Object.keys(body).sort()).toEqual(['agents', 'timeseries', 'totals', 'visitors', 'window']);
    expect(body.visitors.length).toBeGreaterThan(250);
    expect(body.timeseries).toHaveLength(7);
    expect(body.agents.length).toBeGreaterThan(0);
  });

  it('a report due every minute for 5 minutes, two schedulers on one database → exactly 5 runs and 5 deliveries; after downtime only the latest missed time runs', async () => {
    const rep = (await create({ name: 'minutely', cron: '* * * * *', range: 'previousDay', format: 'csv' })).body.report;
    const a = t.app.get(ReportScheduler);
    // A second scheduler instance (its own worker id) on the same database and clock.
    const b = Object.assign(Object.create(Object.getPrototypeOf(a)), a, { workerId: 'second-instance', ticking: undefined, timer: undefined });
    for (let minute = 1; minute <= 5; minute++) {
      now += 60_000;
      await Promise.all([a.tick(), b.tick(), a.tick(), b.tick()]);
    }
    await until('5 runs done', async () => {
      const runs = (await t.request('GET', `/v1/projects/${projectId}/reports/${rep.id}/runs?limit=100`, { token: apiKey })).body.runs;
      return runs.length === 5 && runs.every((r: { status: string }) => r.status === 'succeeded');
    });
    await t.app.get(WebhookDispatcher).wake();
    await until('5 deliveries', async () => receiver.received.filter((r) => r.body.data.report?.id === rep.id).length >= 5);
    await new Promise((r) => setTimeout(r, 300));
    const got = receiver.received.filter((r) => r.body.data.report?.id === rep.id);
    expect(got).toHaveLength(5);
    expect(new Set(got.map((r) => r.body.data.run.scheduledFor)).size).toBe(5);

    // Down for an hour: one run, for the latest missed minute.
    now += 3_600_000;
    await Promise.all([a.tick(), b.tick()]);
    const runs = (await t.request('GET', `/v1/projects/${projectId}/reports/${rep.id}/runs?limit=100`, { token: apiKey })).body.runs;
    expect(runs).toHaveLength(6);
    expect(runs[0].scheduledFor).toBe(new Date(Math.floor(now / 60_000) * 60_000).toISOString());
  });
});

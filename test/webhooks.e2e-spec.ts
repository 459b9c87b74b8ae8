import { Clock } from '../src/common/clock';
import { RETRY_DELAYS_MS } from '../src/webhooks/webhook-events';
import { WebhookDispatcher } from '../src/webhooks/webhook-dispatcher';
import { FakeGitHub, startFakeGitHub } from './support/fake-github';
import { byConversation, FakeOpenAI, startFakeOpenAI } from './support/fake-openai';
import { BareRepo, createBareRepo } from './support/git-fixtures';
import { ADMIN_TOKEN, startTestApp, TestApp } from './support/test-app';
import { until } from './support/until';
import { startWebhookReceiver, WebhookReceiver } from './support/webhook-receiver';

describe('Webhooks: signed, durable, retried deliveries', () => {
  let t: TestApp;
  let model: FakeOpenAI;
  let github: FakeGitHub;
  let repo: BareRepo;
  let receiver: WebhookReceiver;
  let projectId: string;
  let apiKey: string;
  let offsetMs = 0;

  beforeAll(async () => {
    const script = (prompt: string) =>
      prompt.includes('EDIT')
        ? [{ toolCalls: [{ name: 'edit_file', args: { path: 'docs/intro.md', old_string: 'Welcom', new_string: 'Welcome' } }] }, { text: 'Fix the typo' }]
        : [{ status: 400 }];
    [model, github, repo, receiver] = await Promise.all([
      startFakeOpenAI(byConversation(script)),
      startFakeGitHub(),
      createBareRepo({ files: { 'docs/intro.md': '# Welcom\n' } }),
      startWebhookReceiver(),
    ]);
    t = await startTestApp({
      WORKER: 'on',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      AGENT_BASE_URL: model.baseURL,
      AGENT_MODEL: 'fake-model',
      AGENT_API_KEY: 'sk-webhooks-test',
      GITHUB_API_URL: github.apiUrl,
      GITHUB_TOKEN: github.token,
      AGENT_RETRY_BACKOFF_MS: '50',
    });
    // Compressed time: the dispatcher's clock runs ahead of the wall clock by offsetMs.
    t.app.get(Clock).now = () => new Date(Date.now() + offsetMs);
    ({ projectId, apiKey } = await t.createProject({ repository: 'https://github.com/acme/docs', cloneUrl: repo.cloneUrl }));
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([model.close(), github.close(), receiver.close()]);
    repo.remove();
  });

  const subscribe = async (path: string, events: string[] = ['*']) => {
    const res = await t.request('POST', `/v1/projects/${projectId}/webhooks`, { token: apiKey, body: { url: receiver.url + path, events } });
    expect(res.status).toBe(201);
    receiver.secrets.set(path, res.body.secret);
    return res.body;
  };
  const deliveries = async (id: string) => (await t.request('GET', `/v1/projects/${projectId}/webhooks/${id}/deliveries?limit=100`, { token: apiKey })).body;
  const at = (path: string) => receiver.received.filter((r) => r.path === path);
  const advance = async (ms: number) => {
    offsetMs += ms;
    await t.app.get(WebhookDispatcher).wake();
  };

  it('create shows the secret once; list and delete; the webhook object has the spec fields', async () => {
    const created = await subscribe('/crud', ['job.completed']);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);
    expect(created.webhook).toEqual({ id: expect.stringMatching(/^wh_/), url: `${receiver.url}/crud`, events: ['job.completed'], createdAt: expect.any(String) });
    const list = await t.request('GET', `/v1/projects/${projectId}/webhooks`, { token: apiKey });
    expect(list.body.webhooks).toContainEqual(created.webhook);
    expect(JSON.stringify(list.body)).not.toContain('whsec_');
    expect((await t.request('DELETE', `/v1/projects/${projectId}/webhooks/${created.webhook.id}`, { token: apiKey })).status).toBe(204);
    expect((await t.request('DELETE', `/v1/projects/${projectId}/webhooks/${created.webhook.id}`, { token: apiKey })).status).toBe(404);
    // The operator token works too.
    expect((await t.request('GET', `/v1/projects/${projectId}/webhooks`, { token: ADMIN_TOKEN })).status).toBe(200);
  });

  it('a job that completes produces exactly one verified job.completed with the PR link', async () => {
    const hook = await subscribe('/jobs', ['job.completed', 'job.failed']);
    const created = await t.request('POST', `/v2/agent/${projectId}/job`, { token: apiKey, body: { prompt: 'EDIT the intro' } });
    const jobId = created.body.id;
    const got = await until('job.completed delivery', async () => at('/jobs').find((r) => r.body.type === 'job.completed' && r.body.data.id === jobId));
    const job = (await t.request('GET', `/v2/agent/${projectId}/job/${jobId}`, { token: apiKey })).body;
    expect(got.verified).toBe(true);
    expect(got.body.data).toEqual(job);
    expect(job.prLink).toMatch(/^https?:\/\//);
    expect(got.body.timestamp).toMatch(/Z$/);
    await until('delivered status', async () => (await deliveries(hook.webhook.id)).deliveries[0]?.status === 'delivered');
    await new Promise((r) => setTimeout(r, 300));
    expect(at('/jobs').filter((r) => r.body.data.id === jobId)).toHaveLength(1);
    const log = await deliveries(hook.webhook.id);
    expect(log.deliveries[0]).toMatchObject({ id: got.id, event: 'job.completed', status: 'delivered', attempts: 1, lastStatusCode: 200, lastError: null });
    expect(log.hasMore).toBe(false);

    // A failing job: job.failed, also verified.
    const failing = await t.request('POST', `/v2/agent/${projectId}/job`, { token: apiKey, body: { prompt: 'model refuses' } });
    const failed = await until('job.failed delivery', async () => at('/jobs').find((r) => r.body.type === 'job.failed' && r.body.data.id === failing.body.id));
    expect(failed.verified).toBe(true);
    expect(failed.body.data.status).toBe('failed');
  });

  it('archive emits job.archived to a "*" subscriber only for its own project', async () => {
    await subscribe('/all');
    const other = await t.createProject();
    const job = await t.request('POST', `/v2/agent/${other.projectId}/job`, { token: other.apiKey, body: { prompt: 'x' } });
    await t.request('POST', `/v2/agent/${other.projectId}/job/${job.body.id}/archive`, { token: other.apiKey });
    const mine = await t.request('POST', `/v2/agent/${projectId}/job`, { token: apiKey, body: { prompt: 'model refuses' } });
    await t.request('POST', `/v2/agent/${projectId}/job/${mine.body.id}/archive`, { token: apiKey });
    const got = await until('job.archived', async () => at('/all').find((r) => r.body.type === 'job.archived'));
    expect(got.body.data.id).toBe(mine.body.id);
    expect(got.verified).toBe(true);
    expect(at('/all').some((r) => r.body.data.id === job.body.id)).toBe(false);
  });

  it('receiver down for the first attempts: delivered later with the same webhook-id; 500, redirect and a 50 MB body each cost one attempt', async () => {
    const hook = await subscribe('/flaky', ['job.archived']);
    const kinds = ['refused', 500, 'redirect'] as const;
    receiver.behave = (path, n) => (path !== '/flaky' ? 200 : n === 1 ? 500 : n === 2 ? 'redirect' : n === 3 ? 503 : n === 4 ? 'huge' : 200);
    void kinds;
    const job = await t.request('POST', `/v2/agent/${projectId}/job`, { token: apiKey, body: { prompt: 'model refuses' } });
    await t.request('POST', `/v2/agent/${projectId}/job/${job.body.id}/archive`, { token: apiKey });
    await until('first attempt', async () => at('/flaky').length >= 1);
    for (let i = 0; i < 3; i++) {
      await until(`attempt ${i + 1} recorded`, async () => (await deliveries(hook.webhook.id)).deliveries[0]?.attempts === i + 1);
      await advance(RETRY_DELAYS_MS[i]);
    }
    await until('delivered', async () => (await deliveries(hook.webhook.id)).deliveries[0]?.status === 'delivered');
    const got = at('/flaky');
    expect(got).toHaveLength(4);
    expect(new Set(got.map((r) => r.id)).size).toBe(1);
    expect(got.every((r) => r.verified)).toBe(true);
    const [d] = (await deliveries(hook.webhook.id)).deliveries;
    expect(d).toMatchObject({ status: 'delivered', attempts: 4, lastStatusCode: 200, id: got[0].id });
    receiver.behave = () => 200;
  });

  it('receiver always failing: failed after the whole schedule (8 attempts, about a day); redeliver sends it again with the same id; a deleted webhook gets nothing more', async () => {
    const hook = await subscribe('/down', ['job.archived']);
    receiver.behave = (path) => (path === '/down' ? 500 : 200);
    const job = await t.request('POST', `/v2/agent/${projectId}/job`, { token: apiKey, body: { prompt: 'model refuses' } });
    await t.request('POST', `/v2/agent/${projectId}/job/${job.body.id}/archive`, { token: apiKey });
    for (let i = 0; i < RETRY_DELAYS_MS.length; i++) {
      await until(`attempt ${i + 1}`, async () => (await deliveries(hook.webhook.id)).deliveries[0]?.attempts === i + 1);
      await advance(RETRY_DELAYS_MS[i]);
    }
    const [d] = (await until('failed', async () => {
      const log = await deliveries(hook.webhook.id);
      return log.deliveries[0]?.status === 'failed' && log;
    })).deliveries;
    expect(d).toMatchObject({ attempts: 8, lastStatusCode: 500, lastError: expect.stringContaining('500') });
    expect(RETRY_DELAYS_MS.reduce((a, b) => a + b, 0) / 3_600_000).toBeGreaterThan(24);
    await advance(48 * 3_600_000);
    expect(at('/down')).toHaveLength(8);

    receiver.behave = () => 200;
    const redo = await t.request('POST', `/v1/projects/${projectId}/webhooks/${hook.webhook.id}/deliveries/${d.id}/redeliver`, { token: apiKey });
    expect(redo.status).toBe(202);
    await until('redelivered', async () => (await deliveries(hook.webhook.id)).deliveries[0]?.status === 'delivered');
    expect(at('/down')).toHaveLength(9);
    expect(at('/down').every((r) => r.id === d.id && r.verified)).toBe(true);

    await t.request('DELETE', `/v1/projects/${projectId}/webhooks/${hook.webhook.id}`, { token: apiKey });
    const again = await t.request('POST', `/v2/agent/${projectId}/job`, { token: apiKey, body: { prompt: 'model refuses' } });
    await t.request('POST', `/v2/agent/${projectId}/job/${again.body.id}/archive`, { token: apiKey });
    await until('other subscriber got it', async () => at('/all').some((r) => r.body.data.id === again.body.id));
    await advance(0);
    expect(at('/down')).toHaveLength(9);
  });

  it('deliveries page with limit/offset and hasMore; another project cannot see or touch the webhook (404)', async () => {
    const hook = await subscribe('/page', ['job.archived']);
    for (let i = 0; i < 3; i++) {
      const job = await t.request('POST', `/v2/agent/${projectId}/job`, { token: apiKey, body: { prompt: 'model refuses' } });
      await t.request('POST', `/v2/agent/${projectId}/job/${job.body.id}/archive`, { token: apiKey });
    }
    const page1 = await t.request('GET', `/v1/projects/${projectId}/webhooks/${hook.webhook.id}/deliveries?limit=2`, { token: apiKey });
    expect(page1.body.deliveries).toHaveLength(2);
    expect(page1.body.hasMore).toBe(true);
    const page2 = await t.request('GET', `/v1/projects/${projectId}/webhooks/${hook.webhook.id}/deliveries?limit=2&offset=2`, { token: apiKey });
    expect(page2.body.deliveries).toHaveLength(1);
    expect(page2.body.hasMore).toBe(false);
    const other = await t.createProject();
    for (const [method, path] of [
      ['GET', `/v1/projects/${other.projectId}/webhooks/${hook.webhook.id}/deliveries`],
      ['DELETE', `/v1/projects/${other.projectId}/webhooks/${hook.webhook.id}`],
      ['POST', `/v1/projects/${other.projectId}/webhooks/${hook.webhook.id}/deliveries/${page2.body.deliveries[0].id}/redeliver`],
    ]) {
      expect((await t.request(method, path, { token: other.apiKey })).status).toBe(404);
    }
  });
});

describe('Webhooks: input validation (private destinations refused by default)', () => {
  let t: TestApp;
  let projectId: string;
  let apiKey: string;
  beforeAll(async () => {
    t = await startTestApp();
    ({ projectId, apiKey } = await t.createProject());
  });
  afterAll(() => t.close());

  const create = (body: unknown) => t.request('POST', `/v1/projects/${projectId}/webhooks`, { token: apiKey, body });
  const fields = (res: { body: { details?: Array<{ field?: string }> } }) => (res.body.details ?? []).map((d) => d.field);

  it.each([
    ['non-http URL', { url: 'ftp://example.com/hook', events: ['*'] }, 'url'],
    ['javascript URL', { url: 'javascript:alert(1)', events: ['*'] }, 'url'],
    ['loopback', { url: 'http://127.0.0.1:9/hook', events: ['*'] }, 'url'],
    ['localhost name', { url: 'http://localhost/hook', events: ['*'] }, 'url'],
    ['private', { url: 'https://10.1.2.3/hook', events: ['*'] }, 'url'],
    ['link-local metadata', { url: 'http://169.254.169.254/latest', events: ['*'] }, 'url'],
    ['IPv6 loopback', { url: 'http://[::1]/hook', events: ['*'] }, 'url'],
    ['IPv4-mapped IPv6', { url: 'http://[::ffff:127.0.0.1]/hook', events: ['*'] }, 'url'],
    ['5,000-char URL', { url: `https://example.com/${'a'.repeat(5000)}`, events: ['*'] }, 'url'],
    ['unknown event', { url: 'https://example.com/hook', events: ['job.exploded'] }, 'events'],
    ['20 events', { url: 'https://example.com/hook', events: Array.from({ length: 20 }, () => 'job.completed') }, 'events'],
    ['no events', { url: 'https://example.com/hook', events: [] }, 'events'],
  ])('%s → 400 naming the field', async (_name, body, field) => {
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(fields(res)).toContain(field);
  });

  it('a public URL is accepted', async () => {
    const res = await create({ url: 'https://93.184.215.14/hook', events: ['report.ready'] });
    expect(res.status).toBe(201);
  });
});

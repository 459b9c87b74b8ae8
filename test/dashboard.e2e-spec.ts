import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, BrowserContext, chromium, Page } from 'playwright-core';
import { docsTraffic, IngestHit } from './dashboard.fixtures';
import { FakeGitHub, startFakeGitHub } from './support/fake-github';
import { byConversation, FakeOpenAI, startFakeOpenAI } from './support/fake-openai';
import { BareRepo, createBareRepo } from './support/git-fixtures';
import { ADMIN_TOKEN, startTestApp, TestApp } from './support/test-app';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
/** Screenshots of every page, for people to look at (gitignored). */
const ARTIFACTS = join(__dirname, 'artifacts');
const WEEK = { from: '2026-10-01', to: '2026-10-07' }; // inclusive in the picker; the API's dateTo is 2026-10-08
const VIEW = `range=custom&from=${WEEK.from}&to=${WEEK.to}&tz=UTC`;

const hasChromium = existsSync(CHROMIUM);
const describeInBrowser = hasChromium ? describe : describe.skip;

describeInBrowser(`Dashboard in headless Chromium (${CHROMIUM})`, () => {
  let t: TestApp;
  let model: FakeOpenAI;
  let github: FakeGitHub;
  let repo: BareRepo;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let projectId: string;
  let apiKey: string;

  async function ingest(hits: IngestHit[]): Promise<void> {
    for (let i = 0; i < hits.length; i += 1000) {
      const res = await t.request('POST', `/v1/ingest/${projectId}/hits`, { token: apiKey, body: { hits: hits.slice(i, i + 1000) } });
      if (res.status !== 202) throw new Error(`ingest: ${res.status} ${res.text}`);
    }
  }
  const api = async (path: string, token = apiKey) => {
    const res = await t.request('GET', path, { token });
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.text}`);
    return res.body;
  };
  const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
  const cardValue = async (testid: string) => Number(await page.locator(`[data-testid="${testid}"] .card-value`).getAttribute('data-value'));
  const overviewReady = () => page.locator('.overview[data-ready="true"]').waitFor({ timeout: 15_000 });
  /**
   * Polls an expression through CDP (page.waitForFunction would eval it inside the page, which the
   * dashboard's CSP rightly forbids).
   */
  async function pageCondition(expression: string, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await page.evaluate(expression))) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${expression}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  /** Cards and chart settled, and every panel's first answer in (no spinner left). */
  async function settled(): Promise<void> {
    await overviewReady();
    await pageCondition("document.querySelectorAll('.overview .spinner').length === 0 && !document.querySelector('.overview .stale')");
  }

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    const script = byConversation((prompt) =>
      prompt.includes('FAQ') ? [{ toolCalls: [{ name: 'write_file', args: { path: 'docs/faq.md', content: '# FAQ\n\nAnswers to common questions.\n' } }] }, { text: 'Add a FAQ page' }] : [{ status: 400 }],
    );
    [model, github, repo] = await Promise.all([startFakeOpenAI(script), startFakeGitHub(), createBareRepo({ files: { 'docs/intro.md': '# Intro\n' } })]);
    t = await startTestApp({
      WORKER: 'on',
      AGENT_BASE_URL: model.baseURL,
      AGENT_MODEL: 'fake-model',
      AGENT_API_KEY: 'sk-dashboard-test',
      GITHUB_API_URL: github.apiUrl,
      GITHUB_TOKEN: github.token,
      AGENT_RETRY_BACKOFF_MS: '100',
    });
    ({ projectId, apiKey } = await t.createProject({ name: 'Acme docs', repository: 'https://github.com/acme/docs', cloneUrl: repo.cloneUrl }));
    await ingest([...docsTraffic(WEEK.from, 7, 1), ...docsTraffic('2026-09-24', 7, 2, 0.7)]);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    page = await context.newPage();
    page.on('pageerror', (err) => console.error('page error:', err.message));
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await Promise.all([model?.close(), github?.close()]);
    repo?.remove();
  });

  it('serves the app with a strict CSP, immutable hashed assets, and answers every /dashboard route', async () => {
    const index = await t.request('GET', '/dashboard/some/deep/link?range=7d');
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toMatch(/^text\/html/);
    expect(index.headers.get('cache-control')).toBe('no-cache');
    expect(index.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(index.headers.get('content-security-policy')).not.toContain('unsafe');
    const asset = /src="(\/dashboard\/assets\/[^"]+\.js)"/.exec(index.text)![1];
    const js = await t.request('GET', asset);
    expect(js.status).toBe(200);
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await t.request('GET', '/dashboard/assets/nope-123.js')).status).toBe(404);
  });

  it('signs in with a project key (kept in sessionStorage, not in the URL or a cookie); the cards equal the API', async () => {
    const violations: string[] = [];
    page.on('console', (m) => m.type() === 'error' && /Content Security Policy/.test(m.text()) && violations.push(m.text()));
    await page.goto(`${t.url}/dashboard`);
    await page.getByLabel('Project API key or operator token').waitFor();
    await shot('sign-in');

    await page.getByLabel('Project API key or operator token').fill('docent_wrongwrongwrongwrongwrongwrongwrongwrong000000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Docent did not accept this key').waitFor();

    await page.getByLabel('Project API key or operator token').fill(apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`**/dashboard/${projectId}`);
    expect(page.url()).not.toContain(apiKey);
    expect(await context.cookies()).toEqual([]);
    expect(await page.evaluate('sessionStorage.getItem("docent.session")')).toContain(apiKey);

    await page.goto(`${t.url}/dashboard/${projectId}?${VIEW}`);
    await settled();
    const window = `dateFrom=2026-10-01&dateTo=2026-10-08&timezone=UTC`;
    const visitors = await api(`/v1/analytics/${projectId}/visitors?${window}&limit=10`);
    const series = await api(`/v1/analytics/${projectId}/timeseries?${window}&interval=day`);
    expect(visitors.totals.total).toBeGreaterThan(50);
    expect(await cardValue('card-human')).toBe(visitors.totals.human);
    expect(await cardValue('card-ai')).toBe(visitors.totals.ai);
    expect(await cardValue('card-total')).toBe(visitors.totals.total);
    const hits = series.buckets.reduce((s: number, b: { hits: { human: number; ai: number } }) => s + b.hits.human + b.hits.ai, 0);
    expect(await cardValue('card-hits')).toBe(hits);
    // Top pages are the API's first page, in order.
    const paths = await page.locator('#pages tbody tr .label-text').allTextContents();
    expect(paths).toEqual(visitors.visitors.map((v: { path: string }) => v.path));
    // The change against the week before is shown.
    await expect(page.locator('[data-testid="card-human"] .delta').textContent()).resolves.toMatch(/^[↑↓→] \d+(%|×)$/);
    expect(violations).toEqual([]);
  });

  it('draws the human-vs-AI chart on a canvas, one point per day', async () => {
    const drawn = await page.evaluate(`(() => {
      const canvas = document.querySelector('[data-testid="chart"] canvas');
      const ctx = canvas.getContext('2d');
      const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
      let painted = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] > 0) painted++;
      return { width: canvas.width, height: canvas.height, painted };
    })()`);
    expect(drawn).toMatchObject({ width: expect.any(Number), height: expect.any(Number) });
    const d = drawn as { width: number; height: number; painted: number };
    expect(d.width).toBeGreaterThan(600);
    expect(d.painted).toBeGreaterThan(2000);
    await shot('overview-light');
    // Hovering a day shows its numbers: the API's bucket for that day.
    const box = (await page.locator('[data-testid="chart"] .u-over').boundingBox())!;
    await page.mouse.move(box.x + 2, box.y + box.height / 2);
    const tip = page.locator('[data-testid="chart"] .chart-tip');
    await expect(tip.textContent()).resolves.toMatch(/^Thursday, 1 October 2026.*human visitors.*AI visitors/);
    const series = await api(`/v1/analytics/${projectId}/timeseries?dateFrom=2026-10-01&dateTo=2026-10-08&timezone=UTC&interval=day`);
    expect(await tip.textContent()).toContain(`${series.buckets[0].human} human visitors`);
    expect(await tip.textContent()).toContain(`${series.buckets[0].ai} AI visitors`);
    await page.mouse.move(0, 0);
  });

  it('filters the whole view by a clicked page: the URL holds the filter, the cards the API\'s filtered answer', async () => {
    const target = '/api/reference';
    await page.locator('#pages tbody button.linkish', { hasText: /^\/api\/reference$/ }).click();
    await page.waitForURL((url) => url.searchParams.get('path') === target);
    expect(page.url()).not.toContain(apiKey);
    await settled();
    const window = `dateFrom=2026-10-01&dateTo=2026-10-08&timezone=UTC&pathPrefix=${encodeURIComponent(target)}`;
    const visitors = await api(`/v1/analytics/${projectId}/visitors?${window}&limit=1`);
    const all = await api(`/v1/analytics/${projectId}/visitors?dateFrom=2026-10-01&dateTo=2026-10-08&timezone=UTC&limit=1`);
    expect(visitors.totals.total).toBeLessThan(all.totals.total);
    expect(await cardValue('card-human')).toBe(visitors.totals.human);
    expect(await cardValue('card-ai')).toBe(visitors.totals.ai);
    expect(await cardValue('card-total')).toBe(visitors.totals.total);
    const formats = await api(`/v1/analytics/${projectId}/breakdown?by=format&${window}`);
    expect(await page.locator('#formats tbody tr').count()).toBe(formats.rows.length);
    await page.getByRole('button', { name: `Remove the page filter ${target}` }).click();
    await settled();
    expect(await cardValue('card-total')).toBe(all.totals.total);
  });

  it('an agent click is kept in the URL and highlighted; the page says the API filters by page only', async () => {
    const first = page.locator('#agents tbody button.linkish').first();
    const agent = (await first.textContent())!;
    await first.click();
    await page.waitForURL((url) => url.searchParams.get('agent') === agent);
    await page.getByText('filters by page, not by agent').waitFor();
    expect(await page.locator('#agents tbody tr.selected').count()).toBe(1);
    // Each agent row is the API's row: visitors, hits, and verified ÷ (verified + unverified).
    const breakdown = await api(`/v1/analytics/${projectId}/breakdown?by=agent&dateFrom=2026-10-01&dateTo=2026-10-08&timezone=UTC&limit=10`);
    const rows = await page.locator('#agents tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    expect(rows).toHaveLength(breakdown.rows.length);
    breakdown.rows.forEach((r: { value: string; ai: number; hits: number; verification: { verified: number; unverified: number } }, i: number) => {
      const checked = r.verification.verified + r.verification.unverified;
      expect(rows[i][0]).toContain(r.value);
      expect(rows[i].slice(1)).toEqual([String(r.ai), r.hits.toLocaleString('en-US'), checked ? `${Math.round((100 * r.verification.verified) / checked)}%` : '–']);
    });
    expect(breakdown.rows.some((r: { verification: { verified: number } }) => r.verification.verified > 0)).toBe(true);
    await page.getByRole('button', { name: `Remove the agent filter ${agent}` }).click();
  });

  it('follows the system dark theme and the toggle', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await settled();
    expect(await page.evaluate('document.documentElement.dataset.theme')).toBe('dark');
    await page.waitForTimeout(100);
    await shot('overview-dark');
    await page.getByRole('button', { name: 'Switch to light theme' }).click();
    expect(await page.evaluate('document.documentElement.dataset.theme')).toBe('light');
    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    await page.emulateMedia({ colorScheme: 'light' });
    // And on a phone.
    await page.setViewportSize({ width: 390, height: 844 });
    await settled();
    await shot('overview-mobile');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('creates a job from the page; it reaches completed with its pull request shown', async () => {
    await page.getByRole('link', { name: 'Jobs' }).click();
    await page.getByText('No jobs yet.').waitFor();
    await page.getByLabel('New job').fill('Add a FAQ page answering the most common questions');
    await page.getByRole('button', { name: 'Start job' }).click();
    await page.waitForURL(/\/jobs\/job_/);
    const jobId = page.url().split('/jobs/')[1];
    await page.locator('.job-status[data-status="completed"]').waitFor({ timeout: 30_000 });
    const job = await api(`/v2/agent/${projectId}/job/${jobId}`);
    expect(job.status).toBe('completed');
    expect(job.prLink).toBe(github.pulls.find((p) => p.head === `docent/${jobId}`)!.html_url);
    expect(await page.locator('[data-testid="pr-link"] a').getAttribute('href')).toBe(job.prLink);
    await shot('job-detail');

    // A follow-up continues on the same branch and pull request; archive ends the job.
    await page.getByLabel('Follow-up').fill('Also add a FAQ entry about API keys');
    await page.getByRole('button', { name: 'Send follow-up' }).click();
    await page.locator('.job-status[data-status="completed"]').waitFor({ timeout: 30_000 });
    expect(github.pulls.filter((p) => p.head === `docent/${jobId}`)).toHaveLength(1);
    expect(await page.locator('[data-testid="pr-link"] a').getAttribute('href')).toBe(job.prLink);

    // A job the model cannot do fails, and the page says why in words.
    await page.getByRole('link', { name: '← Jobs' }).click();
    await page.getByLabel('New job').fill('Translate everything to Klingon');
    await page.getByRole('button', { name: 'Start job' }).click();
    await page.waitForURL((url) => url.pathname.includes('/jobs/job_') && !url.pathname.endsWith(jobId));
    const failedId = page.url().split('/jobs/')[1];
    await page.locator('.job-status[data-status="failed"]').waitFor({ timeout: 30_000 });
    const failed = await api(`/v2/agent/${projectId}/job/${failedId}`);
    expect(failed.error).toEqual(expect.any(String));
    expect(await page.locator('[data-testid="job-error"]').textContent()).toBe(failed.error);

    await page.getByRole('link', { name: '← Jobs' }).click();
    await page.locator(`tr[data-job="${jobId}"] .pill-completed`).waitFor();
    await page.locator(`tr[data-job="${failedId}"] .pill-failed`).waitFor();
    await shot('jobs');
    await page.getByRole('button', { name: 'Failed', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('status') === 'failed');
    await page.locator(`tr[data-job="${jobId}"]`).waitFor({ state: 'detached' });
    expect(await page.locator('tr[data-job]').count()).toBe(1);

    await page.locator(`tr[data-job="${failedId}"] a`).click();
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Archive job' }).click();
    await page.locator('.job-status[data-status="archived"]').waitFor();
    expect((await api(`/v2/agent/${projectId}/job/${failedId}`)).status).toBe('archived');
  });

  it('shows a new project what to do next (the snippet, the log import)', async () => {
    // Signed in as the operator: sign out, then in with ADMIN_TOKEN.
    await page.getByRole('button', { name: 'Sign out' }).click();
    expect(await page.evaluate('sessionStorage.getItem("docent.session")')).toBeNull();
    await page.getByLabel('Project API key or operator token').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/dashboard/projects');
    await page.getByLabel('Name').fill('Beta docs');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.locator('[data-testid="new-project-key"]').waitFor();
    const created = await api('/v1/projects?limit=100', ADMIN_TOKEN);
    const beta = created.projects.find((p: { name: string }) => p.name === 'Beta docs');
    await page.locator(`tr[data-project="${beta.id}"]`).waitFor();
    await shot('projects');
    await page.getByRole('link', { name: 'Open Beta docs' }).click();
    await page.locator('[data-testid="empty-state"]').waitFor();
    await expect(page.locator('[data-testid="empty-state"]').textContent()).resolves.toContain(`data-project="${beta.id}"`);
    await shot('empty-state');
    // Switching projects from the top bar.
    await page.getByLabel('Project').selectOption(projectId);
    await page.waitForURL(`**/dashboard/${projectId}`);
  });

  it('creates a key shown once with a copy button; revoking it makes the API answer 401', async () => {
    await page.goto(`${t.url}/dashboard/${projectId}/settings`);
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.locator('[data-testid="new-key-value"]').textContent())!;
    expect(key).toMatch(/^docent_/);
    await page.locator('[data-testid="new-key"]').getByRole('button', { name: 'Copy key' }).waitFor();
    expect((await t.request('GET', `/v1/analytics/${projectId}/visitors?limit=1`, { token: key })).status).toBe(200);
    await shot('settings');

    page.once('dialog', (d) => void d.accept());
    const hint = `${key.slice(0, 11)}…${key.slice(-4)}`;
    await page.getByRole('button', { name: `Revoke key ${hint}` }).click();
    await page.locator('tr', { hasText: hint }).getByText('revoked').waitFor();
    expect((await t.request('GET', `/v1/analytics/${projectId}/visitors?limit=1`, { token: key })).status).toBe(401);
    // Shown once: after a reload, only its hint is left.
    await page.reload();
    await page.locator('tr', { hasText: hint }).waitFor();
    expect(await page.locator('[data-testid="new-key"]').count()).toBe(0);
    expect(await page.content()).not.toContain(key);

    // Repository settings are edited with the operator token (PATCH).
    await page.getByLabel('Branch').fill('docs-main');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved.').waitFor();
    expect((await api(`/v1/projects/${projectId}`)).ref).toBe('docs-main');
  });
});

if (!hasChromium) {
  it.skip(`dashboard browser test skipped: ${CHROMIUM} is not installed (apt-get install chromium)`, () => undefined);
}

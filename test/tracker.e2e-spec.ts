import { ClickHouseClient } from '@clickhouse/client';
import { existsSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Browser, BrowserContext, chromium } from 'playwright-core';
import { CLICKHOUSE } from '../src/clickhouse/clickhouse.module';
import { startTestApp, TestApp } from './support/test-app';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
// HeadlessChrome's own UA is (rightly) classified bot; the page view of a person is what is under test.
const DESKTOP_CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

const hasChromium = existsSync(CHROMIUM);
const describeInBrowser = hasChromium ? describe : describe.skip;

interface StoredHit {
  path: string;
  class: string;
  browser: string;
  referrer_host: string;
}

describe('Tracker script', () => {
  let t: TestApp;
  let clickhouse: ClickHouseClient;

  beforeAll(async () => {
    t = await startTestApp();
    clickhouse = t.app.get<ClickHouseClient>(CLICKHOUSE);
  });
  afterAll(() => t.close());

  async function storedHits(projectId: string): Promise<StoredHit[]> {
    const result = await clickhouse.query({
      query: 'SELECT path, class, browser, referrer_host FROM hits WHERE project_id = {projectId:String} ORDER BY timestamp',
      query_params: { projectId },
      format: 'JSONEachRow',
    });
    return result.json<StoredHit>();
  }

  /** Polls until the project holds `count` hits (beacons are asynchronous), then returns them. */
  async function waitForHits(projectId: string, count: number, timeoutMs = 10_000): Promise<StoredHit[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const rows = await storedHits(projectId);
      if (rows.length >= count || Date.now() > deadline) return rows;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  describe('GET /script.js', () => {
    it('serves a small script with JavaScript type, caching and open CORS headers', async () => {
      const res = await t.request('GET', '/script.js');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
      expect(Buffer.byteLength(res.text)).toBeLessThan(1536);
      expect(res.text).toContain('navigator.sendBeacon');
      expect(res.text).not.toContain('sourceMappingURL');
    });

    it('answers 304 to a matching If-None-Match', async () => {
      const first = await t.request('GET', '/script.js');
      const etag = first.headers.get('etag');
      expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      const again = await t.request('GET', '/script.js', { headers: { 'if-none-match': etag! } });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      expect((await t.request('GET', '/script.js', { headers: { 'if-none-match': '"stale"' } })).status).toBe(200);
    });
  });

  describeInBrowser(`in headless Chromium (${CHROMIUM})`, () => {
    let browser: Browser;
    let site: Server;
    let siteUrl: string;

    beforeAll(async () => {
      browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
      // The docs site: another origin than Docent's, answering every path with the same page (a SPA).
      site = createServer((req, res) => {
        const projectId = new URL(req.url ?? '/', 'http://site').searchParams.get('project') ?? '';
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(`<!doctype html><html><head><title>Docs</title>
<script defer src="${t.url}/script.js" data-project="${projectId}"></script>
</head><body><h1>Docs</h1></body></html>`);
      });
      await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
      siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      await browser?.close();
      await new Promise((resolve) => site?.close(resolve));
    });

    async function newContext(): Promise<BrowserContext> {
      return browser.newContext({ userAgent: DESKTOP_CHROME });
    }

    it('records the page view and client-side navigations, once per path change, as human', async () => {
      const { projectId } = await t.createProject({ name: 'tracker' });
      const context = await newContext();
      const page = await context.newPage();
      await page.goto(`${siteUrl}/docs/start?project=${projectId}`, { referer: 'https://www.google.com/search?q=docent' });

      expect(await waitForHits(projectId, 1)).toEqual([{ path: '/docs/start', class: 'human', browser: 'Chrome', referrer_host: 'www.google.com' }]);

      // pushState to a new path counts; the same path again (and a replaceState of it) does not.
      // Strings, not functions: this code runs in the page, and the test compiles without DOM types.
      await page.evaluate(`
        history.pushState({}, '', '/docs/guide?tab=2');
        history.pushState({}, '', '/docs/guide');
        history.replaceState({ scroll: 10 }, '', '/docs/guide#install');
      `);
      await waitForHits(projectId, 2);
      // Back past both /docs/guide entries: popstate brings /docs/start back, a view of its own.
      await page.evaluate('history.go(-2)');
      const rows = await waitForHits(projectId, 3);
      // Nothing else arrives late.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await storedHits(projectId)).toEqual(rows);

      expect(rows).toEqual([
        { path: '/docs/start', class: 'human', browser: 'Chrome', referrer_host: 'www.google.com' },
        { path: '/docs/guide', class: 'human', browser: 'Chrome', referrer_host: '' },
        { path: '/docs/start', class: 'human', browser: 'Chrome', referrer_host: '' },
      ]);
      await context.close();
    });

    it('sends nothing when the browser says Do Not Track', async () => {
      const { projectId } = await t.createProject({ name: 'tracker-dnt' });
      const context = await newContext();
      await context.addInitScript("Object.defineProperty(Navigator.prototype, 'doNotTrack', { get: () => '1' })");
      const page = await context.newPage();
      await page.goto(`${siteUrl}/docs/private?project=${projectId}`);
      await page.evaluate("history.pushState({}, '', '/docs/other')");
      // A control page in the same browser proves beacons do flow from this context otherwise.
      const control = await t.createProject({ name: 'tracker-control' });
      const controlContext = await newContext();
      await (await controlContext.newPage()).goto(`${siteUrl}/docs/public?project=${control.projectId}`);
      expect(await waitForHits(control.projectId, 1)).toHaveLength(1);
      expect(await storedHits(projectId)).toEqual([]);
      await context.close();
      await controlContext.close();
    });
  });

  if (!hasChromium) {
    it.skip(`browser test skipped: ${CHROMIUM} is not installed (apt-get install chromium)`, () => undefined);
  }
});

import { ImportHit, LogEntry, parseCombinedLine, parseLogTime, toHit, unescapeField } from './combined-log';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

function entry(overrides: Partial<LogEntry> = {}): LogEntry {
  return { remoteHost: '203.0.113.7', time: new Date('2025-10-10T20:55:36Z'), method: 'GET', target: '/docs/intro', status: 200, referrer: '', userAgent: CHROME, ...overrides };
}

describe('parseLogTime', () => {
  it('applies the logged offset', () => {
    expect(parseLogTime('10/Oct/2025:13:55:36 -0700')?.toISOString()).toBe('2025-10-10T20:55:36.000Z');
    expect(parseLogTime('01/Jan/2026:00:30:00 +0530')?.toISOString()).toBe('2025-12-31T19:00:00.000Z');
    expect(parseLogTime('29/Feb/2024:23:59:59 +0000')?.toISOString()).toBe('2024-02-29T23:59:59.000Z');
  });

  it('rejects malformed and impossible times', () => {
    for (const bad of ['10/Oct/2025:13:55:36', '10/Okt/2025:13:55:36 +0000', '31/Feb/2025:10:00:00 +0000', '10/Oct/2025:24:00:00 +0000', '10/Oct/2025:13:55:36 +2500', '2025-10-10T13:55:36Z', '']) {
      expect(parseLogTime(bad)).toBeNull();
    }
  });
});

describe('unescapeField', () => {
  it("undoes Apache's and nginx's escapes", () => {
    expect(unescapeField('say \\"hi\\" \\\\ ok')).toBe('say "hi" \\ ok');
    expect(unescapeField('say \\x22hi\\x22')).toBe('say "hi"');
    expect(unescapeField('caf\\xC3\\xA9')).toBe('café');
    expect(unescapeField('plain')).toBe('plain');
  });
});

describe('parseCombinedLine', () => {
  it('parses an nginx combined line', () => {
    const line = `203.0.113.7 - - [10/Oct/2025:13:55:36 -0700] "GET /docs/intro?utm=x HTTP/1.1" 200 2326 "https://www.google.com/" "${CHROME}"`;
    expect(parseCombinedLine(line)).toEqual({
      remoteHost: '203.0.113.7',
      time: new Date('2025-10-10T20:55:36Z'),
      method: 'GET',
      target: '/docs/intro?utm=x',
      status: 200,
      referrer: 'https://www.google.com/',
      userAgent: CHROME,
    });
  });

  it('parses IPv6 clients, a user name, `-` size, referrer and agent', () => {
    const e = parseCombinedLine('2001:db8::8a2e:370:7334 - frank [10/Oct/2025:13:55:36 +0200] "HEAD / HTTP/2.0" 304 - "-" "-"');
    expect(e).toMatchObject({ remoteHost: '2001:db8::8a2e:370:7334', method: 'HEAD', target: '/', status: 304, referrer: '', userAgent: '' });
    expect(e?.time.toISOString()).toBe('2025-10-10T11:55:36.000Z');
  });

  it('keeps escaped quotes inside the user agent (Apache \\" and nginx \\x22)', () => {
    const apache = parseCombinedLine('198.51.100.2 - - [10/Oct/2025:13:55:36 +0000] "GET /a HTTP/1.1" 200 12 "-" "Mozilla/5.0 \\"quoted\\" agent"');
    expect(apache?.userAgent).toBe('Mozilla/5.0 "quoted" agent');
    const nginx = parseCombinedLine('198.51.100.2 - - [10/Oct/2025:13:55:36 +0000] "GET /a HTTP/1.1" 200 12 "-" "Mozilla/5.0 \\x22quoted\\x22 agent"');
    expect(nginx?.userAgent).toBe('Mozilla/5.0 "quoted" agent');
  });

  it('ignores fields appended after the user agent', () => {
    const e = parseCombinedLine('198.51.100.2 - - [10/Oct/2025:13:55:36 +0000] "GET /a HTTP/1.1" 200 12 "-" "curl/8.5.0" "10.0.0.1" rt=0.003');
    expect(e?.userAgent).toBe('curl/8.5.0');
  });

  it('parses a line whose request is not METHOD TARGET PROTOCOL, with an empty method', () => {
    const tls = parseCombinedLine('192.0.2.9 - - [10/Oct/2025:13:55:36 +0000] "\\x16\\x03\\x01\\x00\\xF1\\x01" 400 157 "-" "-"');
    expect(tls).toMatchObject({ method: '', target: '', status: 400 });
    expect(parseCombinedLine('192.0.2.9 - - [10/Oct/2025:13:55:36 +0000] "-" 408 0 "-" "-"')).toMatchObject({ method: '', status: 408 });
  });

  it('returns null for lines that are not combined format', () => {
    for (const bad of [
      '',
      'garbage',
      // common log format: no referrer and user agent
      '203.0.113.7 - - [10/Oct/2025:13:55:36 -0700] "GET / HTTP/1.1" 200 2326',
      // truncated mid-line
      '203.0.113.7 - - [10/Oct/2025:13:55:36 -0700] "GET / HTTP/1.1" 200 2326 "-" "Mozilla/5.0 (Win',
      // bad timestamp
      '203.0.113.7 - - [32/Oct/2025:13:55:36 -0700] "GET / HTTP/1.1" 200 2326 "-" "curl/8"',
      // status not three digits
      '203.0.113.7 - - [10/Oct/2025:13:55:36 -0700] "GET / HTTP/1.1" OK 2326 "-" "curl/8"',
      '{"time":"2025-10-10T13:55:36Z","path":"/"}',
    ]) {
      expect(parseCombinedLine(bad)).toBeNull();
    }
  });
});

describe('toHit', () => {
  it('maps a page view to an ingest hit: UTC timestamp, path without query, IP and referrer', () => {
    expect(toHit(entry({ target: '/docs/intro?x=1#top', referrer: 'https://www.google.com/' }))).toEqual<ImportHit>({
      timestamp: '2025-10-10T20:55:36.000Z',
      path: '/docs/intro',
      userAgent: CHROME,
      ip: '203.0.113.7',
      referrer: 'https://www.google.com/',
    });
  });

  it('counts 2xx and 304 GETs of pages, llms.txt and Markdown included', () => {
    for (const target of ['/', '/docs/', '/docs/page.html', '/llms.txt', '/llms-full.txt', '/docs/intro.md', '/guide.pdf']) {
      expect(toHit(entry({ target }))).toMatchObject({ path: target });
    }
    expect(toHit(entry({ status: 304 }))).toMatchObject({ path: '/docs/intro' });
    expect(toHit(entry({ status: 203 }))).toMatchObject({ path: '/docs/intro' });
  });

  it('skips other methods, redirects and errors, assets and housekeeping', () => {
    expect(toHit(entry({ method: 'POST' }))).toBe('method');
    expect(toHit(entry({ method: 'HEAD' }))).toBe('method');
    for (const status of [301, 302, 308, 400, 404, 429, 500, 503]) expect(toHit(entry({ status }))).toBe('status');
    for (const target of ['/assets/app.css', '/js/main.js?v=3', '/img/logo.PNG', '/favicon.ico', '/fonts/inter.woff2', '/app.js.map', '/search-index.json', '/sitemap.xml', '/robots.txt', '/.well-known/security.txt']) {
      expect(toHit(entry({ target }))).toBe('asset');
    }
  });

  it('skips what the API would refuse: malformed request, a target without /, oversized fields', () => {
    expect(toHit(entry({ method: '', target: '' }))).toBe('invalid');
    expect(toHit(entry({ target: '*' }))).toBe('invalid');
    expect(toHit(entry({ target: '/' + 'a'.repeat(2048) }))).toBe('invalid');
    expect(toHit(entry({ userAgent: 'x'.repeat(16 * 1024 + 1) }))).toBe('invalid');
  });

  it('takes the path of an absolute-form target', () => {
    expect(toHit(entry({ target: 'http://docs.example.com/docs/a?b=c' }))).toMatchObject({ path: '/docs/a' });
  });

  it('leaves out hostnames and referrers that are not http(s) URLs', () => {
    const hit = toHit(entry({ remoteHost: 'crawl-66-249-66-1.googlebot.com', referrer: 'android-app://com.google.android.gm/' }));
    expect(hit).not.toHaveProperty('ip');
    expect(hit).not.toHaveProperty('referrer');
    expect(toHit(entry({ remoteHost: '::ffff:192.0.2.1' }))).toMatchObject({ ip: '::ffff:192.0.2.1' });
  });
});

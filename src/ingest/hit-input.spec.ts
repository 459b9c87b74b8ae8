import { InvalidInput } from '../common/domain-errors';
import { normalizePath, parseCollectBody, parseIngestBody, parseTimestamp, pathFromUrlOrPath, referrerHost, utmSource } from './hit-input';

const NOW = Date.UTC(2026, 10, 21, 10, 0, 0);

function detailsOf(fn: () => unknown): Array<{ field?: string; message: string }> {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidInput);
    return (err as InvalidInput).details ?? [];
  }
  throw new Error('expected a 400');
}

describe('parseTimestamp', () => {
  it.each([
    ['2026-11-21T10:00:00.000Z', Date.UTC(2026, 10, 21, 10)],
    ['2026-11-21T10:00:00Z', Date.UTC(2026, 10, 21, 10)],
    ['2026-11-21T10:00:00.5Z', Date.UTC(2026, 10, 21, 10, 0, 0, 500)],
    ['2026-11-21T10:00:00.123456789Z', Date.UTC(2026, 10, 21, 10, 0, 0, 123)],
    ['2026-11-21T12:00:00+02:00', Date.UTC(2026, 10, 21, 10)],
    ['2026-11-21T05:30:00-0430', Date.UTC(2026, 10, 21, 10)],
    ['2026-11-21T10:00:00', Date.UTC(2026, 10, 21, 10)],
    ['2026-11-21T10:00Z', Date.UTC(2026, 10, 21, 10)],
    ['2026-11-21', Date.UTC(2026, 10, 21)],
    ['2024-02-29T00:00:00Z', Date.UTC(2024, 1, 29)],
  ])('%s', (value, expected) => expect(parseTimestamp(value)).toBe(expected));

  it('reads years 0000–0099 as written (Date.UTC would add 1900)', () => {
    expect(new Date(parseTimestamp('0099-12-31T23:59:59Z')!).toISOString()).toBe('0099-12-31T23:59:59.000Z');
    expect(new Date(parseTimestamp('0000-01-01')!).toISOString()).toBe('0000-01-01T00:00:00.000Z');
    expect(new Date(parseTimestamp('0050-06-15T12:00:00+01:00')!).toISOString()).toBe('0050-06-15T11:00:00.000Z');
    expect(parseTimestamp('0100-02-29')).toBeUndefined(); // 100 is no leap year
    expect(new Date(parseTimestamp('0004-02-29')!).toISOString()).toBe('0004-02-29T00:00:00.000Z');
  });

  it.each(['yesterday', '', '2026-02-30T00:00:00Z', '2025-02-29', '2026-13-01', '2026-11-21T24:00:00Z', '2026-11-21T10:60:00Z', '2026-11-21T10:00:00+25:00', '21/11/2026', '1732183200000', '2026-11-21T10:00:00ZZ'])(
    'rejects %j',
    (value) => expect(parseTimestamp(value)).toBeUndefined(),
  );
});

describe('paths and referrers', () => {
  it('drops the query string and fragment and requires a leading slash', () => {
    expect(normalizePath('/docs/a?x=1#top')).toBe('/docs/a');
    expect(normalizePath('/docs/a#top?x')).toBe('/docs/a');
    expect(normalizePath('/')).toBe('/');
    expect(normalizePath('docs/a')).toBeUndefined();
    expect(normalizePath('?x=1')).toBeUndefined();
    expect(normalizePath('')).toBeUndefined();
  });

  it('takes a full URL\'s pathname for the beacon', () => {
    expect(pathFromUrlOrPath('https://docs.example.com/guide/intro?ref=nav#x')).toBe('/guide/intro');
    expect(pathFromUrlOrPath('https://docs.example.com')).toBe('/');
    expect(pathFromUrlOrPath('/guide?x')).toBe('/guide');
    expect(pathFromUrlOrPath('javascript:alert(1)')).toBeUndefined();
    expect(pathFromUrlOrPath('guide')).toBeUndefined();
  });

  it('keeps only the referrer host, and nothing for a non-URL', () => {
    expect(referrerHost('https://www.google.com/search?q=x')).toBe('www.google.com');
    expect(referrerHost('android-app://com.google.android.gm/')).toBe('com.google.android.gm');
    expect(referrerHost('-')).toBe('');
    expect(referrerHost('')).toBe('');
    expect(referrerHost(undefined)).toBe('');
    expect(referrerHost('http://')).toBe('');
  });
});

describe('utmSource', () => {
  it('keeps utm_source from a path or URL, decoded, at most 256 characters', () => {
    expect(utmSource('/a?utm_source=chatgpt.com&utm_medium=referral')).toBe('chatgpt.com');
    expect(utmSource('https://d.test/a?x=1&utm_source=News%20letter#utm_source=frag')).toBe('News letter');
    expect(utmSource('/a#?utm_source=frag')).toBe('');
    expect(utmSource('/a?utm_source=')).toBe('');
    expect(utmSource('/a?utm_sourcex=1')).toBe('');
    expect(utmSource(`/a?utm_source=${'y'.repeat(300)}`)).toBe('y'.repeat(256));
    expect(utmSource(undefined)).toBe('');
  });

  it('is read by both ingest routes before the query string is dropped', () => {
    expect(parseIngestBody({ hits: [{ path: '/a?utm_source=claude.ai', userAgent: '' }] }, NOW)[0]).toMatchObject({ path: '/a', utmSource: 'claude.ai' });
    expect(parseCollectBody({ path: 'https://d.test/a?utm_source=perplexity' }, NOW)).toMatchObject({ path: '/a', utmSource: 'perplexity' });
  });
});

describe('parseIngestBody', () => {
  const ok = { path: '/a', userAgent: 'Mozilla/5.0' };

  it('normalizes valid hits and defaults the timestamp to now', () => {
    const [hit] = parseIngestBody({ hits: [{ ...ok, path: '/a?b', ip: '::1', visitorId: 'v', referrer: 'https://x.test/p', extra: 1 }] }, NOW);
    expect(hit).toEqual({ timestampMs: NOW, path: '/a', userAgent: 'Mozilla/5.0', ip: '::1', visitorId: 'v', referrerHost: 'x.test', utmSource: '' });
  });

  it('treats null optional fields and an empty visitorId as absent', () => {
    const [hit] = parseIngestBody({ hits: [{ ...ok, timestamp: null, ip: null, visitorId: '', referrer: null }] }, NOW);
    expect(hit).toEqual({ timestampMs: NOW, path: '/a', userAgent: 'Mozilla/5.0', ip: undefined, visitorId: undefined, referrerHost: '', utmSource: '' });
  });

  it('accepts 5 minutes ahead, refuses 5 minutes and 1 ms ahead', () => {
    expect(parseIngestBody({ hits: [{ ...ok, timestamp: new Date(NOW + 300_000).toISOString() }] }, NOW)[0].timestampMs).toBe(NOW + 300_000);
    expect(detailsOf(() => parseIngestBody({ hits: [{ ...ok, timestamp: new Date(NOW + 300_001).toISOString() }] }, NOW))[0].field).toBe('hits[0].timestamp');
  });

  it('gives hits without a timestamp the default time when one is passed (a retried keyed batch)', () => {
    const hits = parseIngestBody({ hits: [ok, { ...ok, timestamp: '2020-01-01T00:00:00Z' }] }, NOW, NOW - 3_600_000);
    expect(hits.map((h) => h.timestampMs)).toEqual([NOW - 3_600_000, Date.UTC(2020, 0, 1)]);
  });

  it('accepts any past time from 1900-01-01 (the store\'s earliest), refuses older, and years below 100 are not read as 19xx', () => {
    expect(parseIngestBody({ hits: [{ ...ok, timestamp: '1900-01-01T00:00:00Z' }] }, NOW)[0].timestampMs).toBe(Date.UTC(1900, 0, 1));
    expect(parseIngestBody({ hits: [{ ...ok, timestamp: '1969-07-20T20:17:00Z' }] }, NOW)[0].timestampMs).toBe(Date.UTC(1969, 6, 20, 20, 17));
    for (const old of ['1899-12-31T23:59:59.999Z', '0099-06-01T00:00:00Z', '0001-01-01']) {
      const [detail] = detailsOf(() => parseIngestBody({ hits: [{ ...ok, timestamp: old }] }, NOW));
      expect(detail).toEqual({ field: 'hits[0].timestamp', message: expect.stringContaining('1900-01-01') });
    }
  });

  it('refuses strings that are not well-formed Unicode (lone surrogates), naming each field', () => {
    const details = detailsOf(() =>
      parseIngestBody({ hits: [{ path: '/x\ud800', userAgent: 'UA\udc00' }, { ...ok, visitorId: '\ud800', referrer: 'https://r.test/\udfff' }] }, NOW),
    );
    expect(details.map((d) => d.field)).toEqual(['hits[0].path', 'hits[0].userAgent', 'hits[1].visitorId', 'hits[1].referrer']);
    for (const d of details) expect(d.message).toContain('Unicode');
    // Well-formed pairs and other unusual characters are fine.
    expect(parseIngestBody({ hits: [{ path: '/emoji/\ud83d\ude00\u0001\uffff', userAgent: 'é' }] }, NOW)[0].path).toBe('/emoji/😀\u0001\uffff');
  });

  it('names every bad field of every hit', () => {
    const details = detailsOf(() => parseIngestBody({ hits: [ok, { path: 'x', userAgent: 7, ip: 'nope', timestamp: 3 }, { ...ok, visitorId: 5 }] }, NOW));
    expect(details.map((d) => d.field)).toEqual(['hits[1].timestamp', 'hits[1].path', 'hits[1].userAgent', 'hits[1].ip', 'hits[2].visitorId']);
    for (const d of details) expect(d.message.startsWith(d.field as string)).toBe(true);
  });

  it('caps the number of details', () => {
    const details = detailsOf(() => parseIngestBody({ hits: Array.from({ length: 1000 }, () => ({ path: 'x', userAgent: '' })) }, NOW));
    expect(details).toHaveLength(50);
  });

  it.each([[undefined], [null], [[]], ['x'], [{}], [{ hits: {} }], [{ hits: [] }], [{ hits: Array.from({ length: 1001 }, () => ok) }]])(
    'refuses a body of %j without hits, or with too many, naming "hits"',
    (body) => expect(detailsOf(() => parseIngestBody(body, NOW)).map((d) => d.field)).toEqual(['hits']),
  );

  it('accepts exactly 1,000 hits, a 16 KiB user agent and a 2,048-char path', () => {
    expect(parseIngestBody({ hits: Array.from({ length: 1000 }, () => ok) }, NOW)).toHaveLength(1000);
    expect(parseIngestBody({ hits: [{ path: '/' + 'p'.repeat(2047), userAgent: 'u'.repeat(16384) }] }, NOW)[0].path).toHaveLength(2048);
  });
});

describe('parseCollectBody', () => {
  it('takes path and referrer host', () => {
    expect(parseCollectBody({ path: 'https://d.test/a?x', referrer: 'https://r.test/' }, NOW)).toEqual({ timestampMs: NOW, path: '/a', referrerHost: 'r.test', utmSource: '' });
  });

  it('refuses a lone surrogate in path or referrer, naming the field', () => {
    expect(detailsOf(() => parseCollectBody({ path: '/x\ud800' }, NOW)).map((d) => d.field)).toEqual(['path']);
    expect(detailsOf(() => parseCollectBody({ path: 'https://d.test/\ud800' }, NOW)).map((d) => d.field)).toEqual(['path']);
    expect(detailsOf(() => parseCollectBody({ path: '/ok', referrer: 'https://r.test/\udc00' }, NOW)).map((d) => d.field)).toEqual(['referrer']);
  });

  it.each([[null], [{}], [{ path: 5 }], [{ path: 'ftp://x/y' }], [{ path: '/ok', referrer: 5 }]])('refuses %j', (body) => {
    expect(detailsOf(() => parseCollectBody(body, NOW)).length).toBeGreaterThan(0);
  });
});

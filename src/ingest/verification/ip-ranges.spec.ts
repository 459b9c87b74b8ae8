import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { SHIPPED_RANGES_DIR } from './agent-ranges';
import { extractEmbeddedRangeList, IpRangeSet, MalformedRangeList, parseIp, parseRangeList } from './ip-ranges';
import { RANGE_SOURCES } from './range-sources';

const shipped = (id: string) => parseRangeList(readFileSync(join(SHIPPED_RANGES_DIR, `${id}.json`), 'utf8'));

describe('operator range lists', () => {
  it('every shipped file parses, and each is a refreshable source', () => {
    const files = readdirSync(SHIPPED_RANGES_DIR).filter((f) => f.endsWith('.json')).map((f) => f.replace(/\.json$/, '')).sort();
    expect(files).toEqual(RANGE_SOURCES.map((s) => s.id).sort());
    for (const id of files) expect(shipped(id).prefixes.length).toBeGreaterThan(0);
  });

  it.each([
    ['20.125.66.85', 'openai-gptbot', true],
    ['18.97.1.230', 'perplexity-perplexitybot', true],
    ['66.249.64.5', 'google-googlebot', true],
    ['1.1.1.1', 'openai-gptbot', false],
    ['20.125.66.85', 'perplexity-perplexitybot', false],
  ])('the PROVENANCE test address %s in %s: %s', (ip, id, inside) => {
    expect(new IpRangeSet(shipped(id).prefixes).has(parseIp(ip)!)).toBe(inside);
  });

  it('reads IPv6 prefixes, and IPv4-mapped IPv6 addresses as IPv4', () => {
    const set = new IpRangeSet(['2001:db8::/32', '192.0.2.0/24']);
    expect(set.has(parseIp('2001:db8:ffff::1')!)).toBe(true);
    expect(set.has(parseIp('2001:db9::1')!)).toBe(false);
    expect(set.has(parseIp('::ffff:192.0.2.7')!)).toBe(true);
    const google = new IpRangeSet(shipped('google-googlebot').prefixes);
    const v6 = shipped('google-googlebot').prefixes.find((p) => p.includes(':'))!;
    expect(google.has(parseIp(v6.split('/')[0])!)).toBe(true);
  });

  it('masks host bits and takes a bare address as a single host', () => {
    const set = new IpRangeSet(['10.1.2.3/8', '203.0.113.9']);
    expect(set.has(parseIp('10.200.0.1')!)).toBe(true);
    expect(set.has(parseIp('203.0.113.9')!)).toBe(true);
    expect(set.has(parseIp('203.0.113.10')!)).toBe(false);
  });

  it('tolerates the formats operators use: leading newline, unknown keys, invisible characters, no creationTime', () => {
    const list = parseRangeList('\n{"synctoken":"1","creationTime":"2026-01-01T00:00:00Z","notes":"x","prefixes":[{"ipv6Prefix":"2600:1f28:365:80b0::/60"},{"ipv4Prefix":"157.55.39.0\u200b/24"}]}');
    expect(list).toEqual({ creationTime: '2026-01-01T00:00:00Z', prefixes: ['2600:1f28:365:80b0::/60', '157.55.39.0/24'] });
    expect(parseRangeList('{"prefixes":[{"ipv4Prefix":"1.2.3.0/24"}]}').creationTime).toBe('');
  });

  it.each([
    ['not JSON', '<html>502 Bad Gateway</html>'],
    ['truncated', '{"creationTime":"x","prefixes":[{"ipv4Prefix":"1.2.3.0/24"}'],
    ['no prefixes', '{"creationTime":"x"}'],
    ['empty prefixes', '{"creationTime":"x","prefixes":[]}'],
    ['a bad prefix', '{"prefixes":[{"ipv4Prefix":"1.2.3.0/24"},{"ipv4Prefix":"1.2.3.999/24"}]}'],
    ['a bad length', '{"prefixes":[{"ipv4Prefix":"1.2.3.0/33"}]}'],
    ['an entry without a prefix', '{"prefixes":[{"ipv4":"1.2.3.0/24"}]}'],
  ])('refuses a list that is %s', (_what, text) => {
    expect(() => parseRangeList(text)).toThrow(MalformedRangeList);
  });

  it("extracts Amazon's document from its HTML page, bare addresses included", () => {
    const html = '<html><body><pre>{\n  "creationTime": "2026-05-14T17:35:47Z",\n  "prefixes": [ {"ip_prefix": "x"}, {"ipv4Prefix": "3.224.220.101"} ]\n}</pre></body></html>';
    const doc = extractEmbeddedRangeList(html.replace('{"ip_prefix": "x"}, ', ''));
    const list = parseRangeList(doc);
    expect(new IpRangeSet(list.prefixes).has(parseIp('3.224.220.101')!)).toBe(true);
    expect(() => extractEmbeddedRangeList('<html>no list</html>')).toThrow(MalformedRangeList);
  });

  it('answers like a linear scan of the prefixes (property)', () => {
    const v4 = fc.tuple(fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 0, max: 32 }));
    fc.assert(
      fc.property(fc.array(v4, { minLength: 1, maxLength: 40 }), fc.array(fc.integer({ min: 0, max: 0xffffffff }), { maxLength: 40 }), (prefixes, probes) => {
        const text = prefixes.map(([a, len]) => `${[a >>> 24, (a >>> 16) & 255, (a >>> 8) & 255, a & 255].join('.')}/${len}`);
        const set = new IpRangeSet(text);
        const inside = (ip: number) =>
          prefixes.some(([a, len]) => {
            const mask = len === 0 ? 0 : (0xffffffff << (32 - len)) >>> 0;
            return ((ip & mask) >>> 0) === ((a & mask) >>> 0);
          });
        // Probe the prefixes' own edges too, where an off-by-one would show.
        const edges = prefixes.flatMap(([a, len]) => {
          const size = 2 ** (32 - len);
          const first = Math.floor(a / size) * size;
          return [first, first + size - 1, first - 1, first + size].filter((x) => x >= 0 && x <= 0xffffffff);
        });
        for (const ip of [...probes, ...edges]) expect(set.has({ family: 4, value: ip })).toBe(inside(ip));
      }),
    );
  });

  it('parses addresses strictly', () => {
    expect(parseIp('256.1.1.1')).toBeUndefined();
    expect(parseIp('1.2.3')).toBeUndefined();
    expect(parseIp('::1')).toEqual({ family: 6, value: 1n });
    expect(parseIp('255.255.255.255')).toEqual({ family: 4, value: 0xffffffff });
  });
});

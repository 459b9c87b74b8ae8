import { hashParts, utcDay, visitorIdentity } from './visitor-identity';

describe('visitorIdentity', () => {
  const base = { projectId: 'prj_a', ip: '203.0.113.7', userAgent: 'Mozilla/5.0 Chrome/131' };

  it('is a UInt64 as a decimal string: the first 8 bytes of a SHA-256', () => {
    const id = hashParts(['x']);
    expect(id).toMatch(/^\d{1,20}$/);
    expect(BigInt(id)).toBeLessThan(2n ** 64n);
    // sha256("1:x") = 3b8e...: the first 8 bytes, big-endian.
    const { createHash } = require('node:crypto') as typeof import('node:crypto');
    expect(id).toBe(createHash('sha256').update('1:x').digest().readBigUInt64BE(0).toString());
  });

  it('length-prefixes parts, so shifting characters between parts changes the hash', () => {
    expect(hashParts(['ab', 'c'])).not.toBe(hashParts(['a', 'bc']));
  });

  it('hashes (project, visitorId) when a visitorId is given, whatever the class, IP, user agent or day', () => {
    const a = visitorIdentity({ ...base, class: 'human', visitorId: 'u1', salt: 'day1' });
    expect(visitorIdentity({ projectId: 'prj_a', class: 'bot', visitorId: 'u1', userAgent: 'curl/8', ip: '198.51.100.1', salt: 'day2' })).toBe(a);
    expect(visitorIdentity({ ...base, class: 'human', visitorId: 'u1', projectId: 'prj_b' })).not.toBe(a);
    expect(visitorIdentity({ ...base, class: 'human', visitorId: 'u2' })).not.toBe(a);
  });

  it('salts human hits: the same person is one visitor within a day and another the next day', () => {
    const monday = visitorIdentity({ ...base, class: 'human', salt: 'salt-monday' });
    expect(visitorIdentity({ ...base, class: 'human', salt: 'salt-monday' })).toBe(monday);
    expect(visitorIdentity({ ...base, class: 'human', salt: 'salt-tuesday' })).not.toBe(monday);
    expect(visitorIdentity({ ...base, ip: '203.0.113.8', class: 'human', salt: 'salt-monday' })).not.toBe(monday);
    expect(visitorIdentity({ ...base, userAgent: 'Mozilla/5.0 Firefox/133', class: 'human', salt: 'salt-monday' })).not.toBe(monday);
  });

  it('does not salt AI and bot hits: an agent is one visitor across days', () => {
    const ai = visitorIdentity({ ...base, class: 'ai' });
    expect(visitorIdentity({ ...base, class: 'ai', salt: 'ignored' })).toBe(ai);
    expect(visitorIdentity({ ...base, class: 'bot' })).toBe(ai); // same network identity; the class is stored beside it
    expect(visitorIdentity({ ...base, class: 'ai', projectId: 'prj_b' })).not.toBe(ai);
  });

  it('refuses to hash a human hit without a salt rather than silently leaving it linkable across days', () => {
    expect(() => visitorIdentity({ ...base, class: 'human' })).toThrow(/salt/);
  });

  it('utcDay is the UTC calendar day', () => {
    expect(utcDay(Date.UTC(2026, 0, 15, 23, 59, 59, 999))).toBe('2026-01-15');
    expect(utcDay(Date.UTC(2026, 0, 16))).toBe('2026-01-16');
  });
});

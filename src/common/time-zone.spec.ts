import { bucketStart, nextBucket, offsetAt, resolveTimeZone, zonedToUtc } from './time-zone';

const T = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

describe('time zones', () => {
  it('resolves IANA names, canonically, and refuses the rest', () => {
    expect(resolveTimeZone('UTC')).toBe('UTC');
    expect(resolveTimeZone('europe/berlin')).toBe('Europe/Berlin');
    expect(resolveTimeZone('Asia/Kolkata')).toBe('Asia/Kolkata');
    expect(resolveTimeZone('Asia/Calcutta')).toBe('Asia/Calcutta');
    expect(resolveTimeZone('Europe/Kyiv')).toBe('Europe/Kyiv');
    for (const bad of ['', 'Mars/Olympus', '+01:00', 'GMT+1', 'UTC+5', '../etc', 'Europe/Berlin\n']) expect(resolveTimeZone(bad)).toBeUndefined();
  });

  it('knows offsets, :30 zones included', () => {
    expect(offsetAt(T('2026-07-01T00:00:00Z'), 'Europe/Berlin')).toBe(2 * 3_600_000);
    expect(offsetAt(T('2026-01-01T00:00:00Z'), 'Asia/Kolkata')).toBe(5.5 * 3_600_000);
    expect(offsetAt(T('2026-01-01T00:00:00Z'), 'Asia/Kathmandu')).toBe(5.75 * 3_600_000);
  });

  it('turns wall-clock times into instants: repeated times take the earlier, skipped ones move forward', () => {
    expect(iso(zonedToUtc({ year: 2026, month: 3, day: 29, hour: 2, minute: 30 }, 'Europe/Berlin'))).toBe('2026-03-29T01:30:00.000Z');
    expect(iso(zonedToUtc({ year: 2026, month: 10, day: 25, hour: 2, minute: 30 }, 'Europe/Berlin'))).toBe('2026-10-25T00:30:00.000Z');
    expect(iso(zonedToUtc({ year: 2026, month: 3, day: 1 }, 'Asia/Kolkata'))).toBe('2026-02-28T18:30:00.000Z');
    expect(iso(zonedToUtc({ year: 2026, month: 11, day: 1, hour: 1, minute: 30 }, 'America/New_York'))).toBe('2026-11-01T05:30:00.000Z');
  });

  it('aligns buckets in the zone: 23- and 25-hour days, ISO weeks, months', () => {
    const days = [bucketStart(T('2026-03-28T12:00:00Z'), 'day', 'Europe/Berlin')];
    for (let i = 0; i < 2; i++) days.push(nextBucket(days[i], 'day', 'Europe/Berlin'));
    expect(days.map(iso)).toEqual(['2026-03-27T23:00:00.000Z', '2026-03-28T23:00:00.000Z', '2026-03-29T22:00:00.000Z']);
    const fallBack = bucketStart(T('2026-10-25T12:00:00Z'), 'day', 'Europe/Berlin');
    expect(nextBucket(fallBack, 'day', 'Europe/Berlin') - fallBack).toBe(25 * 3_600_000);
    expect(iso(bucketStart(T('2026-10-25T01:10:00Z'), 'hour', 'Europe/Berlin'))).toBe('2026-10-25T01:00:00.000Z'); // the second 02:00
    expect(iso(bucketStart(T('2026-11-25T20:10:00Z'), 'hour', 'Asia/Kolkata'))).toBe('2026-11-25T19:30:00.000Z');
    expect(iso(bucketStart(T('2026-11-25T20:00:00Z'), 'week', 'Asia/Kolkata'))).toBe('2026-11-22T18:30:00.000Z'); // Monday 23rd, local
    expect(iso(bucketStart(T('2026-11-29T23:30:00Z'), 'week', 'UTC'))).toBe('2026-11-23T00:00:00.000Z'); // Sunday belongs to the week before
    expect(iso(bucketStart(T('2026-11-30T20:00:00Z'), 'month', 'Asia/Kolkata'))).toBe('2026-11-30T18:30:00.000Z');
    expect(iso(nextBucket(T('2026-12-01T00:00:00Z'), 'month', 'UTC'))).toBe('2027-01-01T00:00:00.000Z');
  });
});

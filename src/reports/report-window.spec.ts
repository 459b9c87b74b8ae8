import { latestDue, nextDue, reportWindow } from './report-window';

const iso = (w: { from: number; to: number }) => [new Date(w.from).toISOString(), new Date(w.to).toISOString()];

describe('reportWindow: calendar units in the report zone', () => {
  const at = Date.parse('2026-11-23T07:00:00Z'); // Monday 08:00 in Berlin
  it.each([
    ['previousDay', ['2026-11-21T23:00:00.000Z', '2026-11-22T23:00:00.000Z']],
    ['previousWeek', ['2026-11-15T23:00:00.000Z', '2026-11-22T23:00:00.000Z']],
    ['previousMonth', ['2026-09-30T22:00:00.000Z', '2026-10-31T23:00:00.000Z']],
    ['last7Days', ['2026-11-15T23:00:00.000Z', '2026-11-22T23:00:00.000Z']],
    ['last30Days', ['2026-10-23T22:00:00.000Z', '2026-11-22T23:00:00.000Z']],
  ] as const)('%s', (range, expected) => {
    expect(iso(reportWindow(range, at, 'Europe/Berlin'))).toEqual(expected);
  });
});

describe('cron due times', () => {
  it('next and latest due in the zone', () => {
    expect(nextDue('0 8 * * 1', 'Europe/Berlin', new Date('2026-11-23T07:00:00Z'))?.toISOString()).toBe('2026-11-30T07:00:00.000Z');
    expect(latestDue('0 8 * * 1', 'Europe/Berlin', new Date('2026-11-23T07:00:00Z'))?.toISOString()).toBe('2026-11-23T07:00:00.000Z');
    expect(latestDue('* * * * *', 'UTC', new Date('2026-11-23T07:05:30Z'))?.toISOString()).toBe('2026-11-23T07:05:00.000Z');
  });
});

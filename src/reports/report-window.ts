import { Cron } from 'croner';
import { bucketStart } from '../common/time-zone';

export const REPORT_RANGES = ['previousDay', 'previousWeek', 'previousMonth', 'last7Days', 'last30Days'] as const;
export type ReportRange = (typeof REPORT_RANGES)[number];

/**
 * The calendar window a run at `at` covers, in `timeZone`: previous* is the last complete day,
 * ISO week (Monday) or month; lastNDays the N complete days before today. dateTo is exclusive.
 */
export function reportWindow(range: ReportRange, at: number, timeZone: string): { from: number; to: number } {
  const unit = range === 'previousWeek' ? 'week' : range === 'previousMonth' ? 'month' : 'day';
  const to = bucketStart(at, unit, timeZone);
  const days = range === 'last7Days' ? 7 : range === 'last30Days' ? 30 : 1;
  let from = to;
  for (let i = 0; i < days; i++) from = bucketStart(from - 1, unit, timeZone);
  return { from, to };
}

/** A 5-field cron in an IANA zone; throws on a bad pattern. */
export function parseCron(pattern: string, timeZone: string): Cron {
  return new Cron(pattern, { timezone: timeZone, mode: '5-part', paused: true });
}

/** The next due time strictly after `after`. */
export function nextDue(pattern: string, timeZone: string, after: Date): Date | null {
  return parseCron(pattern, timeZone).nextRun(after);
}

/** The latest due time at or before `at` (after downtime, only this one runs). */
export function latestDue(pattern: string, timeZone: string, at: Date): Date | undefined {
  const cron = parseCron(pattern, timeZone);
  const next = cron.nextRun(new Date(at.getTime() - 60_000));
  if (next && next.getTime() <= at.getTime()) return next;
  return cron.previousRuns(1, at)[0];
}

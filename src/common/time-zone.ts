import { DAY_MS } from './time';

/**
 * IANA time zones without a library: Node's Intl (ICU) knows the same zones as ClickHouse's tz
 * database, so a bucket computed here starts where ClickHouse's toStartOfDay(ts, tz) puts it.
 */

const HOUR_MS = 3_600_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

// Region/City names (Etc/GMT+5, America/Argentina/Buenos_Aires) and UTC; never offsets like +01:00,
// which newer ICU versions also accept as a time zone but ClickHouse does not.
const IANA_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;

/** The IANA name of `name` in its proper case (`europe/berlin` → `Europe/Berlin`), or undefined if unknown. */
export function resolveTimeZone(name: string): string | undefined {
  if (name.length > 64 || !IANA_NAME.test(name)) return undefined;
  try {
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
    if (!IANA_NAME.test(resolved)) return undefined;
    // ICU names some zones by their older alias (Asia/Kolkata resolves to Asia/Calcutta): keep a
    // well-cased name as given, which ClickHouse's tz database also knows; fix the case otherwise.
    return resolved.toLowerCase() !== name.toLowerCase() && /^[A-Z][^/]*(?:\/[A-Z][^/]*)*$/.test(name) ? name : resolved;
  } catch {
    return undefined;
  }
}

/** A wall-clock time in some zone. Months are 1–12. */
export interface LocalTime {
  year: number;
  month: number;
  day: number;
  hour?: number;
  minute?: number;
  second?: number;
  ms?: number;
}

/** The wall-clock time at instant `ms` in `timeZone`. */
export function localTime(ms: number, timeZone: string): Required<LocalTime> {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(ms))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute, second: parts.second, ms: ((ms % 1000) + 1000) % 1000 };
}

/** The wall clock as if it were UTC, in epoch ms. */
function wallMs(t: LocalTime): number {
  const d = new Date(0);
  d.setUTCFullYear(t.year, t.month - 1, t.day); // Date.UTC maps years 0–99 to 1900–1999
  d.setUTCHours(t.hour ?? 0, t.minute ?? 0, t.second ?? 0, t.ms ?? 0);
  return d.getTime();
}

/** The zone's offset from UTC at instant `ms`, in ms (Berlin in summer: +7,200,000). */
export function offsetAt(ms: number, timeZone: string): number {
  const whole = Math.floor(ms / 1000) * 1000;
  return wallMs(localTime(whole, timeZone)) - whole;
}

/**
 * The instant a wall-clock time in `timeZone` names. A time repeated when clocks go back is the
 * earlier instant; a time skipped when clocks go forward is moved forward by the gap (02:30 on
 * Berlin's spring-forward day is 03:30 CEST), as Temporal's "compatible" disambiguation does.
 */
export function zonedToUtc(t: LocalTime, timeZone: string): number {
  const wall = wallMs(t);
  const before = wall - offsetAt(wall - DAY_MS, timeZone);
  const after = wall - offsetAt(wall + DAY_MS, timeZone);
  const valid = [before, after].filter((u) => u + offsetAt(u, timeZone) === wall);
  return valid.length ? Math.min(...valid) : before;
}

export type Interval = 'hour' | 'day' | 'week' | 'month';
export const INTERVALS: readonly Interval[] = ['hour', 'day', 'week', 'month'];

/** The start of the bucket holding `ms`: hours, days, ISO weeks (Monday) and months of `timeZone`'s wall clock. */
export function bucketStart(ms: number, interval: Interval, timeZone: string): number {
  if (interval === 'hour') {
    const local = ms + offsetAt(ms, timeZone);
    return local - (((local % HOUR_MS) + HOUR_MS) % HOUR_MS) - offsetAt(ms, timeZone);
  }
  const t = localTime(ms, timeZone);
  if (interval === 'month') return zonedToUtc({ year: t.year, month: t.month, day: 1 }, timeZone);
  let day = t.day;
  if (interval === 'week') {
    const weekday = (new Date(wallMs({ year: t.year, month: t.month, day: t.day })).getUTCDay() + 6) % 7; // Monday = 0
    day -= weekday;
  }
  return zonedToUtc({ year: t.year, month: t.month, day }, timeZone);
}

/** The start of the bucket after the one starting at `start`. */
export function nextBucket(start: number, interval: Interval, timeZone: string): number {
  if (interval === 'hour') return bucketStart(start + HOUR_MS, 'hour', timeZone);
  const t = localTime(start, timeZone);
  if (interval === 'month') return zonedToUtc({ year: t.year, month: t.month + 1, day: 1 }, timeZone);
  return zonedToUtc({ year: t.year, month: t.month, day: t.day + (interval === 'week' ? 7 : 1) }, timeZone);
}

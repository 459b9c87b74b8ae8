import { ApiError } from '../common/api-error';

const DAY_MS = 86_400_000;

// YYYY-MM-DD, optionally followed by a time (hh:mm, hh:mm:ss, hh:mm:ss.f…) and an offset (Z, ±hh:mm, ±hhmm, ±hh).
// A space stands for the offset's `+`: an unencoded `+02:00` in a query string arrives as ` 02:00`.
const INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:([Zz])|([+\- ])(\d{2})(?::?(\d{2}))?)?)?$/;

/**
 * Parses `YYYY-MM-DD` (midnight UTC) or an ISO 8601 date-time (offset `Z`, `±hh:mm`, or none = UTC)
 * into epoch milliseconds, rounding sub-millisecond fractions up: stored timestamps have millisecond
 * precision, so for both an inclusive lower and an exclusive upper bound, rounding up selects exactly
 * the hits the exact instant would. Returns undefined for anything else, impossible dates included.
 */
export function parseInstant(text: string): number | undefined {
  const m = INSTANT.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '', zulu, sign, oh, om = '0'] = m;
  const year = Number(y), month = Number(mo), day = Number(d), hour = Number(h), minute = Number(mi), second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  let offsetMinutes = 0;
  if (sign && !zulu) {
    if (Number(oh) > 23 || Number(om) > 59) return undefined;
    offsetMinutes = (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om));
  }
  const subMs = fraction.padEnd(9, '0');
  const ms = Number(subMs.slice(0, 3)) + (Number(subMs.slice(3)) > 0 ? 1 : 0);
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day); // Date.UTC maps years 0–99 to 1900–1999
  utc.setUTCHours(hour, minute, second, 0);
  return utc.getTime() + ms - offsetMinutes * 60_000;
}

function daysInMonth(year: number, month: number): number {
  return [31, year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
}

export interface VisitorsQuery {
  /** Inclusive lower bound, epoch ms; undefined = unbounded. */
  from?: number;
  /** Exclusive upper bound, epoch ms; undefined = unbounded. */
  to?: number;
  limit: number;
  offset: number;
}

export const LIMIT_DEFAULT = 50;
export const LIMIT_MAX = 250;

const DATE_HELP = 'a date (YYYY-MM-DD, midnight UTC) or an ISO 8601 date-time such as 2026-03-01T10:00:00+02:00';

/**
 * Validates the visitors report's query string. Unknown parameters are ignored. Integers are plain
 * decimal digits (`05` is 5; `+5`, `5.0`, `1e2` and the empty string are refused): a `+` left
 * unencoded in a URL arrives as a space, so accepting signs would mean guessing.
 * Throws one 400 listing every bad field.
 */
export function parseVisitorsQuery(raw: Record<string, unknown>): VisitorsQuery {
  const details: Array<{ field: string; message: string }> = [];
  const bad = (field: string, message: string) => details.push({ field, message });

  const instant = (field: 'dateFrom' | 'dateTo'): number | undefined => {
    const value = raw[field];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') return void bad(field, `${field} must be given once`);
    const ms = parseInstant(value.trim());
    if (ms === undefined) bad(field, `${field} must be ${DATE_HELP}`);
    return ms;
  };
  const integer = (field: 'limit' | 'offset', min: number, max: number, fallback: number): number => {
    const value = raw[field];
    if (value === undefined) return fallback;
    const range = max === Number.MAX_SAFE_INTEGER ? `an integer of at least ${min}` : `an integer from ${min} to ${max}`;
    if (typeof value !== 'string' || !/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
      bad(field, `${field} must be ${range}`);
      return fallback;
    }
    return Number(value);
  };

  const from = instant('dateFrom');
  const to = instant('dateTo');
  const limit = integer('limit', 1, LIMIT_MAX, LIMIT_DEFAULT);
  const offset = integer('offset', 0, Number.MAX_SAFE_INTEGER, 0);
  if (from !== undefined && to !== undefined && from >= to) {
    bad('dateFrom', 'dateFrom must be earlier than dateTo (dateTo is exclusive)');
    bad('dateTo', 'dateTo must be later than dateFrom (dateTo is exclusive)');
  }
  if (details.length) throw ApiError.badRequest(`Invalid ${[...new Set(details.map((d) => d.field))].join(', ')}.`, details);
  return { from, to, limit, offset };
}

/** Midnight UTC at or before `ms`. */
export function floorDay(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/** Midnight UTC at or after `ms`. */
export function ceilDay(ms: number): number {
  return Math.ceil(ms / DAY_MS) * DAY_MS;
}

export { DAY_MS };

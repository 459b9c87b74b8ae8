import { resolveTimeZone, zonedToUtc } from '../common/time-zone';
import { DAY_MS } from '../common/time';
import { InvalidInput } from '../common/domain-errors';
import { parseQueryInteger } from '../common/query-integer';

/** 9999-12-31T23:59:59.999Z: an offset can roll a valid-looking date past it, and no report reaches that far. */
const LAST_INSTANT_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

// YYYY-MM-DD, optionally followed by a time (hh:mm, hh:mm:ss, hh:mm:ss.f…) and an offset (Z, ±hh:mm, ±hhmm, ±hh).
// A space stands for the offset's `+`: an unencoded `+02:00` in a query string arrives as ` 02:00`.
const INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:([Zz])|([+\- ])(\d{2})(?::?(\d{2}))?)?)?$/;

/**
 * Parses `YYYY-MM-DD` (midnight in `timeZone`) or an ISO 8601 date-time (offset `Z` or `±hh:mm`; none
 * means the wall clock of `timeZone`, UTC by default) into epoch milliseconds, rounding sub-millisecond
 * fractions up: stored timestamps have millisecond precision, so for both an inclusive lower and an
 * exclusive upper bound, rounding up selects exactly the hits the exact instant would. Returns
 * undefined for anything else, impossible dates included.
 */
export function parseInstant(text: string, timeZone = 'UTC'): number | undefined {
  const m = INSTANT.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '', zulu, sign, oh, om = '0'] = m;
  const year = Number(y), month = Number(mo), day = Number(d), hour = Number(h), minute = Number(mi), second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const subMs = fraction.padEnd(9, '0');
  const ms = Number(subMs.slice(0, 3)) + (Number(subMs.slice(3)) > 0 ? 1 : 0);
  if (!zulu && !sign) return zonedToUtc({ year, month, day, hour, minute, second }, timeZone) + ms;
  let offsetMinutes = 0;
  if (sign && !zulu) {
    if (Number(oh) > 23 || Number(om) > 59) return undefined;
    offsetMinutes = (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om));
  }
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day); // Date.UTC maps years 0–99 to 1900–1999
  utc.setUTCHours(hour, minute, second, 0);
  return utc.getTime() + ms - offsetMinutes * 60_000;
}

function daysInMonth(year: number, month: number): number {
  return [31, year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
}

/** The parameters every analytics endpoint shares (insights-and-delivery.md §1). */
export interface AnalyticsQuery {
  /** Inclusive lower bound, epoch ms; undefined = unbounded (or the endpoint's default). */
  from?: number;
  /** Exclusive upper bound, epoch ms; undefined = unbounded (or the endpoint's default). */
  to?: number;
  /** Canonical IANA name; UTC by default. */
  timeZone: string;
  /** Only paths starting with this count; undefined = all paths. */
  pathPrefix?: string;
}

export interface PageQuery {
  limit: number;
  offset: number;
}

export interface VisitorsQuery extends AnalyticsQuery, PageQuery {}

export const LIMIT_DEFAULT = 50;
export const LIMIT_MAX = 250;
export const PATH_PREFIX_MAX = 2048;

const DATE_HELP = 'a date (YYYY-MM-DD, midnight in timezone) or an ISO 8601 date-time such as 2026-03-01T10:00:00+02:00';

/** Collects every bad field of one query string, then throws one 400 listing them all. */
export class QueryProblems {
  readonly details: Array<{ field: string; message: string }> = [];

  add(field: string, message: string): void {
    this.details.push({ field, message });
  }

  /** The parameter as one string; undefined when absent (a repeated parameter is a problem). */
  string(raw: Record<string, unknown>, field: string): string | undefined {
    const value = raw[field];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') return void this.add(field, `${field} must be given once`);
    return value;
  }

  /** Plain decimal digits (`05` is 5; `+5`, `5.0`, `1e2` and the empty string are refused): an unencoded `+` arrives as a space. */
  integer(raw: Record<string, unknown>, field: string, min: number, max: number, fallback: number): number {
    const value = raw[field];
    if (value === undefined) return fallback;
    const range = max === Number.MAX_SAFE_INTEGER ? `an integer of at least ${min}` : `an integer from ${min} to ${max}`;
    const n = parseQueryInteger(value);
    if (n === undefined || n < min || n > max) {
      this.add(field, `${field} must be ${range}`);
      return fallback;
    }
    return n;
  }

  oneOf<T extends string>(raw: Record<string, unknown>, field: string, allowed: readonly T[], fallback?: T): T | undefined {
    const value = this.string(raw, field);
    if (value === undefined) {
      if (fallback === undefined && !this.details.some((d) => d.field === field)) this.add(field, `${field} is required: one of ${allowed.join(', ')}`);
      return fallback;
    }
    if ((allowed as readonly string[]).includes(value)) return value as T;
    this.add(field, `${field} must be one of ${allowed.join(', ')}`);
    return fallback;
  }

  throwIfAny(): void {
    if (this.details.length) throw new InvalidInput(`Invalid ${[...new Set(this.details.map((d) => d.field))].join(', ')}.`, this.details);
  }
}

/** Reads `timezone`, `dateFrom`, `dateTo` and `pathPrefix`. Unknown parameters are ignored. */
export function readAnalyticsQuery(raw: Record<string, unknown>, problems: QueryProblems): AnalyticsQuery {
  let timeZone = 'UTC';
  const zoneName = problems.string(raw, 'timezone');
  if (zoneName !== undefined) {
    const resolved = resolveTimeZone(zoneName.trim());
    if (resolved) timeZone = resolved;
    else problems.add('timezone', 'timezone must be an IANA time zone name such as Europe/Berlin or UTC');
  }
  const instant = (field: 'dateFrom' | 'dateTo'): number | undefined => {
    const value = problems.string(raw, field);
    if (value === undefined) return undefined;
    const ms = parseInstant(value.trim(), timeZone);
    if (ms === undefined) problems.add(field, `${field} must be ${DATE_HELP}`);
    else if (ms > LAST_INSTANT_MS) problems.add(field, `${field} must be before the year 10000 once its offset or time zone is applied`);
    else return ms;
    return undefined;
  };
  const from = instant('dateFrom');
  const to = instant('dateTo');
  if (from !== undefined && to !== undefined && from >= to) {
    problems.add('dateFrom', 'dateFrom must be earlier than dateTo (dateTo is exclusive)');
    problems.add('dateTo', 'dateTo must be later than dateFrom (dateTo is exclusive)');
  }
  const pathPrefix = problems.string(raw, 'pathPrefix');
  if (pathPrefix !== undefined && (!pathPrefix.startsWith('/') || pathPrefix.length > PATH_PREFIX_MAX)) {
    problems.add('pathPrefix', `pathPrefix must start with "/" and be at most ${PATH_PREFIX_MAX} characters`);
  }
  return { from, to, timeZone, pathPrefix: pathPrefix && pathPrefix !== '/' ? pathPrefix : undefined };
}

export function readPageQuery(raw: Record<string, unknown>, problems: QueryProblems): PageQuery {
  return { limit: problems.integer(raw, 'limit', 1, LIMIT_MAX, LIMIT_DEFAULT), offset: problems.integer(raw, 'offset', 0, Number.MAX_SAFE_INTEGER, 0) };
}

/** Validates the visitors report's query string; throws one 400 listing every bad field. */
export function parseVisitorsQuery(raw: Record<string, unknown>): VisitorsQuery {
  const problems = new QueryProblems();
  const query = { ...readAnalyticsQuery(raw, problems), ...readPageQuery(raw, problems) };
  problems.throwIfAny();
  return query;
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

import { isIP } from 'node:net';
import { ErrorDetail } from '../common/api-error';
import { MAX_SIGNATURE_AGENT_LENGTH, parseSignatureAgent } from './classifier/signature-agent';

import { InvalidInput } from '../common/domain-errors';
import { MAX_HITS_PER_REQUEST, MAX_PATH_LENGTH, MAX_REFERRER_LENGTH, MAX_USER_AGENT_LENGTH, MAX_VISITOR_ID_LENGTH } from '../common/limits';

export { MAX_HITS_PER_REQUEST, MAX_PATH_LENGTH, MAX_REFERRER_LENGTH, MAX_USER_AGENT_LENGTH, MAX_VISITOR_ID_LENGTH };
/** Clocks drift; a hit stamped further ahead than this is a bug in the sender. */
export const MAX_FUTURE_MS = 5 * 60 * 1000;
/**
 * The earliest hit stored: the lower bound of ClickHouse's DateTime64 (a current LTS server silently
 * clamps anything older to it, so accepting older times would store a wrong one). Any later past time
 * is accepted, as the contract asks: importers backfill old logs.
 */
export const MIN_TIMESTAMP_MS = Date.UTC(1900, 0, 1);
export const MIN_TIMESTAMP_ISO = '1900-01-01T00:00:00.000Z';
/** Only the first errors are listed: a 1,000-hit batch with one systematic mistake would otherwise answer 1,000 details. */
const MAX_DETAILS = 50;

/** One hit after validation: normalized, ready to classify and store. */
export interface HitInput {
  timestampMs: number;
  path: string;
  userAgent: string;
  ip?: string;
  visitorId?: string;
  referrerHost: string;
  /** The URL's utm_source ('' when absent): the one query parameter kept. */
  utmSource: string;
  /** The Web Bot Auth directories a Signature-Agent header named (classification.md §2). */
  signatureAgent?: string[];
}

const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

/**
 * Parses an ISO 8601 date or date-time; no offset means UTC (as in the visitors API). Returns epoch
 * milliseconds, or undefined for anything else, including impossible dates such as 2026-02-30
 * that Date.parse would silently roll over.
 */
export function parseTimestamp(value: string): number | undefined {
  const m = ISO_8601.exec(value);
  if (!m) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', zone = 'Z'] = m;
  const year = Number(y), month = Number(mo), day = Number(d), hour = Number(h), minute = Number(mi), second = Number(s);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  // Not Date.UTC(year, ...): it maps years 0–99 to 1900–1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, Number(frac.padEnd(3, '0').slice(0, 3)));
  if (date.getUTCDate() !== day) return undefined;
  const local = date.getTime();
  let offsetMinutes = 0;
  if (zone.toUpperCase() !== 'Z') {
    const digits = zone.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2)), om = Number(digits.slice(2) || '0');
    if (oh > 23 || om > 59) return undefined;
    offsetMinutes = (zone[0] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  return local - offsetMinutes * 60_000;
}

/** Drops the query string and fragment; undefined unless the result starts with `/`. */
export function normalizePath(value: string): string | undefined {
  const end = value.search(/[?#]/);
  const path = end === -1 ? value : value.slice(0, end);
  return path.startsWith('/') ? path : undefined;
}

/** The beacon sends location.href or a path: take the URL's pathname either way. */
export function pathFromUrlOrPath(value: string): string | undefined {
  if (value.startsWith('/')) return normalizePath(value);
  if (!/^https?:\/\//i.test(value)) return undefined;
  try {
    return new URL(value).pathname;
  } catch {
    return undefined;
  }
}

export const MAX_UTM_SOURCE_LENGTH = 256;

/**
 * The `utm_source` of a path or URL (assistants such as ChatGPT tag their links with it), read before
 * the query string is dropped; '' when absent, cut to 256 characters.
 */
export function utmSource(value: unknown): string {
  if (typeof value !== 'string') return '';
  const hash = value.indexOf('#');
  const url = hash === -1 ? value : value.slice(0, hash);
  const start = url.indexOf('?');
  if (start === -1 || !url.includes('utm_source', start)) return '';
  const query = url.slice(start + 1);
  const source = new URLSearchParams(query).get('utm_source')?.trim() ?? '';
  return source.slice(0, MAX_UTM_SOURCE_LENGTH);
}

/** Only the referrer's host is kept; a referrer that is not a URL (log lines say "-") keeps nothing. */
export function referrerHost(value: string | undefined): string {
  if (!value || !value.includes('://')) return '';
  try {
    return new URL(value).hostname;
  } catch {
    return '';
  }
}

class Problems {
  readonly details: ErrorDetail[] = [];
  add(field: string, message: string): void {
    if (this.details.length < MAX_DETAILS) this.details.push({ field, message: `${field} ${message}` });
  }
  throwIfAny(): void {
    if (this.details.length === 0) return;
    const fields = [...new Set(this.details.map((d) => d.field))];
    throw new InvalidInput(`Invalid ${fields.slice(0, 5).join(', ')}${fields.length > 5 ? ', …' : ''}.`, this.details);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const absent = (v: unknown): boolean => v === undefined || v === null;

/**
 * ClickHouse refuses a lone UTF-16 surrogate (`"\ud800"` in JSON: CANNOT_PARSE_ESCAPE_SEQUENCE) and
 * stores a lone low one as invalid UTF-8; either way the text is not Unicode, so it is refused here.
 */
const NOT_UNICODE = 'must be well-formed Unicode (it contains a lone UTF-16 surrogate)';

function optionalString(problems: Problems, field: string, value: unknown, max: number): string | undefined {
  if (absent(value)) return undefined;
  if (typeof value !== 'string') return problems.add(field, 'must be a string'), undefined;
  if (value.length > max) return problems.add(field, `must be at most ${max} characters`), undefined;
  if (!value.isWellFormed()) return problems.add(field, NOT_UNICODE), undefined;
  return value;
}

function requiredPath(problems: Problems, field: string, value: unknown, parse: (v: string) => string | undefined, rule: string): string {
  if (typeof value !== 'string') return problems.add(field, 'must be a string'), '';
  if (!value.isWellFormed()) return problems.add(field, NOT_UNICODE), '';
  const path = parse(value);
  if (path === undefined) return problems.add(field, rule), '';
  if (path.length > MAX_PATH_LENGTH) return problems.add(field, `must be at most ${MAX_PATH_LENGTH} characters without its query string`), '';
  return path;
}

function parseHit(problems: Problems, i: number, raw: unknown, nowMs: number, defaultTimestampMs: number): HitInput {
  const at = `hits[${i}]`;
  if (!isObject(raw)) {
    problems.add(at, 'must be an object');
    return { timestampMs: nowMs, path: '', userAgent: '', referrerHost: '', utmSource: '' };
  }

  let timestampMs = defaultTimestampMs;
  if (!absent(raw.timestamp)) {
    const parsed = typeof raw.timestamp === 'string' ? parseTimestamp(raw.timestamp) : undefined;
    if (parsed === undefined) problems.add(`${at}.timestamp`, 'must be an ISO 8601 date-time, e.g. 2026-11-21T10:00:00.000Z');
    else if (parsed > nowMs + MAX_FUTURE_MS) problems.add(`${at}.timestamp`, 'must not be more than 5 minutes in the future');
    else if (parsed < MIN_TIMESTAMP_MS) problems.add(`${at}.timestamp`, `must not be before ${MIN_TIMESTAMP_ISO}, the earliest time the store holds`);
    else timestampMs = parsed;
  }

  const path = requiredPath(problems, `${at}.path`, raw.path, normalizePath, 'must start with "/"');

  let userAgent = '';
  if (typeof raw.userAgent !== 'string') problems.add(`${at}.userAgent`, 'must be a string (possibly empty)');
  else if (raw.userAgent.length > MAX_USER_AGENT_LENGTH) problems.add(`${at}.userAgent`, `must be at most ${MAX_USER_AGENT_LENGTH} characters`);
  else if (!raw.userAgent.isWellFormed()) problems.add(`${at}.userAgent`, NOT_UNICODE);
  else userAgent = raw.userAgent;

  let ip: string | undefined;
  if (!absent(raw.ip)) {
    if (typeof raw.ip === 'string' && isIP(raw.ip) !== 0) ip = raw.ip;
    else problems.add(`${at}.ip`, 'must be an IPv4 or IPv6 address');
  }

  let signatureAgent: string[] | undefined;
  if (!absent(raw.signatureAgent)) {
    if (typeof raw.signatureAgent !== 'string') problems.add(`${at}.signatureAgent`, 'must be a string');
    else if (raw.signatureAgent.length > MAX_SIGNATURE_AGENT_LENGTH) problems.add(`${at}.signatureAgent`, `must be at most ${MAX_SIGNATURE_AGENT_LENGTH} characters`);
    else {
      signatureAgent = parseSignatureAgent(raw.signatureAgent);
      if (!signatureAgent) problems.add(`${at}.signatureAgent`, 'must be a Signature-Agent header value, e.g. "https://chatgpt.com" (quotes included)');
    }
  }

  // An empty visitorId (an unset cookie forwarded as-is) identifies nobody: treat it as absent.
  const visitorId = optionalString(problems, `${at}.visitorId`, raw.visitorId, MAX_VISITOR_ID_LENGTH) || undefined;
  const referrer = optionalString(problems, `${at}.referrer`, raw.referrer, MAX_REFERRER_LENGTH);

  return { timestampMs, path, userAgent, ip, visitorId, referrerHost: referrerHost(referrer), utmSource: utmSource(raw.path), signatureAgent };
}

/**
 * Validates `{ hits: [...] }` by hand: class-validator took ~20–35 ms per 1,000-hit batch (warm),
 * this takes ~1 ms. Any invalid hit rejects the whole request, details naming `hits[i].field`.
 * A hit without a timestamp gets `defaultTimestampMs` (a retried keyed batch: its first attempt's time).
 */
export function parseIngestBody(body: unknown, nowMs: number, defaultTimestampMs = nowMs): HitInput[] {
  const problems = new Problems();
  if (!isObject(body) || !Array.isArray(body.hits)) {
    problems.add('hits', 'must be an array of hits');
    problems.throwIfAny();
  }
  const raw = (body as { hits: unknown[] }).hits;
  if (raw.length < 1 || raw.length > MAX_HITS_PER_REQUEST) {
    problems.add('hits', `must contain between 1 and ${MAX_HITS_PER_REQUEST} hits (got ${raw.length})`);
    problems.throwIfAny();
  }
  const hits = raw.map((hit, i) => parseHit(problems, i, hit, nowMs, defaultTimestampMs));
  problems.throwIfAny();
  return hits;
}

/** The browser beacon's `{ path, referrer? }`; path may be a full URL (location.href). */
export function parseCollectBody(body: unknown, nowMs: number): Omit<HitInput, 'userAgent' | 'ip'> {
  const problems = new Problems();
  if (!isObject(body)) {
    problems.add('path', 'is required: send { "path": "/page" }');
    problems.throwIfAny();
  }
  const b = body as Record<string, unknown>;
  const path = requiredPath(problems, 'path', b.path, pathFromUrlOrPath, 'must be a path starting with "/" or an http(s) URL');
  const referrer = optionalString(problems, 'referrer', b.referrer, MAX_REFERRER_LENGTH);
  problems.throwIfAny();
  return { timestampMs: nowMs, path, referrerHost: referrerHost(referrer), utmSource: utmSource(b.path) };
}

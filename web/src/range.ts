import type { Interval } from './api';

export type Preset = 'today' | '7d' | '30d' | 'month' | 'custom';
export const PRESETS: Array<{ value: Preset; label: string }> = [
  { value: 'today', label: 'Today' },
  { value: '7d', label: 'Last 7 days' },
  { value: '30d', label: 'Last 30 days' },
  { value: 'month', label: 'This month' },
  { value: 'custom', label: 'Custom range' },
];

/**
 * A window of whole days in the chosen time zone. Dates are YYYY-MM-DD wall-clock dates: the API
 * reads a date-only value as midnight in `timezone`, so the browser never converts time zones.
 */
export interface Window {
  dateFrom: string; // inclusive
  dateTo: string; // exclusive
  interval: Interval;
  label: string;
}

const DAY = 86_400_000;

function parse(date: string): number {
  return Date.UTC(+date.slice(0, 4), +date.slice(5, 7) - 1, +date.slice(8, 10));
}
function format(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
export function addDays(date: string, days: number): string {
  return format(parse(date) + days * DAY);
}
export function daysBetween(from: string, to: string): number {
  return Math.round((parse(to) - parse(from)) / DAY);
}
function addMonths(date: string, months: number): string {
  const d = new Date(parse(date));
  return format(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1));
}

export function isDate(s: string | null | undefined): s is string {
  return !!s && /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(parse(s));
}

/** Today's date on the wall clock of `timezone`. */
export function today(timezone: string, now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

export function intervalFor(days: number): Interval {
  if (days <= 1) return 'hour';
  if (days <= 92) return 'day';
  if (days <= 730) return 'week';
  return 'month';
}

const dayLabel = (d: string, withYear = false) =>
  new Date(parse(d)).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: withYear ? 'numeric' : undefined, timeZone: 'UTC' });

export function resolveWindow(preset: Preset, timezone: string, from?: string | null, to?: string | null, now = new Date()): Window {
  const t = today(timezone, now);
  switch (preset) {
    case 'today':
      return { dateFrom: t, dateTo: addDays(t, 1), interval: 'hour', label: 'Today' };
    case '7d':
      return { dateFrom: addDays(t, -6), dateTo: addDays(t, 1), interval: 'day', label: 'Last 7 days' };
    case '30d':
      return { dateFrom: addDays(t, -29), dateTo: addDays(t, 1), interval: 'day', label: 'Last 30 days' };
    case 'month': {
      const first = `${t.slice(0, 8)}01`;
      return { dateFrom: first, dateTo: addMonths(first, 1), interval: 'day', label: new Date(parse(first)).toLocaleDateString('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' }) };
    }
    case 'custom': {
      const a = isDate(from) ? from : addDays(t, -6);
      const b = isDate(to) && to >= a ? to : a; // `to` is inclusive in the picker
      const days = daysBetween(a, b) + 1;
      return { dateFrom: a, dateTo: addDays(b, 1), interval: intervalFor(days), label: a === b ? dayLabel(a, true) : `${dayLabel(a)} – ${dayLabel(b, true)}` };
    }
  }
}

/** The period just before, of the same length (the previous calendar month for "this month"). */
export function previousWindow(preset: Preset, w: Window): Window {
  if (preset === 'month') {
    const from = addMonths(w.dateFrom, -1);
    return { ...w, dateFrom: from, dateTo: w.dateFrom };
  }
  const days = daysBetween(w.dateFrom, w.dateTo);
  return { ...w, dateFrom: addDays(w.dateFrom, -days), dateTo: w.dateFrom };
}

export function timezones(): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (k: string) => string[] };
  const list = intl.supportedValuesOf?.('timeZone') ?? [];
  return list.includes('UTC') ? list : ['UTC', ...list];
}

export function localTimezone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

import { ceilDay, DAY_MS, floorDay } from './visitors.params';

/** Months that hold a project's rollup rows, as YYYYMM. */
export interface DataExtent {
  firstMonth: number;
  lastMonth: number;
}

/** A half-open window [from, to) in epoch ms. */
export interface Window {
  from: number;
  to: number;
}

/**
 * How to answer one range:
 * - `empty`: nothing can match;
 * - `raw`: no whole UTC day inside the range, or a range short enough that hits are cheaper, so count straight from hits;
 * - `rollup`: whole days from the monthly rollups (`whole`: a day bitmask per month of `months`), plus
 *   the partial edge days from hits (`edges`; `edge` marks their day bits so only rows seen on those
 *   days look them up).
 */
export type Plan =
  | { kind: 'empty' }
  | { kind: 'raw'; window: Window }
  | { kind: 'rollup'; months: number[]; whole: bigint[]; edge: bigint[]; edges: [Window, Window] };

const NO_WINDOW: Window = { from: 0, to: 0 };

export function yyyymm(ms: number): number {
  const d = new Date(ms);
  return d.getUTCFullYear() * 100 + d.getUTCMonth() + 1;
}

function monthStart(month: number): number {
  return Date.UTC(Math.floor(month / 100), (month % 100) - 1, 1);
}

function nextMonth(month: number): number {
  return month % 100 === 12 ? month + 89 : month + 1;
}

/** The bit a day has in its month's mask in the rollups (clickhouse/0002_visits.sql). */
export function dayBit(dayMs: number): bigint {
  return 1n << BigInt(new Date(dayMs).getUTCDate() - 1);
}

/** The months (YYYYMM) a range touches. */
export function monthsBetween(from: number, to: number): number[] {
  const months: number[] = [];
  for (let m = yyyymm(from), last = yyyymm(to - 1); m <= last; m = nextMonth(m)) months.push(m);
  return months;
}

/** True when the range is worth clamping to the project's data first: an open bound, or more than two months. */
export function needsExtent(range: { from?: number; to?: number }): boolean {
  return range.from === undefined || range.to === undefined || monthsBetween(range.from, range.to).length > 2;
}

/**
 * Up to this span, reading hits by primary key (project, day, …) is cheaper than the month's rollup
 * rows: raw cost grows with the window, rollup cost with the month (bench/visitors.ts: a 10:30 → 10:30
 * three-day window took 486 ms through the rollups, 143 ms from hits; a plain scan of those days 106 ms).
 */
export const RAW_WINDOW_MS = 10 * DAY_MS;

/**
 * Plans [from, to), clamped to the months that hold data (exact: nothing lies outside them).
 * `extent` undefined means "not looked up": the range is taken as given (both bounds required).
 * `extent` null means the project has no countable hits.
 */
export function planRange(range: { from?: number; to?: number }, extent: DataExtent | null | undefined, rawWindowMs = RAW_WINDOW_MS): Plan {
  if (extent === null) return { kind: 'empty' };
  let from = range.from ?? -Infinity;
  let to = range.to ?? Infinity;
  if (extent) {
    from = Math.max(from, monthStart(extent.firstMonth));
    to = Math.min(to, monthStart(nextMonth(extent.lastMonth)));
  }
  if (!Number.isFinite(from) || !Number.isFinite(to)) throw new Error('planRange needs the data extent for an open range');
  if (from >= to) return { kind: 'empty' };

  const wholeFrom = ceilDay(from);
  const wholeTo = floorDay(to);
  if (wholeFrom >= wholeTo || to - from <= rawWindowMs) return { kind: 'raw', window: { from, to } };

  const months = monthsBetween(from, to);
  const whole = months.map(() => 0n);
  const edge = months.map(() => 0n);
  const mark = (masks: bigint[], day: number) => {
    masks[months.indexOf(yyyymm(day))] |= dayBit(day);
  };
  for (let day = wholeFrom; day < wholeTo; day += DAY_MS) mark(whole, day);
  const low = from < wholeFrom ? { from, to: wholeFrom } : NO_WINDOW;
  const high = wholeTo < to ? { from: wholeTo, to } : NO_WINDOW;
  if (low !== NO_WINDOW) mark(edge, floorDay(from));
  if (high !== NO_WINDOW) mark(edge, wholeTo);

  return { kind: 'rollup', months, whole, edge, edges: [low, high] };
}

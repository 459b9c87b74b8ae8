import { DAY_MS } from '../common/time';

/**
 * How the insights queries read the quarter-hour rollups (clickhouse/0010_insight_rollups.sql):
 * whole quarter-hours of the window come from the rollups (a bitmask per UTC day), the partial
 * quarters at its two edges from hits.
 */

export const QUARTER_MS = 900_000;

export interface Window {
  from: number;
  to: number;
}

export interface QuarterPlan {
  /** UTC days (YYYY-MM-DD) the whole quarters cover, in order. */
  days: string[];
  /** Per day, the bitmask of its quarters inside the window. */
  whole: bigint[];
  /** [from, first whole quarter) and [end of the last whole quarter, to); empty windows have from = to. */
  edges: [Window, Window];
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const quarterBit = (ms: number) => 1n << BigInt(Math.floor((ms % DAY_MS) / QUARTER_MS));

/** The plan for [from, to), or undefined when the window holds no whole quarter-hour (read hits). */
export function planQuarters(from: number, to: number): QuarterPlan | undefined {
  const qFrom = Math.ceil(from / QUARTER_MS) * QUARTER_MS;
  const qTo = Math.floor(to / QUARTER_MS) * QUARTER_MS;
  if (qFrom >= qTo) return undefined;
  const days: string[] = [];
  const whole: bigint[] = [];
  for (let day = Math.floor(qFrom / DAY_MS) * DAY_MS; day < qTo; day += DAY_MS) {
    const lo = Math.max(day, qFrom), hi = Math.min(day + DAY_MS, qTo);
    days.push(dayOf(day));
    whole.push(maskBetween(lo, hi));
  }
  return { days, whole, edges: [{ from, to: qFrom }, { from: qTo, to }] };
}

/** Quarters [lo, hi) of one UTC day as a bitmask (lo, hi quarter-aligned, hi ≤ the day's end). */
function maskBetween(lo: number, hi: number): bigint {
  if (hi <= lo) return 0n;
  const n = BigInt((hi - lo) / QUARTER_MS);
  return ((1n << n) - 1n) * quarterBit(lo);
}

/** True when every bucket boundary falls on a quarter-hour, so buckets are unions of whole quarters. */
export function quarterAligned(starts: number[]): boolean {
  return starts.every((s) => s % QUARTER_MS === 0);
}

/**
 * For each day of the plan, the buckets its whole quarters fall in and their masks:
 * `index[d][k]` is a bucket index, `masks[d][k]` its quarters on day d.
 */
export function bucketMasks(plan: QuarterPlan, starts: number[], to: number): { index: number[][]; masks: bigint[][] } {
  const index: number[][] = [];
  const masks: bigint[][] = [];
  let b = 0;
  plan.days.forEach((day, d) => {
    const dayStart = Date.parse(`${day}T00:00:00Z`);
    index.push([]);
    masks.push([]);
    while (b + 1 < starts.length && starts[b + 1] <= dayStart) b++;
    for (let i = b; i < starts.length && starts[i] < dayStart + DAY_MS; i++) {
      const lo = Math.max(starts[i], dayStart), hi = Math.min(i + 1 < starts.length ? starts[i + 1] : to, dayStart + DAY_MS);
      const mask = maskBetween(Math.ceil(lo / QUARTER_MS) * QUARTER_MS, Math.floor(hi / QUARTER_MS) * QUARTER_MS) & plan.whole[d];
      if (mask !== 0n) {
        index[d].push(i);
        masks[d].push(mask);
      }
    }
  });
  return { index, masks };
}

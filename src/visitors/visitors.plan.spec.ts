import { RAW_WINDOW_MS, dayBit, monthsBetween, needsExtent, planRange } from './visitors.plan';

const T = (iso: string) => Date.parse(iso);
const bits = (...days: string[]) => days.reduce((m, d) => m | dayBit(T(d)), 0n);

describe('planRange', () => {
  it('marks day d of a month as bit d - 1', () => {
    expect(dayBit(T('2026-01-01'))).toBe(1n);
    expect(dayBit(T('2026-01-31T23:59:59.999Z'))).toBe(1n << 30n);
  });

  it('serves whole days from the rollups and partial edge days from hits', () => {
    const plan = planRange({ from: T('2026-03-10T08:00:00Z'), to: T('2026-03-12T08:00:00Z') }, undefined, 0);
    expect(plan).toEqual({
      kind: 'rollup', months: [202603],
      whole: [bits('2026-03-11')], edge: [bits('2026-03-10', '2026-03-12')],
      edges: [{ from: T('2026-03-10T08:00:00Z'), to: T('2026-03-11T00:00:00Z') }, { from: T('2026-03-12T00:00:00Z'), to: T('2026-03-12T08:00:00Z') }],
    });
  });

  it('keeps one mask per month', () => {
    const plan = planRange({ from: T('2026-01-31T12:00:00Z'), to: T('2026-03-02') }, { firstMonth: 202601, lastMonth: 202603 }, 0);
    expect(plan).toEqual({
      kind: 'rollup', months: [202601, 202602, 202603],
      whole: [0n, (1n << 28n) - 1n, bits('2026-03-01')], edge: [bits('2026-01-31'), 0n, 0n],
      edges: [{ from: T('2026-01-31T12:00:00Z'), to: T('2026-02-01') }, { from: 0, to: 0 }],
    });
  });

  it('uses raw hits when no whole day is inside, and nothing when the range misses the data', () => {
    expect(planRange({ from: T('2026-03-10T08:00:00Z'), to: T('2026-03-11T07:00:00Z') }, undefined)).toEqual({ kind: 'raw', window: { from: T('2026-03-10T08:00:00Z'), to: T('2026-03-11T07:00:00Z') } });
    expect(planRange({}, null)).toEqual({ kind: 'empty' });
    expect(planRange({ from: T('2027-01-01') }, { firstMonth: 202601, lastMonth: 202603 })).toEqual({ kind: 'empty' });
  });

  it('reads hits for a window up to RAW_WINDOW_MS long, the rollups beyond it', () => {
    const from = T('2026-03-10T10:30:00Z');
    expect(planRange({ from, to: from + RAW_WINDOW_MS }, undefined)).toEqual({ kind: 'raw', window: { from, to: from + RAW_WINDOW_MS } });
    expect(planRange({ from, to: from + RAW_WINDOW_MS + 1 }, undefined)).toMatchObject({ kind: 'rollup', months: [202603] });
  });

  it('clamps open and wide ranges to the months holding data', () => {
    expect(planRange({}, { firstMonth: 202602, lastMonth: 202603 })).toMatchObject({ kind: 'rollup', months: [202602, 202603], edges: [{ from: 0, to: 0 }, { from: 0, to: 0 }] });
    expect(planRange({ from: T('2020-01-01T10:00:00Z'), to: T('2030-01-01') }, { firstMonth: 202612, lastMonth: 202701 })).toMatchObject({ kind: 'rollup', months: [202612, 202701] });
    expect(needsExtent({ from: 0 })).toBe(true);
    expect(needsExtent({ from: T('2026-01-01'), to: T('2026-03-01') })).toBe(false);
    expect(needsExtent({ from: T('2026-01-01'), to: T('2026-03-01T00:00:00.001Z') })).toBe(true);
    expect(monthsBetween(T('2025-11-30'), T('2026-02-01'))).toEqual([202511, 202512, 202601]);
  });
});

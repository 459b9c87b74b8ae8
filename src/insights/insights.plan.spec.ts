import { bucketMasks, planQuarters, quarterAligned } from './insights.plan';

const T = (iso: string) => Date.parse(iso);
const ones = (n: number) => (1n << BigInt(n)) - 1n;

describe('planQuarters', () => {
  it('covers whole quarters from the rollups and leaves the partial edges to hits', () => {
    const plan = planQuarters(T('2026-03-10T10:31:00Z'), T('2026-03-11T00:20:00Z'))!;
    expect(plan.days).toEqual(['2026-03-10', '2026-03-11']);
    expect(plan.whole).toEqual([ones(96) - ones(43), 1n]); // 10:45 → 24:00, then 00:00 → 00:15
    expect(plan.edges).toEqual([{ from: T('2026-03-10T10:31:00Z'), to: T('2026-03-10T10:45:00Z') }, { from: T('2026-03-11T00:15:00Z'), to: T('2026-03-11T00:20:00Z') }]);
  });

  it('has no edges on aligned windows and no plan inside one quarter', () => {
    const plan = planQuarters(T('2026-03-01'), T('2026-04-01'))!;
    expect(plan.days).toHaveLength(31);
    expect(plan.whole.every((m) => m === ones(96))).toBe(true);
    expect(plan.edges.every((e) => e.from === e.to)).toBe(true);
    expect(planQuarters(T('2026-03-01T10:01:00Z'), T('2026-03-01T10:14:00Z'))).toBeUndefined();
  });
});

describe('bucketMasks', () => {
  it('splits each UTC day among the zone\'s buckets (Kolkata days start at 18:30 UTC)', () => {
    const starts = [T('2026-03-09T18:30:00Z'), T('2026-03-10T18:30:00Z')];
    const plan = planQuarters(starts[0], T('2026-03-11T18:30:00Z'))!;
    const { index, masks } = bucketMasks(plan, starts, T('2026-03-11T18:30:00Z'));
    expect(plan.days).toEqual(['2026-03-09', '2026-03-10', '2026-03-11']);
    expect(index).toEqual([[0], [0, 1], [1]]);
    expect(masks).toEqual([[ones(96) - ones(74)], [ones(74), ones(96) - ones(74)], [ones(74)]]);
    expect(quarterAligned(starts)).toBe(true);
    expect(quarterAligned([T('2026-03-09T18:31:00Z')])).toBe(false);
  });
});

import { assistantOfHost } from './ai-assistants';
import type { BreakdownRowView, BreakdownTotalsView, BucketView } from './insights.dto';
import type { Dimension } from './insights.params';
import type { BreakdownCountsRow, BreakdownRow, BucketRow } from './insights.repository';

const EMPTY_BUCKET = { human: 0, ai: 0, total: 0, hits_human: 0, hits_ai: 0, hits_bot: 0 };

/** Every bucket start, in order, with its row (by bucket index) or zeros. */
export function toBuckets(starts: number[], rows: BucketRow[]): BucketView[] {
  const byIndex = new Map(rows.map((r) => [Number(r.bucket), r]));
  return starts.map((start, i) => {
    const r = byIndex.get(i) ?? EMPTY_BUCKET;
    return {
      start: new Date(start).toISOString(),
      human: Number(r.human), ai: Number(r.ai), total: Number(r.total),
      hits: { human: Number(r.hits_human), ai: Number(r.hits_ai), bot: Number(r.hits_bot) },
    };
  });
}

export function toBreakdownTotals(row: BreakdownCountsRow): BreakdownTotalsView {
  return { human: Number(row.human), ai: Number(row.ai), total: Number(row.total), hits: Number(row.hits) };
}

export function toBreakdownRow(by: Dimension, row: BreakdownRow): BreakdownRowView {
  const view: BreakdownRowView = { value: row.value, ...toBreakdownTotals(row) };
  if (by === 'agent') {
    return {
      value: row.value, operator: row.operator ?? '', category: row.category ?? '', ...toBreakdownTotals(row),
      verification: { verified: Number(row.verified), unverified: Number(row.unverified), unknown: Number(row.unknown) },
    };
  }
  if (by === 'operator') {
    const referred = Number(row.referred);
    return { ...view, referred, crawlsPerReferral: referred === 0 ? null : view.hits / referred };
  }
  if (by === 'referrer') return { ...view, aiAssistant: assistantOfHost(row.value)?.name ?? null };
  return view;
}

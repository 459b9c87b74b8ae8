import type { PathVisitorsView, VisitorCountsView } from './visitors.dto';
import type { CountsRow, PathCountsRow } from './visitors.repository';

export function toCounts(row: CountsRow): VisitorCountsView {
  return { human: Number(row.human), ai: Number(row.ai), total: Number(row.total) };
}

export function toPathVisitors(row: PathCountsRow): PathVisitorsView {
  return { path: row.path, ...toCounts(row) };
}

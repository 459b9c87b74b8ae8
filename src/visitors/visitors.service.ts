import { Injectable } from '@nestjs/common';
import type { VisitorsReportView } from './visitors.dto';
import { toCounts, toPathVisitors } from './visitors.mapper';
import type { VisitorsQuery } from './visitors.params';
import { needsExtent, planRange } from './visitors.plan';
import { VisitorsRepository } from './visitors.repository';

@Injectable()
export class VisitorsService {
  constructor(private readonly visitors: VisitorsRepository) {}

  async report(projectId: string, query: VisitorsQuery): Promise<VisitorsReportView> {
    const extent = needsExtent(query) ? await this.visitors.extent(projectId) : undefined;
    const plan = planRange(query, extent);
    if (plan.kind === 'empty') return { totals: { human: 0, ai: 0, total: 0 }, visitors: [], hasMore: false };
    const [totals, rows] = await Promise.all([
      this.visitors.totals(projectId, plan),
      this.visitors.page(projectId, plan, query.limit + 1, query.offset),
    ]);
    return { totals: toCounts(totals), visitors: rows.slice(0, query.limit).map(toPathVisitors), hasMore: rows.length > query.limit };
  }
}

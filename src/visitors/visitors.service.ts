import { Injectable } from '@nestjs/common';
import { Metrics } from '../metrics/metrics';
import type { VisitorsReportView } from './visitors.dto';
import { toCounts, toPathVisitors } from './visitors.mapper';
import type { VisitorsQuery } from './visitors.params';
import { needsExtent, planRange } from './visitors.plan';
import { VisitorsRepository } from './visitors.repository';

@Injectable()
export class VisitorsService {
  constructor(
    private readonly visitors: VisitorsRepository,
    private readonly metrics: Metrics,
  ) {}

  async report(projectId: string, query: VisitorsQuery): Promise<VisitorsReportView> {
    const extent = needsExtent(query) ? await this.metrics.timeQuery('visitors_extent', () => this.visitors.extent(projectId)) : undefined;
    const plan = planRange(query, extent);
    if (plan.kind === 'empty') return { totals: { human: 0, ai: 0, total: 0 }, visitors: [], hasMore: false };
    const [totals, rows] = await Promise.all([
      this.metrics.timeQuery('visitors_totals', () => this.visitors.totals(projectId, plan, query.pathPrefix)),
      this.metrics.timeQuery('visitors_page', () => this.visitors.page(projectId, plan, query.pathPrefix, query.limit + 1, query.offset)),
    ]);
    return { totals: toCounts(totals), visitors: rows.slice(0, query.limit).map(toPathVisitors), hasMore: rows.length > query.limit };
  }
}

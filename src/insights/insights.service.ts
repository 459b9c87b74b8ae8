import { Injectable } from '@nestjs/common';
import { Metrics } from '../metrics/metrics';
import type { BreakdownView, TimeseriesView } from './insights.dto';
import { toBreakdownRow, toBreakdownTotals, toBuckets } from './insights.mapper';
import type { BreakdownQuery, TimeseriesQuery } from './insights.params';
import { InsightsRepository } from './insights.repository';

@Injectable()
export class InsightsService {
  constructor(
    private readonly insights: InsightsRepository,
    private readonly metrics: Metrics,
  ) {}

  async timeseries(projectId: string, query: TimeseriesQuery): Promise<TimeseriesView> {
    const filter = { projectId, from: query.from, to: query.to, pathPrefix: query.pathPrefix };
    const rows = await this.metrics.timeQuery('timeseries', () => this.insights.timeseries(filter, query.interval, query.timeZone));
    return { interval: query.interval, timezone: query.timeZone, buckets: toBuckets(query.starts, rows) };
  }

  async breakdown(projectId: string, query: BreakdownQuery): Promise<BreakdownView> {
    const filter = { projectId, from: query.from, to: query.to, pathPrefix: query.pathPrefix };
    const [totals, rows] = await Promise.all([
      this.metrics.timeQuery('breakdown_totals', () => this.insights.breakdownTotals(filter, query.by)),
      this.metrics.timeQuery('breakdown_rows', () => this.insights.breakdownRows(filter, query.by, query.limit + 1, query.offset)),
    ]);
    return {
      by: query.by,
      totals: toBreakdownTotals(totals),
      rows: rows.slice(0, query.limit).map((row) => toBreakdownRow(query.by, row)),
      hasMore: rows.length > query.limit,
    };
  }
}

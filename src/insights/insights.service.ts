import { Injectable } from '@nestjs/common';
import { Metrics } from '../metrics/metrics';
import type { BreakdownView, TimeseriesView } from './insights.dto';
import { toBreakdownRow, toBreakdownTotals, toBuckets } from './insights.mapper';
import type { BreakdownQuery, TimeseriesQuery } from './insights.params';
import { planQuarters, QuarterPlan, quarterAligned } from './insights.plan';
import { DAY_MS } from '../common/time';
import { InsightsRepository } from './insights.repository';


@Injectable()
export class InsightsService {
  constructor(
    private readonly insights: InsightsRepository,
    private readonly metrics: Metrics,
  ) {}

  async timeseries(projectId: string, query: TimeseriesQuery): Promise<TimeseriesView> {
    const filter = { projectId, from: query.from, to: query.to, pathPrefix: query.pathPrefix };
    // The rollups have no path: a path prefix reads hits (by primary key: day, then path).
    const plan = query.pathPrefix === undefined && quarterAligned(query.starts) ? planQuarters(query.from, query.to) : undefined;
    const buckets = { interval: query.interval, timeZone: query.timeZone, starts: query.starts, to: query.to };
    const rows = await this.metrics.timeQuery('timeseries', () => this.insights.timeseries(filter, buckets, plan));
    return { interval: query.interval, timezone: query.timeZone, buckets: toBuckets(query.starts, rows) };
  }

  async breakdown(projectId: string, query: BreakdownQuery): Promise<BreakdownView> {
    const filter = { projectId, from: query.from, to: query.to, pathPrefix: query.pathPrefix };
    const plan = query.pathPrefix === undefined ? await this.plan(projectId, query.from, query.to) : undefined;
    if (plan === null) return { by: query.by, totals: { human: 0, ai: 0, total: 0, hits: 0 }, rows: [], hasMore: false };
    const [totals, rows] = await Promise.all([
      this.metrics.timeQuery('breakdown_totals', () => this.insights.breakdownTotals(filter, query.by, plan)),
      this.metrics.timeQuery('breakdown_rows', () => this.insights.breakdownRows(filter, query.by, plan, query.limit + 1, query.offset)),
    ]);
    return {
      by: query.by,
      totals: toBreakdownTotals(totals),
      rows: rows.slice(0, query.limit).map((row) => toBreakdownRow(query.by, row)),
      hasMore: rows.length > query.limit,
    };
  }

  /** The rollup plan of a range, an open side bounded by the project's data; null when nothing can match. */
  private async plan(projectId: string, from: number | undefined, to: number | undefined): Promise<QuarterPlan | undefined | null> {
    if (from === undefined || to === undefined) {
      const extent = await this.metrics.timeQuery('insights_extent', () => this.insights.extent(projectId));
      if (!extent) return null;
      from = Math.max(from ?? -Infinity, extent.first);
      to = Math.min(to ?? Infinity, extent.last + DAY_MS);
      if (from >= to) return null;
    }
    return planQuarters(from, to);
  }
}

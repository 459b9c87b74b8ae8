import { Injectable } from '@nestjs/common';
import { csvField } from '../cli/export-visitors';
import { parseBreakdownQuery, parseTimeseriesQuery } from '../insights/insights.params';
import { InsightsService } from '../insights/insights.service';
import { LIMIT_MAX, parseVisitorsQuery } from '../visitors/visitors.params';
import { VisitorsService } from '../visitors/visitors.service';

export interface ReportSpec {
  projectId: string;
  timezone: string;
  format: 'csv' | 'json';
  from: Date;
  to: Date;
}

/**
 * A run's content, built from the same services the analytics API answers with: every page of
 * the visitors report (CSV path,human,ai,total), or JSON { window, totals, visitors, timeseries, agents }.
 */
@Injectable()
export class ReportContentBuilder {
  constructor(
    private readonly visitors: VisitorsService,
    private readonly insights: InsightsService,
  ) {}

  async build(spec: ReportSpec): Promise<string> {
    const window = { dateFrom: spec.from.toISOString(), dateTo: spec.to.toISOString() };
    const base = { ...window, timezone: spec.timezone };
    const rows = [];
    let totals = { human: 0, ai: 0, total: 0 };
    for (let offset = 0; ; offset += LIMIT_MAX) {
      const page = await this.visitors.report(spec.projectId, parseVisitorsQuery({ ...base, limit: String(LIMIT_MAX), offset: String(offset) }));
      totals = page.totals;
      rows.push(...page.visitors);
      if (!page.hasMore) break;
    }
    if (spec.format === 'csv') return `path,human,ai,total\n${rows.map((v) => `${csvField(v.path)},${v.human},${v.ai},${v.total}\n`).join('')}`;
    const timeseries = await this.insights.timeseries(spec.projectId, parseTimeseriesQuery({ ...base, interval: 'day' }, spec.to.getTime()));
    const agents = [];
    for (let offset = 0; ; offset += LIMIT_MAX) {
      const page = await this.insights.breakdown(spec.projectId, parseBreakdownQuery({ ...base, by: 'agent', limit: String(LIMIT_MAX), offset: String(offset) }));
      agents.push(...page.rows);
      if (!page.hasMore) break;
    }
    return JSON.stringify({ window: { ...window, timezone: spec.timezone }, totals, visitors: rows, timeseries: timeseries.buckets, agents });
  }
}

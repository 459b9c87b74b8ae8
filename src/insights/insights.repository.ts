import type { ClickHouseClient, ClickHouseSettings } from '@clickhouse/client';
import { Inject, Injectable } from '@nestjs/common';
import { CLICKHOUSE } from '../clickhouse/clickhouse.module';
import type { Interval } from '../common/time-zone';
import { Config } from '../config/config';
import { REFERRAL_MAPS } from './ai-assistants';
import type { Dimension } from './insights.params';

/** Numbers as ClickHouse returns them: numbers on chDB, possibly strings from a server. */
type Num = number | string;

export interface BucketRow {
  /** Bucket start, Unix seconds. */
  start: Num;
  human: Num;
  ai: Num;
  total: Num;
  hits_human: Num;
  hits_ai: Num;
  hits_bot: Num;
}

export interface BreakdownCountsRow {
  human: Num;
  ai: Num;
  total: Num;
  hits: Num;
}

export interface BreakdownRow extends BreakdownCountsRow {
  value: string;
  operator?: string;
  category?: string;
  verified?: Num;
  unverified?: Num;
  unknown?: Num;
  referred?: Num;
}

/** The filters every insights query takes: project, [from, to) (either side optional), path prefix. */
export interface Filter {
  projectId: string;
  from?: number;
  to?: number;
  pathPrefix?: string;
}

// Bucket starts in the caller's time zone; ClickHouse and Node's ICU read the same IANA rules.
const BUCKET: Record<Interval, string> = {
  hour: `toStartOfHour(timestamp, {timeZone:String})`,
  day: `toStartOfDay(timestamp, {timeZone:String})`,
  week: `toDateTime(toMonday(timestamp, {timeZone:String}), {timeZone:String})`,
  month: `toDateTime(toStartOfMonth(timestamp, {timeZone:String}), {timeZone:String})`,
};

// What was fetched, from the path's last segment (insights-and-delivery.md §3).
const FORMAT = `multiIf(
  endsWith(lower(path), '/llms.txt') OR endsWith(lower(path), '/llms-full.txt'), 'llms.txt',
  endsWith(lower(path), '.md') OR endsWith(lower(path), '.mdx'), 'markdown',
  endsWith(lower(path), '.html') OR endsWith(lower(path), '.htm')
    OR (position(splitByChar('/', path)[-1], '.') = 0 AND lower(splitByChar('/', path)[-1]) NOT IN ('feed', 'rss', 'atom', 'sitemap')), 'html',
  'other')`;

// The operator whose assistant referred a human hit: by referrer host, else by utm_source.
const REFERRAL_OPERATOR = `if(transform(referrer_host, {hosts:Array(String)}, {hostOperators:Array(String)}, '') != '',
  transform(referrer_host, {hosts:Array(String)}, {hostOperators:Array(String)}, ''),
  transform(lower(utm_source), {utmSources:Array(String)}, {utmOperators:Array(String)}, ''))`;
const IS_REFERRAL = `(referrer_host IN {hosts:Array(String)} OR lower(utm_source) IN {utmSources:Array(String)})`;

interface DimensionSql {
  value: string;
  classes: string;
  extra: string;
}

const COUNTS = `uniqExactIf(visitor_id, class = 'human') AS human, uniqExactIf(visitor_id, class = 'ai') AS ai, uniqExact(visitor_id) AS total, count() AS hits`;
const HUMAN = `class = 'human'`;
const AI = `class = 'ai'`;
const DIMENSIONS: Record<Exclude<Dimension, 'operator'>, DimensionSql> = {
  agent: {
    value: 'ai_agent', classes: AI,
    // max(): an agent stored before its operator was known ('') takes the operator it has since.
    extra: `, max(ai_operator) AS operator, max(ai_category) AS category,
      countIf(verification = 'verified') AS verified, countIf(verification = 'unverified') AS unverified, countIf(verification = 'unknown') AS unknown`,
  },
  category: { value: 'ai_category', classes: AI, extra: '' },
  referrer: { value: 'referrer_host', classes: HUMAN, extra: '' },
  source: { value: 'utm_source', classes: HUMAN, extra: '' },
  browser: { value: 'browser', classes: HUMAN, extra: '' },
  os: { value: 'os', classes: HUMAN, extra: '' },
  device: { value: 'device', classes: HUMAN, extra: '' },
  format: { value: FORMAT, classes: `class IN ('human', 'ai')`, extra: '' },
};

// Operators: AI hits by operator, plus the human hits their assistants referred, in one pass.
const OPERATOR_ROWS = `SELECT if(class = 'ai', ai_operator, ${REFERRAL_OPERATOR}) AS value,
  0 AS human, uniqExactIf(visitor_id, class = 'ai') AS ai, ai AS total, countIf(class = 'ai') AS hits,
  uniqExactIf(visitor_id, class = 'human') AS referred
FROM hits WHERE {where} AND (class = 'ai' OR (class = 'human' AND ${IS_REFERRAL}))
GROUP BY value`;

const ROW_ORDER = `ORDER BY total DESC, hits DESC, value ASC LIMIT {limit:UInt32} OFFSET {offset:UInt64}`;

/** 'YYYY-MM-DD hh:mm:ss.sss' in UTC, as DateTime64(3, 'UTC') parameters take it. */
function chTime(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
}

@Injectable()
export class InsightsRepository {
  private readonly limits: ClickHouseSettings;

  constructor(
    @Inject(CLICKHOUSE) private readonly client: ClickHouseClient,
    config: Config,
  ) {
    // A huge range fails with TIMEOUT_EXCEEDED / MEMORY_LIMIT_EXCEEDED (→ 503) instead of taking the process down.
    this.limits = { max_execution_time: config.QUERY_MAX_EXECUTION_SECONDS, max_memory_usage: String(config.QUERY_MAX_MEMORY_BYTES) };
  }

  /** Visitors and hits per bucket; buckets without hits are absent. */
  async timeseries(filter: Filter, interval: Interval, timeZone: string): Promise<BucketRow[]> {
    const [where, params] = this.where(filter);
    const sql = `SELECT toUnixTimestamp(${BUCKET[interval]}) AS start,
  uniqExactIf(visitor_id, class = 'human') AS human, uniqExactIf(visitor_id, class = 'ai') AS ai, uniqExactIf(visitor_id, class != 'bot') AS total,
  countIf(class = 'human') AS hits_human, countIf(class = 'ai') AS hits_ai, countIf(class = 'bot') AS hits_bot
FROM hits WHERE ${where} GROUP BY start`;
    return this.select<BucketRow>(sql, { ...params, timeZone });
  }

  /** Totals of a dimension over the whole filtered range. */
  async breakdownTotals(filter: Filter, by: Dimension): Promise<BreakdownCountsRow> {
    const [where, params] = this.where(filter);
    const classes = by === 'operator' ? AI : DIMENSIONS[by].classes;
    const [row] = await this.select<BreakdownCountsRow>(`SELECT ${COUNTS} FROM hits WHERE ${where} AND ${classes}`, params);
    return row;
  }

  /** Rows `offset` to `offset + limit` of a dimension, by total desc, hits desc, value asc. */
  async breakdownRows(filter: Filter, by: Dimension, limit: number, offset: number): Promise<BreakdownRow[]> {
    const [where, params] = this.where(filter);
    if (by === 'operator') {
      return this.select<BreakdownRow>(`${OPERATOR_ROWS.replace('{where}', where)} ${ROW_ORDER}`, { ...params, ...REFERRAL_MAPS, limit, offset });
    }
    const d = DIMENSIONS[by];
    const sql = `SELECT ${d.value} AS value, ${COUNTS}${d.extra} FROM hits WHERE ${where} AND ${d.classes} GROUP BY value ${ROW_ORDER}`;
    return this.select<BreakdownRow>(sql, { ...params, limit, offset });
  }

  private where(filter: Filter): [string, Record<string, unknown>] {
    const params: Record<string, unknown> = { projectId: filter.projectId };
    let where = 'project_id = {projectId:String}';
    if (filter.from !== undefined) {
      where += ` AND timestamp >= {from:DateTime64(3, 'UTC')}`;
      params.from = chTime(filter.from);
    }
    if (filter.to !== undefined) {
      where += ` AND timestamp < {to:DateTime64(3, 'UTC')}`;
      params.to = chTime(filter.to);
    }
    if (filter.pathPrefix !== undefined) {
      where += ' AND startsWith(path, {pathPrefix:String})';
      params.pathPrefix = filter.pathPrefix;
    }
    return [where, params];
  }

  private async select<T>(query: string, query_params: Record<string, unknown>): Promise<T[]> {
    const rs = await this.client.query({ query, query_params, format: 'JSONEachRow', clickhouse_settings: this.limits });
    return rs.json<T>();
  }
}

import type { ClickHouseClient, ClickHouseSettings } from '@clickhouse/client';
import { Inject, Injectable } from '@nestjs/common';
import { CLICKHOUSE } from '../clickhouse/clickhouse.module';
import { reportQueryLimits } from '../clickhouse/clickhouse.provider';
import type { Interval } from '../common/time-zone';
import { Config } from '../config/config';
import { REFERRAL_MAPS } from './ai-assistants';
import type { Dimension } from './insights.params';
import { toClickHouseTime } from '../common/time';
import { bucketMasks, QuarterPlan } from './insights.plan';

/** Numbers as ClickHouse returns them: numbers on chDB, possibly strings from a server. */
type Num = number | string;

export interface BucketRow {
  /** Index into the bucket starts. */
  bucket: Num;
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

/** The time series' buckets: starts (epoch ms, in order) and where the last one ends. */
export interface Buckets {
  interval: Interval;
  timeZone: string;
  starts: number[];
  to: number;
}

// Bucket starts in the caller's time zone; ClickHouse and Node's ICU read the same IANA rules.
const BUCKET: Record<Interval, string> = {
  hour: `toStartOfHour(timestamp, {timeZone:String})`,
  day: `toStartOfDay(timestamp, {timeZone:String})`,
  week: `toDateTime(toMonday(timestamp, {timeZone:String}), {timeZone:String})`,
  month: `toDateTime(toStartOfMonth(timestamp, {timeZone:String}), {timeZone:String})`,
};

// The operator whose assistant referred a human hit: by referrer host, else by utm_source.
const REFERRAL_OPERATOR = `if(transform(referrer_host, {hosts:Array(String)}, {hostOperators:Array(String)}, '') != '',
  transform(referrer_host, {hosts:Array(String)}, {hostOperators:Array(String)}, ''),
  transform(lower(utm_source), {utmSources:Array(String)}, {utmOperators:Array(String)}, ''))`;
const IS_REFERRAL = `(referrer_host IN {hosts:Array(String)} OR lower(utm_source) IN {utmSources:Array(String)})`;

const HUMAN = `class = 'human'`;
const AI = `class = 'ai'`;

/**
 * One dimension: its value over hits, the classes it counts, the rollup holding its visitors, and
 * what its rows add (read from hits, with the hit counts: none of it needs a visitor set).
 */
interface DimensionSql {
  value: string;
  classes: string;
  rollup: 'visitor_quarters' | 'ai_visitor_quarters' | 'human_visitor_quarters';
  /** Extra aggregates over hits, and their neutral values in the visitors branch. */
  extra: { hits: string; zero: string; outer: string };
}

const NO_EXTRA = { hits: '', zero: '', outer: '' };
const DIMENSIONS: Record<Exclude<Dimension, 'operator'>, DimensionSql> = {
  agent: {
    value: 'ai_agent', classes: AI, rollup: 'ai_visitor_quarters',
    // max(): an agent stored before its operator was known ('') takes the operator it has since.
    extra: {
      hits: `, max(ai_operator) AS operator, max(ai_category) AS category,
        countIf(verification = 'verified') AS verified, countIf(verification = 'unverified') AS unverified, countIf(verification = 'unknown') AS unknown`,
      zero: `, '' AS operator, '' AS category, 0 AS verified, 0 AS unverified, 0 AS unknown`,
      outer: `, max(operator) AS operator, max(category) AS category, sum(verified) AS verified, sum(unverified) AS unverified, sum(unknown) AS unknown`,
    },
  },
  category: { value: 'ai_category', classes: AI, rollup: 'ai_visitor_quarters', extra: NO_EXTRA },
  referrer: { value: 'referrer_host', classes: HUMAN, rollup: 'human_visitor_quarters', extra: NO_EXTRA },
  source: { value: 'utm_source', classes: HUMAN, rollup: 'human_visitor_quarters', extra: NO_EXTRA },
  browser: { value: 'browser', classes: HUMAN, rollup: 'human_visitor_quarters', extra: NO_EXTRA },
  os: { value: 'os', classes: HUMAN, rollup: 'human_visitor_quarters', extra: NO_EXTRA },
  device: { value: 'device', classes: HUMAN, rollup: 'human_visitor_quarters', extra: NO_EXTRA },
  // `format` is a materialized column of hits (clickhouse/0010_insight_rollups.sql).
  format: { value: 'format', classes: `class IN ('human', 'ai')`, rollup: 'visitor_quarters', extra: NO_EXTRA },
};
const ROLLUP_CLASS: Record<DimensionSql['rollup'], string> = { visitor_quarters: `CAST(class, 'String')`, ai_visitor_quarters: `'ai'`, human_visitor_quarters: `'human'` };

const VISITOR_COUNTS = `uniqExactIf(visitor_id, class = 'human') AS human, uniqExactIf(visitor_id, class = 'ai') AS ai, uniqExact(visitor_id) AS total`;
const RAW_COUNTS = `${VISITOR_COUNTS}, count() AS hits`;
const ROW_ORDER = `ORDER BY total DESC, hits DESC, value ASC LIMIT {limit:UInt32} OFFSET {offset:UInt64}`;

// The rollup rows a window covers: its UTC days, and on each the visitor's quarters inside it.
const ROLLUP_DAYS = `project_id = {projectId:String} AND day IN {days:Array(Date)}`;
// Days wholly inside the window need no mask test (most of a long window: measured ~25 % of the query).
const IN_WHOLE = `(day IN {fullDays:Array(Date)}
  OR (day IN {partDays:Array(Date)} AND bitAnd(quarters, {partMasks:Array(UInt128)}[indexOf({partDays:Array(Date)}, day)]) != 0))`;
const EDGES = `project_id = {projectId:String}
  AND ((timestamp >= {lowFrom:DateTime64(3, 'UTC')} AND timestamp < {lowTo:DateTime64(3, 'UTC')})
    OR (timestamp >= {highFrom:DateTime64(3, 'UTC')} AND timestamp < {highTo:DateTime64(3, 'UTC')}))`;

/** Visitors per value: whole quarters from the rollup, edge quarters from hits; uniqExact deduplicates both. */
const rollupVisitors = (rollupValue: string, rawValue: string, rollup: DimensionSql['rollup'], classes: string, rollupWhere = '', rawWhere = '') => `
  SELECT ${rollupValue} AS value, visitor_id, ${ROLLUP_CLASS[rollup]} AS class FROM ${rollup} WHERE ${ROLLUP_DAYS} AND ${IN_WHOLE}${rollupWhere}
  UNION ALL
  SELECT ${rawValue} AS value, visitor_id, CAST(class, 'String') AS class FROM hits WHERE ${EDGES} AND ${classes}${rawWhere}`;

// Operators: AI visitors and hits by operator, and the human visitors their assistants referred.
const operatorRows = (where: string, plan: boolean) => `SELECT value, 0 AS human, sum(ai) AS ai, ai AS total, sum(hits) AS hits, sum(referred) AS referred FROM (
  SELECT value, uniqExact(visitor_id) AS ai, 0 AS hits, 0 AS referred FROM (${plan ? rollupVisitors('ai_operator', 'ai_operator', 'ai_visitor_quarters', AI) : `SELECT ai_operator AS value, visitor_id FROM hits WHERE ${where} AND ${AI}`}) GROUP BY value
  UNION ALL
  SELECT ai_operator AS value, 0, count(), 0 FROM hits WHERE ${where} AND ${AI} GROUP BY value
  UNION ALL
  SELECT value, 0, 0, uniqExact(visitor_id) FROM (${plan ? rollupVisitors(REFERRAL_OPERATOR, REFERRAL_OPERATOR, 'human_visitor_quarters', HUMAN, ` AND ${IS_REFERRAL}`, ` AND ${IS_REFERRAL}`) : `SELECT ${REFERRAL_OPERATOR} AS value, visitor_id FROM hits WHERE ${where} AND ${HUMAN} AND ${IS_REFERRAL}`}) GROUP BY value
) GROUP BY value`;


const ALL_QUARTERS = (1n << 96n) - 1n;

/** The rollup plan's parameters. */
function planParams(plan: QuarterPlan): Record<string, unknown> {
  const [low, high] = plan.edges;
  const full = plan.days.filter((_, i) => plan.whole[i] === ALL_QUARTERS);
  const part = plan.days.flatMap((day, i) => (plan.whole[i] === ALL_QUARTERS ? [] : [i]));
  return {
    days: plan.days, fullDays: full, partDays: part.map((i) => plan.days[i]), partMasks: part.map((i) => plan.whole[i]),
    lowFrom: toClickHouseTime(low.from), lowTo: toClickHouseTime(low.to), highFrom: toClickHouseTime(high.from), highTo: toClickHouseTime(high.to),
  };
}

// The plan's days are consecutive UTC days from day0: a row's day indexes the per-day arrays directly.
const DAY_INDEX = `toUInt32(dateDiff('day', {day0:Date}, day)) + 1`;

/**
 * When no UTC day of the plan touches more than two buckets: per day, its first bucket and mask and
 * its second (65535 and 0 where none), and the days a bucket boundary splits. Undefined otherwise.
 */
function dayBuckets(plan: QuarterPlan, index: number[][], masks: bigint[][]) {
  if (index.some((b) => b.length > 2)) return undefined;
  return {
    firstBucket: index.map((b) => b[0] ?? 65535),
    firstMask: masks.map((m) => m[0] ?? 0n),
    splitDays: plan.days.filter((_, d) => index[d].length === 2),
    secondBucket: index.map((b) => b[1] ?? 65535),
    secondMask: masks.map((m) => m[1] ?? 0n),
  };
}

@Injectable()
export class InsightsRepository {
  private readonly limits: ClickHouseSettings;

  constructor(
    @Inject(CLICKHOUSE) private readonly client: ClickHouseClient,
    config: Config,
  ) {
    this.limits = reportQueryLimits(config);
  }

  /** The UTC days holding a project's rollup rows (to bound an open range); null when there are none. */
  async extent(projectId: string): Promise<{ first: number; last: number } | null> {
    const [row] = await this.select<{ first: string; last: string; n: Num }>(
      `SELECT toString(min(day)) AS first, toString(max(day)) AS last, count() AS n FROM visitor_quarters WHERE project_id = {projectId:String}`, { projectId });
    return Number(row.n) === 0 ? null : { first: Date.parse(`${row.first}T00:00:00Z`), last: Date.parse(`${row.last}T00:00:00Z`) };
  }

  /**
   * Visitors and hits per bucket (rows only for buckets with hits). With a plan, visitors come from
   * the quarter-hour rollup and hits are counted per quarter-hour; without, everything from hits.
   */
  async timeseries(filter: Filter & { from: number; to: number }, buckets: Buckets, plan: QuarterPlan | undefined): Promise<BucketRow[]> {
    const [where, params] = this.where(filter);
    if (!plan) {
      const sql = `SELECT indexOf({starts:Array(Int64)}, toUnixTimestamp(${BUCKET[buckets.interval]}) * 1000) - 1 AS bucket,
  ${VISITOR_COUNTS.replace('uniqExact(visitor_id) AS total', `uniqExactIf(visitor_id, class != 'bot') AS total`)},
  countIf(class = 'human') AS hits_human, countIf(class = 'ai') AS hits_ai, countIf(class = 'bot') AS hits_bot
FROM hits WHERE ${where} GROUP BY bucket`;
      return this.select<BucketRow>(sql, { ...params, timeZone: buckets.timeZone, starts: buckets.starts });
    }
    const { index, masks } = bucketMasks(plan, buckets.starts, buckets.to);
    const last = buckets.starts.length - 1;
    const split = dayBuckets(plan, index, masks);
    // Each rollup row (a visitor's UTC day) lands in the buckets its quarters touch. Day, week and month
    // buckets touch at most two per UTC day: a lookup per row, and a second pass over the days a bucket
    // boundary splits (1.3–1.7× faster on a 10 M-hit month than an array of buckets per row); hour
    // buckets take the general form.
    const visitorBuckets = split
      ? `SELECT visitor_id, CAST(class, 'String') AS class, {firstBucket:Array(UInt16)}[${DAY_INDEX}] AS b
    FROM visitor_quarters WHERE ${ROLLUP_DAYS} AND bitAnd(quarters, {firstMask:Array(UInt128)}[${DAY_INDEX}]) != 0${
      split.splitDays.length === 0 ? '' : `
    UNION ALL
    SELECT visitor_id, CAST(class, 'String') AS class, {secondBucket:Array(UInt16)}[${DAY_INDEX}] AS b
    FROM visitor_quarters WHERE project_id = {projectId:String} AND day IN {splitDays:Array(Date)}
      AND bitAnd(quarters, {secondMask:Array(UInt128)}[${DAY_INDEX}]) != 0`}`
      : `SELECT visitor_id, CAST(class, 'String') AS class,
      arrayJoin(arrayFilter((i, m) -> bitAnd(quarters, m) != 0, {index:Array(Array(UInt16))}[indexOf({days:Array(Date)}, day)], {masks:Array(Array(UInt128))}[indexOf({days:Array(Date)}, day)])) AS b
    FROM visitor_quarters WHERE ${ROLLUP_DAYS}`;
    // Hits per quarter-hour (no time zone arithmetic per row), then per bucket by the starts.
    const sql = `SELECT bucket, sum(human) AS human, sum(ai) AS ai, sum(total) AS total, sum(hits_human) AS hits_human, sum(hits_ai) AS hits_ai, sum(hits_bot) AS hits_bot FROM (
  SELECT b AS bucket, ${VISITOR_COUNTS}, 0 AS hits_human, 0 AS hits_ai, 0 AS hits_bot FROM (
    ${visitorBuckets}
    UNION ALL
    SELECT visitor_id, CAST(class, 'String') AS class, if(timestamp < {lowTo:DateTime64(3, 'UTC')}, 0, {last:UInt16}) AS b
    FROM hits WHERE ${EDGES} AND class IN ('human', 'ai')
  ) GROUP BY b
  UNION ALL
  SELECT arrayLastIndex(s -> s <= q, {starts:Array(Int64)}) - 1 AS bucket, 0, 0, 0, sum(h), sum(a), sum(o) FROM (
    SELECT toInt64(toUnixTimestamp(toStartOfFifteenMinutes(timestamp))) * 1000 AS q, countIf(class = 'human') AS h, countIf(class = 'ai') AS a, countIf(class = 'bot') AS o
    FROM hits WHERE ${where} GROUP BY q
  ) GROUP BY bucket
) GROUP BY bucket`;
    const shape = split ? { day0: plan.days[0], firstBucket: split.firstBucket, firstMask: split.firstMask, ...(split.splitDays.length ? split : {}) } : { index, masks };
    return this.select<BucketRow>(sql, { ...params, ...planParams(plan), ...shape, last, starts: buckets.starts });
  }

  /** Totals of a dimension over the whole filtered range. */
  async breakdownTotals(filter: Filter, by: Dimension, plan: QuarterPlan | undefined): Promise<BreakdownCountsRow> {
    const [where, params] = this.where(filter);
    const d = by === 'operator' ? { ...DIMENSIONS.agent, value: 'ai_operator' } : DIMENSIONS[by];
    const sql = plan
      ? `SELECT sum(human) AS human, sum(ai) AS ai, sum(total) AS total, sum(hits) AS hits FROM (
  SELECT ${VISITOR_COUNTS}, 0 AS hits FROM (${rollupVisitors("''", "''", d.rollup, d.classes)})
  UNION ALL
  SELECT 0, 0, 0, count() FROM hits WHERE ${where} AND ${d.classes})`
      : `SELECT ${RAW_COUNTS} FROM hits WHERE ${where} AND ${d.classes}`;
    const [row] = await this.select<BreakdownCountsRow>(sql, plan ? { ...params, ...planParams(plan) } : params);
    return row;
  }

  /** Rows `offset` to `offset + limit` of a dimension, by total desc, hits desc, value asc. */
  async breakdownRows(filter: Filter, by: Dimension, plan: QuarterPlan | undefined, limit: number, offset: number): Promise<BreakdownRow[]> {
    const [where, params] = this.where(filter);
    const all = { ...params, ...(plan ? planParams(plan) : {}), limit, offset };
    if (by === 'operator') return this.select<BreakdownRow>(`${operatorRows(where, plan !== undefined)} ${ROW_ORDER}`, { ...all, ...REFERRAL_MAPS });
    const d = DIMENSIONS[by];
    const sql = plan
      ? `SELECT value, sum(human) AS human, sum(ai) AS ai, sum(total) AS total, sum(hits) AS hits${d.extra.outer} FROM (
  SELECT value, ${VISITOR_COUNTS}, 0 AS hits${d.extra.zero} FROM (${rollupVisitors(d.value, d.value, d.rollup, d.classes)}) GROUP BY value
  UNION ALL
  SELECT ${d.value} AS value, 0, 0, 0, count()${d.extra.hits} FROM hits WHERE ${where} AND ${d.classes} GROUP BY value
) GROUP BY value ${ROW_ORDER}`
      : `SELECT ${d.value} AS value, ${RAW_COUNTS}${d.extra.hits} FROM hits WHERE ${where} AND ${d.classes} GROUP BY value ${ROW_ORDER}`;
    return this.select<BreakdownRow>(sql, all);
  }

  private where(filter: Filter): [string, Record<string, unknown>] {
    const params: Record<string, unknown> = { projectId: filter.projectId };
    let where = 'project_id = {projectId:String}';
    if (filter.from !== undefined) {
      where += ` AND timestamp >= {from:DateTime64(3, 'UTC')}`;
      params.from = toClickHouseTime(filter.from);
    }
    if (filter.to !== undefined) {
      where += ` AND timestamp < {to:DateTime64(3, 'UTC')}`;
      params.to = toClickHouseTime(filter.to);
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

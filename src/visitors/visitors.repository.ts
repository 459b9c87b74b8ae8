import type { ClickHouseClient, ClickHouseSettings } from '@clickhouse/client';
import { Inject, Injectable } from '@nestjs/common';
import { CLICKHOUSE } from '../clickhouse/clickhouse.module';
import { reportQueryLimits } from '../clickhouse/clickhouse.provider';
import { Config } from '../config/config';
import { toClickHouseTime } from '../common/time';
import type { DataExtent, Plan } from './visitors.plan';

/** Counts as ClickHouse returns them: numbers on chDB, possibly strings from a server. */
export interface CountsRow {
  human: number | string;
  ai: number | string;
  total: number | string;
}

export interface PathCountsRow extends CountsRow {
  path: string;
}

const BOUNDS = `timestamp >= {from:DateTime64(3, 'UTC')} AND timestamp < {to:DateTime64(3, 'UTC')}`;

// Raw: straight from hits, for ranges with no whole UTC day inside.
const RAW_COUNTS = `uniqExactIf(visitor_id, class = 'human') AS human, uniqExactIf(visitor_id, class = 'ai') AS ai, uniqExact(visitor_id) AS total`;
const PREFIX = ` AND startsWith(path, {pathPrefix:String})`;
const rawWhere = (shape: Shape) => `project_id = {projectId:String} AND ${BOUNDS} AND class IN ('human', 'ai')${shape.prefix ? PREFIX : ''}`;
const rawTotals = (shape: Shape) => `SELECT ${RAW_COUNTS} FROM hits WHERE ${rawWhere(shape)}`;
const rawPage = (shape: Shape) => `SELECT path, ${RAW_COUNTS} FROM hits WHERE ${rawWhere(shape)} GROUP BY path`;

// Partial edge days come from hits; a rollup row looks itself up there only if its mask has an edge day.
const edgeHits = (shape: Shape) => `hits WHERE project_id = {projectId:String}
  AND ((timestamp >= {lowFrom:DateTime64(3, 'UTC')} AND timestamp < {lowTo:DateTime64(3, 'UTC')})
    OR (timestamp >= {highFrom:DateTime64(3, 'UTC')} AND timestamp < {highTo:DateTime64(3, 'UTC')}))${shape.prefix ? PREFIX : ''}`;
/** Which fragments a rollup query needs: each costs ~80–150 ms over 8 M rows when present but idle. */
interface Shape {
  /** Several months: pick each row's month's mask from arrays, rather than one scalar mask. */
  months: boolean;
  /** Partial edge days to look up in hits. */
  edges: boolean;
  /** Only paths starting with pathPrefix: visitors come from visits_by_path, which has the path. */
  prefix: boolean;
}

// Each rollup row holds one month's days; the range's mask for that month says whether it counts.
const mask = (shape: Shape, name: 'whole' | 'edge') => (shape.months ? `{${name}:Array(UInt64)}[indexOf({months:Array(UInt32)}, month)]` : `{${name}:UInt64}`);
const seen = (shape: Shape, cls: 'human' | 'ai', key: string) =>
  shape.edges
    ? `(bitAnd(${cls}_days, ${mask(shape, 'whole')}) != 0
        OR (bitAnd(${cls}_days, ${mask(shape, 'edge')}) != 0 AND (${key}) IN (SELECT ${key} FROM ${edgeHits(shape)} AND class = '${cls}')))`
    : `bitAnd(${cls}_days, ${mask(shape, 'whole')}) != 0`;
const ROLLUP_WHERE = `project_id = {projectId:String} AND month IN {months:Array(UInt32)}`;
const pathWhere = (shape: Shape) => `${ROLLUP_WHERE}${shape.prefix ? PREFIX : ''}`;
const visitorFlags = (shape: Shape) =>
  `visitor_id, ${seen(shape, 'human', 'visitor_id')} AS h, ${seen(shape, 'ai', 'visitor_id')} AS a FROM ${shape.prefix ? `visits_by_path WHERE ${pathWhere(shape)}` : `visits_by_visitor WHERE ${ROLLUP_WHERE}`}`;
/** Who was seen as both human and AI anywhere in the range (all paths: a superset is enough). */
const mixedFlags = (shape: Shape) => visitorFlags({ ...shape, prefix: false });

// A visitor has a row per month, and several until background merges catch up: uniqExact
// deduplicates, so the answer never depends on merges (FINAL was 2 s over 4 unmerged parts).
const rollupTotals = (shape: Shape) => `SELECT uniqExactIf(visitor_id, h) AS human, uniqExactIf(visitor_id, a) AS ai, uniqExactIf(visitor_id, h OR a) AS total
FROM (SELECT ${visitorFlags(shape)})`;
// Per path, total = |H ∪ A| = |H| + |A| - |H ∩ A|. Only visitors seen as both human and AI somewhere
// in the range (M, few) can be in H ∩ A, and |H ∩ A| = |H ∩ M| + |A ∩ M| - |(H ∪ A) ∩ M|: two large
// hash sets per path instead of three (measured: ~0.42 s instead of ~0.55 s over 8 M rows).
const rollupPage = (shape: Shape) => `SELECT path,
  uniqExactIf(visitor_id, h) AS human,
  uniqExactIf(visitor_id, a) AS ai,
  human + ai - uniqExactIf(visitor_id, mixed AND h) - uniqExactIf(visitor_id, mixed AND a) + uniqExactIf(visitor_id, mixed AND (h OR a)) AS total
FROM (SELECT path, visitor_id, ${seen(shape, 'human', 'path, visitor_id')} AS h, ${seen(shape, 'ai', 'path, visitor_id')} AS a,
             visitor_id IN (SELECT visitor_id FROM (SELECT ${mixedFlags(shape)}) GROUP BY visitor_id HAVING max(h) AND max(a)) AS mixed
      FROM visits_by_path WHERE ${pathWhere(shape)})
GROUP BY path`;

const PAGE_ORDER = `HAVING total > 0 ORDER BY total DESC, path ASC LIMIT {limit:UInt32} OFFSET {offset:UInt64}`;

const EXTENT = `SELECT min(month) AS first, max(month) AS last, count() AS n FROM visits_by_visitor WHERE project_id = {projectId:String}`;


@Injectable()
export class VisitorsRepository {
  private readonly limits: ClickHouseSettings;

  constructor(
    @Inject(CLICKHOUSE) private readonly client: ClickHouseClient,
    config: Config,
  ) {
    this.limits = reportQueryLimits(config);
  }

  /** The months holding a project's countable hits; null when there are none. */
  async extent(projectId: string): Promise<DataExtent | null> {
    const [row] = await this.select<{ first: number | string; last: number | string; n: number | string }>(EXTENT, { projectId });
    return Number(row.n) === 0 ? null : { firstMonth: Number(row.first), lastMonth: Number(row.last) };
  }

  async totals(projectId: string, plan: Exclude<Plan, { kind: 'empty' }>, pathPrefix?: string): Promise<CountsRow> {
    const [sql, params, settings] = this.shape(plan, pathPrefix, rawTotals, rollupTotals);
    const [row] = await this.select<CountsRow>(sql, { projectId, ...params }, settings);
    return row;
  }

  /** Rows `offset` to `offset + limit` of the paths, by total desc then path. */
  async page(projectId: string, plan: Exclude<Plan, { kind: 'empty' }>, pathPrefix: string | undefined, limit: number, offset: number): Promise<PathCountsRow[]> {
    const [sql, params, settings] = this.shape(plan, pathPrefix, rawPage, rollupPage);
    return this.select<PathCountsRow>(`${sql} ${PAGE_ORDER}`, { projectId, limit, offset, ...params }, settings);
  }

  private shape(
    plan: Exclude<Plan, { kind: 'empty' }>,
    pathPrefix: string | undefined,
    raw: (shape: Shape) => string,
    rollup: (shape: Shape) => string,
  ): [string, Record<string, unknown>, ClickHouseSettings] {
    const prefix = pathPrefix !== undefined;
    const prefixParam = prefix ? { pathPrefix } : {};
    if (plan.kind === 'raw') return [raw({ months: false, edges: false, prefix }), { ...prefixParam, from: toClickHouseTime(plan.window.from), to: toClickHouseTime(plan.window.to) }, {}];
    const [low, high] = plan.edges;
    const shape: Shape = { months: plan.months.length > 1, edges: low.to > low.from || high.to > high.from, prefix };
    return [
      rollup(shape),
      {
        ...prefixParam,
        months: plan.months,
        ...(shape.months ? { whole: plan.whole, edge: plan.edge } : { whole: plan.whole[0], edge: plan.edge[0] }),
        ...(shape.edges ? { lowFrom: toClickHouseTime(low.from), lowTo: toClickHouseTime(low.to), highFrom: toClickHouseTime(high.from), highTo: toClickHouseTime(high.to) } : {}),
      },
      // Evaluate OR/AND lazily, so the edge lookup runs only for rows with an edge day and no whole day.
      shape.edges ? { short_circuit_function_evaluation: 'force_enable' } : {},
    ];
  }

  private async select<T>(query: string, query_params: Record<string, unknown>, settings: ClickHouseSettings = {}): Promise<T[]> {
    const rs = await this.client.query({ query, query_params, format: 'JSONEachRow', clickhouse_settings: { ...this.limits, ...settings } });
    return rs.json<T>();
  }
}

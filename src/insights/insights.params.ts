import { bucketStart, Interval, INTERVALS, nextBucket } from '../common/time-zone';
import { AnalyticsQuery, PageQuery, QueryProblems, readAnalyticsQuery, readPageQuery } from '../visitors/visitors.params';

export const MAX_BUCKETS = 1000;
/** Buckets shown when the range is not given (insights-and-delivery.md §2). */
export const DEFAULT_BUCKETS = 30;

export interface TimeseriesQuery extends AnalyticsQuery {
  interval: Interval;
  from: number;
  to: number;
  /** Bucket starts, epoch ms, in order; the last bucket ends at or after `to`. */
  starts: number[];
}

/**
 * Validates the time series' query string. Without dateTo the range ends at the start of the bucket
 * after now; without dateFrom it starts DEFAULT_BUCKETS buckets before its end.
 */
export function parseTimeseriesQuery(raw: Record<string, unknown>, now: number): TimeseriesQuery {
  const problems = new QueryProblems();
  const query = readAnalyticsQuery(raw, problems);
  const interval = problems.oneOf(raw, 'interval', INTERVALS, 'day')!;
  problems.throwIfAny();

  const { timeZone } = query;
  let to = query.to ?? nextBucket(bucketStart(now, interval, timeZone), interval, timeZone);
  let from = query.from;
  if (from === undefined) {
    from = bucketStart(to - 1, interval, timeZone);
    for (let i = 1; i < DEFAULT_BUCKETS; i++) from = bucketStart(from - 1, interval, timeZone);
  } else if (query.to === undefined && to <= from) {
    to = nextBucket(bucketStart(from, interval, timeZone), interval, timeZone);
  }

  const starts: number[] = [];
  for (let start = bucketStart(from, interval, timeZone); start < to; start = nextBucket(start, interval, timeZone)) {
    if (starts.length === MAX_BUCKETS) {
      const message = `The range holds more than ${MAX_BUCKETS} ${interval} buckets: choose a larger interval or a shorter range`;
      problems.add('interval', message);
      problems.add('dateFrom', message);
      problems.throwIfAny();
    }
    starts.push(start);
  }
  return { ...query, interval, from, to, starts };
}

export const BREAKDOWN_DIMENSIONS = ['agent', 'operator', 'category', 'referrer', 'source', 'browser', 'os', 'device', 'format'] as const;
export type Dimension = (typeof BREAKDOWN_DIMENSIONS)[number];

export interface BreakdownQuery extends AnalyticsQuery, PageQuery {
  by: Dimension;
}

/** Validates the breakdown's query string; `by` is required. */
export function parseBreakdownQuery(raw: Record<string, unknown>): BreakdownQuery {
  const problems = new QueryProblems();
  const by = problems.oneOf(raw, 'by', BREAKDOWN_DIMENSIONS);
  const query = { ...readAnalyticsQuery(raw, problems), ...readPageQuery(raw, problems), by: by! };
  problems.throwIfAny();
  return query;
}

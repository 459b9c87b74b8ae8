import type { ClickHouseClient } from '@clickhouse/client';
import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { CLICKHOUSE } from '../clickhouse/clickhouse.module';
import type { HitClass } from './classifier/user-agent-classifier';

/** One row of the `hits` table (clickhouse/0001_hits.sql), exactly as inserted. */
export interface HitRow {
  project_id: string;
  /** 'YYYY-MM-DD hh:mm:ss.sss' in UTC. */
  timestamp: string;
  path: string;
  /** UInt64 as a decimal string: JSON numbers cannot hold 64 bits. */
  visitor_id: string;
  class: HitClass;
  ai_agent: string;
  ai_category: string;
  /** The agent's operator (OpenAI, Anthropic, …); '' unless class === 'ai'. */
  ai_operator: string;
  /** Whether the client IP lies in the ranges the operator publishes (classification.md §3). */
  verification: 'verified' | 'unverified' | 'unknown';
  browser: string;
  os: string;
  device: string;
  referrer_host: string;
  /** The hit URL's utm_source, the one query parameter kept; '' when absent. */
  utm_source: string;
}

const TOKEN = /^[0-9a-z:-]{1,100}$/;

/**
 * async_insert = 0: ClickHouse 26 turns async inserts on by default, and those acknowledge before the
 * rows are in a part. The rest: most of a small insert's cost is fixed, and most of that is the rollup
 * views (~20 of ~26 ms CPU for 100 rows on chDB). Their GROUP BY already leaves one row per key in a
 * block, so merging the block again on insert (optimize_on_insert) is redundant work; and the views
 * run in parallel.
 */
const INSERT_SETTINGS = 'async_insert = 0, parallel_view_processing = 1, optimize_on_insert = 0';

/** ClickHouse's default max_partitions_per_insert_block; `hits` is partitioned by month. */
export const MAX_PARTITIONS_PER_INSERT = 100;

/** The partition (month, 'YYYY-MM') of a row, as `PARTITION BY toYYYYMM(timestamp)` puts it. */
export function partitionOf(row: HitRow): string {
  return row.timestamp.slice(0, 7);
}

export { toClickHouseTime } from '../common/time';

@Injectable()
export class HitsRepository {
  constructor(@Inject(CLICKHOUSE) private readonly client: ClickHouseClient) {}

  /**
   * Resolves once the rows are stored and visible to queries. `dedupToken`: the store keeps the
   * tokens of its last inserts (clickhouse/0004) and skips, partition by partition, what an insert
   * with the same token already stored, so a retried insert completes the earlier one instead of
   * repeating it. Without one, the insert gets a fresh token (else the store would deduplicate it
   * by content and could drop a legitimate identical batch). `partitions`: the months the rows touch;
   * the writer never groups more than MAX_PARTITIONS_PER_INSERT, and a single request that spans
   * more gets an insert of its own with the limit raised to what it needs.
   */
  async insert(rows: HitRow[], options: { dedupToken?: string; partitions?: number } = {}): Promise<void> {
    const token = options.dedupToken ?? randomUUID();
    if (!TOKEN.test(token)) throw new Error('a dedup token is hex, dashes and colons only');
    const maxPartitions = Math.max(MAX_PARTITIONS_PER_INSERT, Math.trunc(options.partitions ?? 0));
    await this.client.insert({
      // Settings in the INSERT itself, not as clickhouse_settings: settings cannot be bound, so only our
      // own token (checked above) and a number go in. The embedded engine turns each clickhouse_setting
      // into a SET statement that costs ~1 ms per 2,000-row insert and sticks to later queries.
      table: `hits SETTINGS ${INSERT_SETTINGS}, insert_deduplication_token = '${token}', max_partitions_per_insert_block = ${maxPartitions}`,
      values: rows,
      format: 'JSONEachRow',
      clickhouse_settings: { wait_end_of_query: 1 },
    });
  }
}

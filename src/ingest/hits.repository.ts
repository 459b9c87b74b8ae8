import type { ClickHouseClient } from '@clickhouse/client';
import { Inject, Injectable } from '@nestjs/common';
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

export function toClickHouseTime(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 23);
}

@Injectable()
export class HitsRepository {
  constructor(@Inject(CLICKHOUSE) private readonly client: ClickHouseClient) {}

  /** Resolves once the rows are stored and visible to queries. */
  async insert(rows: HitRow[]): Promise<void> {
    await this.client.insert({
      table: 'hits',
      values: rows,
      format: 'JSONEachRow',
      // ClickHouse 26 turns async inserts on by default: those acknowledge before the rows are in a part.
      // Most of a small insert's cost is fixed, and most of that is the rollup views (~20 of ~26 ms CPU
      // for 100 rows on chDB). Their GROUP BY already leaves one row per key in a block, so merging
      // the block again on insert (optimize_on_insert) is redundant work; and the views run in parallel.
      clickhouse_settings: { async_insert: 0, wait_end_of_query: 1, parallel_view_processing: 1, optimize_on_insert: 0 },
    });
  }
}

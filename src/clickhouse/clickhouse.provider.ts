import { ClickHouseClient, ClickHouseSettings, createClient } from '@clickhouse/client';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Config } from '../config/config';

/**
 * Limits for the report queries (visitors, insights): a huge range fails with TIMEOUT_EXCEEDED /
 * MEMORY_LIMIT_EXCEEDED (→ 503) instead of taking the process down.
 */
export function reportQueryLimits(config: Config): ClickHouseSettings {
  return { max_execution_time: config.QUERY_MAX_EXECUTION_SECONDS, max_memory_usage: String(config.QUERY_MAX_MEMORY_BYTES) };
}

/** One ClickHouseClient for the process: a real server over HTTP, or the embedded chDB engine. */
export function createClickHouseClient(config: Config): ClickHouseClient {
  const clickhouse_settings = {
    // Same JSON for 64-bit integers on both backends; mappers still Number() them.
    output_format_json_quote_64bit_integers: 0,
    date_time_input_format: 'best_effort',
    // ClickHouse's low-memory guidance: aggregate and sort past half the per-query cap on disk
    // rather than fail. The cap itself (max_memory_usage) is set by the report queries.
    max_bytes_before_external_group_by: String(Math.floor(config.QUERY_MAX_MEMORY_BYTES / 2)),
    max_bytes_before_external_sort: String(Math.floor(config.QUERY_MAX_MEMORY_BYTES / 2)),
  } as const;
  if (config.CLICKHOUSE_URL) {
    return createClient({ url: config.CLICKHOUSE_URL, clickhouse_settings, request_timeout: 60_000 });
  }
  const path = resolve(join(config.DATA_DIR, 'clickhouse'));
  mkdirSync(path, { recursive: true });
  // Required lazily: chdb loads a 500 MB native engine that a server deployment never needs.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { Session } = require('chdb') as typeof import('chdb');
  const { createChdbConnection } = require('chdb/connection') as typeof import('chdb/connection');
  /* eslint-enable @typescript-eslint/no-require-imports */
  // Server configuration is read when the process's engine starts, from its first connection's argv;
  // chdb/connection passes none, so a first session starts the engine with them and leaves it to the client.
  const engine = new Session(path, { connectionArgs: embeddedServerArgs(config) });
  // chdb types its Connection against its own copy of @clickhouse/client-common; the shape is the same.
  const connection = createChdbConnection({ path }) as unknown as NonNullable<Parameters<typeof createClient>[0]>['connection'];
  engine.close();
  return createClient({ connection, clickhouse_settings });
}

/**
 * Waits until the embedded engine has finished every query and released every connection closed
 * under one. A query its client gave up on (a memory-limit error answers at once) runs on to its
 * end, and until then the engine still holds the data directory and refuses a session at another.
 */
export async function drainEmbeddedEngine(): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { drainPending } = require('chdb') as typeof import('chdb');
  await drainPending();
}

/**
 * Embedded-engine server settings for a small VM: everything chDB allocates stays under
 * CLICKHOUSE_MAX_MEMORY_BYTES (a query past it fails and answers 503, the process lives on), and
 * the caches ClickHouse sizes for a server (5 GiB mark, index and primary-key caches) are small.
 */
export function embeddedServerArgs(config: Config): string[] {
  const cache = config.CLICKHOUSE_MARK_CACHE_BYTES;
  return [
    `--max_server_memory_usage=${config.CLICKHOUSE_MAX_MEMORY_BYTES}`,
    `--mark_cache_size=${cache}`,
    `--index_mark_cache_size=${Math.floor(cache / 4)}`,
    `--primary_index_cache_size=${Math.floor(cache / 4)}`,
    `--query_condition_cache_size=${Math.floor(cache / 4)}`,
    `--compiled_expression_cache_size=${Math.floor(cache / 4)}`,
  ];
}

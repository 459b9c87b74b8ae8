import { ClickHouseClient, createClient } from '@clickhouse/client';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Config } from '../config/config';

/** One ClickHouseClient for the process: a real server over HTTP, or the embedded chDB engine. */
export function createClickHouseClient(config: Config): ClickHouseClient {
  const clickhouse_settings = {
    // Same JSON for 64-bit integers on both backends; mappers still Number() them.
    output_format_json_quote_64bit_integers: 0,
    date_time_input_format: 'best_effort',
    // The embedded engine keeps a query's settings for the next query; an insert that sets no token
    // must not inherit the last one (it would be deduplicated away). See HitsRepository.insert.
    insert_deduplication_token: '',
  } as const;
  if (config.CLICKHOUSE_URL) {
    return createClient({ url: config.CLICKHOUSE_URL, clickhouse_settings, request_timeout: 60_000 });
  }
  const path = resolve(join(config.DATA_DIR, 'clickhouse'));
  mkdirSync(path, { recursive: true });
  // Required lazily: chdb loads a 500 MB native engine that a server deployment never needs.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createChdbConnection } = require('chdb/connection') as typeof import('chdb/connection');
  // chdb types its Connection against its own copy of @clickhouse/client-common; the shape is the same.
  const connection = createChdbConnection({ path }) as unknown as NonNullable<Parameters<typeof createClient>[0]>['connection'];
  return createClient({ connection, clickhouse_settings });
}

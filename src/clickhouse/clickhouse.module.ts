import { ClickHouseClient } from '@clickhouse/client';
import { Global, Inject, Logger, Module, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { Config } from '../config/config';
import { Metrics } from '../metrics/metrics';
import { migrateClickHouse } from './clickhouse-migrations';
import { createClickHouseClient, drainEmbeddedEngine } from './clickhouse.provider';

export const CLICKHOUSE = Symbol('CLICKHOUSE');

@Global()
@Module({
  providers: [{ provide: CLICKHOUSE, inject: [Config], useFactory: createClickHouseClient }],
  exports: [CLICKHOUSE],
})
export class ClickHouseModule implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(ClickHouseModule.name);

  constructor(
    @Inject(CLICKHOUSE) private readonly client: ClickHouseClient,
    private readonly config: Config,
    metrics: Metrics,
  ) {
    metrics.clickhouseMemoryFrom(async () => {
      const rs = await client.query({ query: "SELECT value FROM system.metrics WHERE metric = 'MemoryTracking'", format: 'JSONEachRow' });
      const [row] = await rs.json<{ value: number | string }>();
      return Number(row?.value ?? 0);
    });
  }

  async onModuleInit(): Promise<void> {
    const ping = await this.client.ping();
    if (!ping.success) throw new Error(`ClickHouse did not answer: ${ping.error.message}`);
    const applied = await migrateClickHouse(this.client);
    if (applied.length) this.logger.log(`applied ClickHouse migrations: ${applied.join(', ')}`);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client.close();
    // Closed is not yet released: the service may be started again in this process (tests, the CLI).
    if (!this.config.CLICKHOUSE_URL) await drainEmbeddedEngine();
  }
}

import { DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { Config } from '../../config/config';
import { ConfigModule } from '../../config/config.module';
import { DatabaseModule } from '../../database/database.module';
import { MetricsModule } from '../../metrics/metrics.module';
import { WebhooksCoreModule } from '../../webhooks/webhooks.module';
import { AgentWorkerModule } from './agent-worker.module';

/** The root of a standalone worker process: Postgres and the agent worker; no HTTP server, no ClickHouse. */
@Module({})
export class WorkerAppModule {
  static forRoot(config: Config): DynamicModule {
    return {
      module: WorkerAppModule,
      imports: [ConfigModule.with(config), LoggerModule.forRoot({ pinoHttp: { level: config.LOG_LEVEL } }), MetricsModule, DatabaseModule, WebhooksCoreModule, AgentWorkerModule],
    };
  }
}

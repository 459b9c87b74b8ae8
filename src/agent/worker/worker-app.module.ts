import { DynamicModule, Global, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { Config } from '../../config/config';
import { DatabaseModule } from '../../database/database.module';
import { AgentWorkerModule } from './agent-worker.module';

@Global()
@Module({})
class WorkerConfigModule {
  static with(config: Config): DynamicModule {
    return { module: WorkerConfigModule, providers: [{ provide: Config, useValue: config }], exports: [Config] };
  }
}

/** The root of a standalone worker process: Postgres and the agent worker; no HTTP server, no ClickHouse. */
@Module({})
export class WorkerAppModule {
  static forRoot(config: Config): DynamicModule {
    return {
      module: WorkerAppModule,
      imports: [WorkerConfigModule.with(config), LoggerModule.forRoot({ pinoHttp: { level: config.LOG_LEVEL } }), DatabaseModule, AgentWorkerModule],
    };
  }
}

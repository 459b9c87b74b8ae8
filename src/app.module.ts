import { DynamicModule, Module, RequestMethod } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { AgentModule } from './agent/agent.module';
import { ClickHouseModule } from './clickhouse/clickhouse.module';
import { Config } from './config/config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { HealthController } from './health/health.controller';
import { MetricsHttpModule } from './metrics/metrics-http.module';
import { MetricsModule } from './metrics/metrics.module';
import { IngestModule } from './ingest/ingest.module';
import { InsightsModule } from './insights/insights.module';
import { TrackerModule } from './ingest/tracker/tracker.module';
import { ProjectsModule } from './projects/projects.module';
import { ReportsModule } from './reports/reports.module';
import { VisitorsModule } from './visitors/visitors.module';
import { WebhooksModule } from './webhooks/webhooks-http.module';
import { WebhooksCoreModule } from './webhooks/webhooks.module';

@Module({})
export class AppModule {
  static forRoot(config: Config): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.with(config),
        LoggerModule.forRoot({
          // The beacon is the hot path (one request per page view): no per-request logger or line for it.
          exclude: [{ method: RequestMethod.ALL, path: 'v1/collect/*path' }],
          pinoHttp: {
            level: config.LOG_LEVEL,
            // Keys and tokens travel in these headers; they never reach a log line.
            redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["idempotency-key"]'], censor: '[redacted]' },
            autoLogging: { ignore: (req) => req.url === '/health' },
            serializers: {
              req: (req: { id: unknown; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
            },
          },
        }),
        MetricsModule,
        DatabaseModule,
        WebhooksCoreModule,
        ClickHouseModule,
        ProjectsModule,
        AgentModule,
        TrackerModule,
        IngestModule,
        VisitorsModule,
        InsightsModule,
        WebhooksModule,
        ReportsModule,
        MetricsHttpModule,
      ],
      controllers: [HealthController],
    };
  }
}

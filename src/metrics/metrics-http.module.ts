import { Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { ProjectsModule } from '../projects/projects.module';
import { Metrics } from './metrics';
import { MetricsController } from './metrics.controller';
import { MetricsGuard } from './metrics.guard';

/** The ingest routes whose refusals are counted, by route pattern. */
const INGEST_ROUTES: Record<string, 'beacon' | 'ingest'> = {
  '/v1/collect/:projectId': 'beacon',
  '/v1/ingest/:projectId/hits': 'ingest',
};

const REJECT_REASONS: Record<number, string> = {
  400: 'invalid',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'unknown_project',
  409: 'conflict',
  413: 'too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  503: 'unavailable',
};

/** GET /metrics, and the per-request HTTP histogram (one Fastify onResponse hook, every route). */
@Module({
  imports: [ProjectsModule],
  controllers: [MetricsController],
  providers: [MetricsGuard],
})
export class MetricsHttpModule implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly metrics: Metrics,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    const { httpDuration, ingestRejected } = this.metrics;
    fastify.addHook('onResponse', (request, reply, done) => {
      // The route pattern, never the URL: unmatched requests (404s, scans) share one series.
      const route = request.routeOptions.url ?? 'unmatched';
      const status = reply.statusCode;
      httpDuration.observe({ method: request.method, route, status }, reply.elapsedTime / 1000);
      if (status >= 400) {
        const source = INGEST_ROUTES[route];
        if (source) ingestRejected.inc({ source, reason: REJECT_REASONS[status] ?? (status >= 500 ? 'error' : 'other') });
      }
      done();
    });
  }
}

import { CallHandler, ExecutionContext, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { catchError, from, map, mergeMap, Observable, throwError } from 'rxjs';
import { JobRateLimited, JobsService, RateLimitedResult } from './jobs.service';
import { rateLimitHeaders } from './rate-limit.repository';

/**
 * Puts RateLimit-* headers on every response of a rate-limited route: from the charge the service
 * made on success, from the current budget on an error (400, 404, 409) that charged nothing.
 */
@Injectable()
export class RateLimitHeadersInterceptor implements NestInterceptor {
  private readonly logger = new Logger(RateLimitHeadersInterceptor.name);

  constructor(private readonly jobs: JobsService) {}

  intercept(ctx: ExecutionContext, next: CallHandler<RateLimitedResult<unknown>>): Observable<unknown> {
    const http = ctx.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const projectId = (http.getRequest<FastifyRequest>().params as Record<string, string>).projectId;
    return next.handle().pipe(
      map((result) => {
        void reply.headers(rateLimitHeaders(result.rateLimit));
        // As on ingest (and Stripe): this response is the stored one of an earlier request with the same key.
        if (result.replayed) void reply.header('Idempotent-Replayed', 'true');
        return result.body;
      }),
      catchError((err: unknown) => {
        if (err instanceof JobRateLimited) {
          void reply.headers(rateLimitHeaders(err.state));
          return throwError(() => err);
        }
        return from(this.jobs.currentRateLimit(projectId)).pipe(
          mergeMap((state) => {
            void reply.headers(rateLimitHeaders(state));
            return throwError(() => err);
          }),
          // The headers are a courtesy on an error response; failing to read them must not mask the error.
          catchError((inner: unknown) => {
            if (inner !== err) this.logger.warn(`could not read the rate limit for an error response: ${String(inner)}`);
            return throwError(() => err);
          }),
        );
      }),
    );
  }
}

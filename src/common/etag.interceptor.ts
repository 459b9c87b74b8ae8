import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { map, Observable } from 'rxjs';

/**
 * Cheap polling: a strong ETag over the JSON body; a matching If-None-Match answers 304 with no
 * body. The body is still built (one indexed read), but nothing crosses the wire when nothing changed.
 */
@Injectable()
export class ETagInterceptor implements NestInterceptor {
  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = ctx.switchToHttp().getRequest<FastifyRequest>();
    const reply = ctx.switchToHttp().getResponse<FastifyReply>();
    return next.handle().pipe(
      map((body: unknown) => {
        const tag = `"${createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 27)}"`;
        void reply.header('etag', tag).header('cache-control', 'private, no-cache');
        if (matches(req.headers['if-none-match'], tag)) {
          void reply.status(304);
          return undefined;
        }
        return body;
      }),
    );
  }
}

/** If-None-Match holds `*` or a list of tags; weak tags (W/"…") compare equal to strong ones here (RFC 9110 §13.1.2). */
function matches(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === tag);
}

import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { IngestService } from './ingest.service';

export const COLLECT_ROUTE = '/v1/collect/:projectId';
const MAX_COLLECT_BODY_BYTES = 64 * 1024;

/** Every answer of the beacon is readable cross-origin, errors included (413 and 415 come before any handler). */
function allowAnyOrigin(_request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  void reply.header('access-control-allow-origin', '*');
  done();
}

/**
 * The browser beacon, public (no key), any origin: one request per page view, so it is a plain
 * Fastify route on the adapter's instance rather than a Nest controller. A Nest route runs the
 * global ValidationPipe, builds an execution context and wraps the handler per request; measured
 * under load (bench/ingest.ts, --cpu-prof) that was most of the gap to a bare route. Errors still
 * reach Nest's error handler, so the one filter gives them the one error shape.
 */
@Injectable()
export class CollectRoute implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly ingest: IngestService,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.route({
      method: 'OPTIONS',
      url: COLLECT_ROUTE,
      onRequest: allowAnyOrigin,
      handler: (_request, reply) => {
        void reply
          .code(204)
          .header('access-control-allow-methods', 'POST')
          .header('access-control-allow-headers', 'Content-Type')
          .header('access-control-max-age', '86400')
          .send();
      },
    });
    fastify.route<{ Params: { projectId: string } }>({
      method: 'POST',
      url: COLLECT_ROUTE,
      bodyLimit: MAX_COLLECT_BODY_BYTES,
      onRequest: allowAnyOrigin,
      handler: async (request, reply) => {
        const { 'user-agent': userAgent = '', 'signature-agent': signatureAgent } = request.headers;
        const result = await this.ingest.collect(request.params.projectId, request.body, userAgent, request.ip, typeof signatureAgent === 'string' ? signatureAgent : undefined);
        void reply.code(202);
        return result;
      },
    });
  }
}

/** The beacon in the OpenAPI document (Swagger only sees Nest controllers). */
export function documentCollect(document: OpenAPIObject): void {
  document.paths['/v1/collect/{projectId}'] = {
    post: {
      tags: ['ingest'],
      operationId: 'collect',
      summary: 'Browser beacon: one page view (no key; CORS open; at most 64 KiB; JSON or text/plain JSON)',
      parameters: [{ name: 'projectId', in: 'path', required: true, schema: { type: 'string' } }],
      requestBody: {
        required: true,
        content: {
          'application/json': { schema: { $ref: '#/components/schemas/CollectBodyDoc' } },
          'text/plain': { schema: { $ref: '#/components/schemas/CollectBodyDoc' } },
        },
      },
      responses: {
        '202': { description: 'Stored', content: { 'application/json': { schema: { $ref: '#/components/schemas/AcceptedDoc' } } } },
        '400': { description: 'Invalid body' },
        '404': { description: 'No project has this id' },
        '413': { description: 'Body over 64 KiB' },
        '503': { description: 'Storage unavailable; retry after Retry-After seconds' },
      },
    },
  };
}

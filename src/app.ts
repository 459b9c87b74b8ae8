import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { AllExceptionsFilter } from './common/all-exceptions.filter';
import { edgeServerOptions, refuseNul, shapeDocsRouteErrors } from './common/http-edge';
import { createValidationPipe } from './common/validation.pipe';
import { Config } from './config/config';
import { registerDashboard } from './dashboard/dashboard';
import { CollectBodyDoc } from './ingest/ingest.dto';
import { documentCollect } from './ingest/collect.route';

export const MAX_BODY_BYTES = 1024 * 1024;

/** Routes with their own, smaller body limits (the browser beacon takes at most 64 KiB). */
const ROUTE_BODY_LIMITS: Array<[RegExp, number]> = [[/^\/v1\/collect\//, 64 * 1024]];
/** Routes that accept JSON sent as text/plain: navigator.sendBeacon cannot set application/json without a CORS preflight. */
const TEXT_PLAIN_JSON_ROUTES = /^\/v1\/collect\//;

/** Builds the whole application on Fastify; used by main.ts and by the end-to-end tests alike. */
export async function createApp(config: Config, options: { logger?: boolean } = {}): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: MAX_BODY_BYTES,
    trustProxy: config.TRUST_PROXY,
    return503OnClosing: true,
    ...edgeServerOptions({
      requestTimeoutMs: config.REQUEST_TIMEOUT_MS,
      headersTimeoutMs: config.HEADERS_TIMEOUT_MS,
      keepAliveTimeoutMs: config.KEEP_ALIVE_TIMEOUT_MS,
    }),
  });
  const fastify = adapter.getInstance();
  refuseNul(fastify);
  shapeDocsRouteErrors(fastify, '/docs');

  fastify.addHook('onRoute', (route) => {
    const limit = ROUTE_BODY_LIMITS.find(([pattern]) => pattern.test(route.url))?.[1];
    if (limit) route.bodyLimit = limit;
  });
  fastify.addContentTypeParser('text/plain', { parseAs: 'string' }, (req, body, done) => {
    if (!TEXT_PLAIN_JSON_ROUTES.test(req.url)) {
      done(Object.assign(new Error('unsupported media type'), { statusCode: 415, code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE' }), undefined);
      return;
    }
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(Object.assign(new Error('invalid json'), { statusCode: 400, code: 'FST_ERR_CTP_INVALID_JSON_BODY' }), undefined);
    }
  });

  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config), adapter, {
    bufferLogs: true,
    abortOnError: false,
    // JSON only: Fastify's own parser; Nest's would also accept form bodies.
    bodyParser: false,
    logger: options.logger === false ? false : undefined,
  });
  if (options.logger !== false) app.useLogger(app.get(Logger));
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new AllExceptionsFilter());
  app.enableShutdownHooks();

  const openapi = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Docent')
      .setDescription('Agent jobs on documentation repositories, and who reads the docs: humans and AI agents.')
      .setVersion('1')
      .addBearerAuth()
      .build(),
    { extraModels: [CollectBodyDoc] },
  );
  documentCollect(openapi);
  SwaggerModule.setup('docs', app, openapi, { jsonDocumentUrl: 'openapi.json', yamlDocumentUrl: 'openapi.yaml' });

  await registerDashboard(fastify);
  await app.init();
  await fastify.ready();
  return app;
}

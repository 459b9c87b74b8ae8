// Child process of bench/ingest.ts: the floor for /v1/collect, a bare NestJS-on-Fastify app with one
// route that only answers 202 (same framework, adapter and body limit; nothing else).
import 'reflect-metadata';
import { Body, Controller, HttpCode, Module, Param, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';

@Controller('v1/collect')
class BareController {
  @Post(':projectId')
  @HttpCode(202)
  collect(@Param('projectId') _projectId: string, @Body() _body: unknown): { accepted: number } {
    return { accepted: 1 };
  }
}

@Module({ controllers: [BareController] })
class BareModule {}

async function main(): Promise<void> {
  const adapter = new FastifyAdapter({ bodyLimit: 64 * 1024 });
  adapter.getInstance().addContentTypeParser('text/plain', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, JSON.parse(body as string));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
  const app = await NestFactory.create<NestFastifyApplication>(BareModule, adapter, { logger: false, bodyParser: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  process.send!({ port: (app.getHttpServer().address() as { port: number }).port });
  process.on('message', (m) => m === 'exit' && void app.close().then(() => process.exit(0)));
}

void main();

import { Controller, Get, Headers, Res } from '@nestjs/common';
import { ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { TrackerScript } from './tracker-script';

const HEADERS = {
  'content-type': 'application/javascript; charset=utf-8',
  'cache-control': 'public, max-age=3600',
  // Pages on any origin load it, also with crossorigin/SRI or under Cross-Origin-Embedder-Policy.
  'access-control-allow-origin': '*',
  'cross-origin-resource-policy': 'cross-origin',
  'x-content-type-options': 'nosniff',
};

@ApiTags('ingest')
@Controller()
export class TrackerController {
  constructor(private readonly script: TrackerScript) {}

  @Get('script.js')
  @ApiProduces('application/javascript')
  @ApiOkResponse({ description: 'The browser tracker: `<script defer src="https://HOST/script.js" data-project="ID"></script>`.' })
  serve(@Headers('if-none-match') ifNoneMatch: string | undefined, @Res() reply: FastifyReply): void {
    reply.headers({ ...HEADERS, etag: this.script.etag });
    if (this.script.isFresh(ifNoneMatch)) reply.code(304).send();
    else reply.code(200).send(this.script.body);
  }
}

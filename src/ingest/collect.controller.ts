import { Body, Controller, Header, HttpCode, Options, Param, Post, Req, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBody, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AcceptedDoc, CollectBodyDoc } from './ingest.dto';
import { IngestResult, IngestService } from './ingest.service';

/** The browser beacon: public (no key), any origin. */
@ApiTags('ingest')
@Controller('v1/collect')
export class CollectController {
  constructor(private readonly ingest: IngestService) {}

  @Options(':projectId')
  @HttpCode(204)
  @Header('Access-Control-Allow-Origin', '*')
  @Header('Access-Control-Allow-Methods', 'POST')
  @Header('Access-Control-Allow-Headers', 'Content-Type')
  @Header('Access-Control-Max-Age', '86400')
  preflight(): void {}

  @Post(':projectId')
  @HttpCode(202)
  @ApiBody({ type: CollectBodyDoc })
  @ApiAcceptedResponse({ type: AcceptedDoc })
  collect(
    @Param('projectId') projectId: string,
    @Body() body: unknown,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<IngestResult> {
    // Set before the body is validated, so error answers are readable cross-origin too. (Not an
    // interceptor: Nest wraps those in AsyncResource.bind, measurable per request on this hot path.)
    reply.header('Access-Control-Allow-Origin', '*');
    return this.ingest.collect(projectId, body, request.headers['user-agent'] ?? '', request.ip);
  }
}

import { Body, Controller, Headers, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBody, ApiHeader, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ProjectAccess } from '../auth/auth.guard';
import { AcceptedDoc, IngestHitsBodyDoc } from './ingest.dto';
import { IngestResult, IngestService } from './ingest.service';

@ApiTags('ingest')
@Controller('v1/ingest')
export class IngestController {
  constructor(private readonly ingest: IngestService) {}

  @Post(':projectId/hits')
  @HttpCode(202)
  @ProjectAccess()
  @ApiBody({ type: IngestHitsBodyDoc })
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'Makes a retried batch count once (kept 24 h)' })
  @ApiAcceptedResponse({ type: AcceptedDoc, description: 'Stored and visible to the visitors report' })
  async hits(
    @Param('projectId') projectId: string,
    @Body() body: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Headers('idempotency-key') idempotencyKey?: string,
  ): Promise<IngestResult> {
    const { result, replayed } = await this.ingest.ingest(projectId, body, idempotencyKey);
    // As Stripe does: tells a client (the import CLI counts them) that this batch was stored by an earlier request.
    if (replayed) reply.header('Idempotent-Replayed', 'true');
    return result;
  }
}

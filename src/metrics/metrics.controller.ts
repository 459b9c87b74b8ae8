import { Controller, Get, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiExcludeEndpoint } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Metrics } from './metrics';
import { MetricsGuard } from './metrics.guard';

@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: Metrics) {}

  /** Prometheus text format. */
  @Get()
  @UseGuards(MetricsGuard)
  @ApiBearerAuth()
  @ApiExcludeEndpoint()
  async scrape(@Res() reply: FastifyReply): Promise<void> {
    const text = await this.metrics.text();
    void reply.header('content-type', this.metrics.contentType).header('cache-control', 'no-store').send(text);
  }
}

import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, UseInterceptors } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { ProjectAccess } from '../../auth/auth.guard';
import { ETagInterceptor } from '../../common/etag.interceptor';
import { ListJobsQuery, PromptDto } from './jobs.dto';
import { JobsService } from './jobs.service';
import { RateLimitHeadersInterceptor } from './rate-limit.interceptor';

const IDEMPOTENCY_HEADER = { name: 'Idempotency-Key', required: false, description: 'Same key within 24 h returns the first response again.' };

@ApiTags('agent jobs')
@Controller('v2/agent/:projectId')
export class JobsController {
  constructor(private readonly jobs: JobsService) {}

  @Post('job')
  @ProjectAccess()
  @HttpCode(201)
  @ApiHeader(IDEMPOTENCY_HEADER)
  @UseInterceptors(RateLimitHeadersInterceptor)
  create(@Param('projectId') projectId: string, @Body() dto: PromptDto, @Headers('idempotency-key') idempotencyKey?: string) {
    return this.jobs.create(projectId, dto, idempotencyKey);
  }

  @Get('job/:id')
  @ProjectAccess()
  @UseInterceptors(ETagInterceptor)
  get(@Param('projectId') projectId: string, @Param('id') id: string) {
    return this.jobs.get(projectId, id);
  }

  @Post('job/:id/message')
  @ProjectAccess()
  @HttpCode(200)
  @ApiHeader(IDEMPOTENCY_HEADER)
  @UseInterceptors(RateLimitHeadersInterceptor)
  addMessage(@Param('projectId') projectId: string, @Param('id') id: string, @Body() dto: PromptDto, @Headers('idempotency-key') idempotencyKey?: string) {
    return this.jobs.addMessage(projectId, id, dto, idempotencyKey);
  }

  @Post('job/:id/archive')
  @ProjectAccess()
  @HttpCode(200)
  archive(@Param('projectId') projectId: string, @Param('id') id: string) {
    return this.jobs.archive(projectId, id);
  }

  @Get('jobs')
  @ProjectAccess()
  @UseInterceptors(ETagInterceptor)
  list(@Param('projectId') projectId: string, @Query() query: ListJobsQuery) {
    return this.jobs.list(projectId, query);
  }
}

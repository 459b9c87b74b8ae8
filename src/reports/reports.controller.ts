import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ProjectOrAdminAccess } from '../auth/auth.guard';
import { PageQuery } from '../common/page-query';
import { CreateReportDto, UpdateReportDto } from './reports.dto';
import { ReportsService } from './reports.service';

@ApiTags('reports')
@Controller('v1/projects/:projectId/reports')
export class ReportsController {
  constructor(private readonly reports: ReportsService) {}

  @Post()
  @ProjectOrAdminAccess()
  @HttpCode(201)
  create(@Param('projectId') projectId: string, @Body() dto: CreateReportDto) {
    return this.reports.create(projectId, dto);
  }

  @Get()
  @ProjectOrAdminAccess()
  list(@Param('projectId') projectId: string) {
    return this.reports.list(projectId);
  }

  @Get(':id')
  @ProjectOrAdminAccess()
  get(@Param('projectId') projectId: string, @Param('id') id: string) {
    return this.reports.get(projectId, id);
  }

  @Patch(':id')
  @ProjectOrAdminAccess()
  update(@Param('projectId') projectId: string, @Param('id') id: string, @Body() dto: UpdateReportDto) {
    return this.reports.update(projectId, id, dto);
  }

  @Delete(':id')
  @ProjectOrAdminAccess()
  @HttpCode(204)
  delete(@Param('projectId') projectId: string, @Param('id') id: string) {
    return this.reports.delete(projectId, id);
  }

  @Post(':id/run')
  @ProjectOrAdminAccess()
  @HttpCode(202)
  run(@Param('projectId') projectId: string, @Param('id') id: string) {
    return this.reports.runNow(projectId, id);
  }

  @Get(':id/runs')
  @ProjectOrAdminAccess()
  runs(@Param('projectId') projectId: string, @Param('id') id: string, @Query() query: PageQuery) {
    return this.reports.runs(projectId, id, query);
  }

  @Get(':id/runs/:runId/content')
  @ProjectOrAdminAccess()
  async content(@Param('projectId') projectId: string, @Param('id') id: string, @Param('runId') runId: string, @Res({ passthrough: true }) reply: FastifyReply) {
    const { contentType, body } = await this.reports.content(projectId, id, runId);
    void reply.header('content-type', contentType);
    return body;
  }
}

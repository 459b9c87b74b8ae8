import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ProjectAccess } from '../auth/auth.guard';
import { ApiAnalyticsQuery, ApiPageQuery } from './analytics.openapi';
import { VisitorsReportView } from './visitors.dto';
import { parseVisitorsQuery } from './visitors.params';
import { VisitorsService } from './visitors.service';

@ApiTags('analytics')
@Controller('v1/analytics')
export class VisitorsController {
  constructor(private readonly visitors: VisitorsService) {}

  // The query string is parsed by parseVisitorsQuery rather than a DTO: one pass gives per-field
  // messages, the cross-field dateFrom < dateTo check, and leaves unknown parameters ignored.
  @Get(':projectId/visitors')
  @ProjectAccess()
  @ApiAnalyticsQuery()
  @ApiPageQuery()
  @ApiOkResponse({ type: VisitorsReportView })
  report(@Param('projectId') projectId: string, @Query() query: Record<string, unknown>) {
    return this.visitors.report(projectId, parseVisitorsQuery(query));
  }
}

import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ProjectAccess } from '../common/auth.guard';
import { VisitorsReportView } from './visitors.dto';
import { LIMIT_DEFAULT, LIMIT_MAX, parseVisitorsQuery } from './visitors.params';
import { VisitorsService } from './visitors.service';

const DATE = 'YYYY-MM-DD (midnight UTC) or ISO 8601 date-time with Z, ±hh:mm or no offset (UTC).';

@ApiTags('analytics')
@Controller('v1/analytics')
export class VisitorsController {
  constructor(private readonly visitors: VisitorsService) {}

  // The query string is parsed by parseVisitorsQuery rather than a DTO: one pass gives per-field
  // messages, the cross-field dateFrom < dateTo check, and leaves unknown parameters ignored.
  @Get(':projectId/visitors')
  @ProjectAccess()
  @ApiQuery({ name: 'dateFrom', required: false, description: `Inclusive. ${DATE}` })
  @ApiQuery({ name: 'dateTo', required: false, description: `Exclusive. ${DATE}` })
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: LIMIT_MAX, default: LIMIT_DEFAULT } })
  @ApiQuery({ name: 'offset', required: false, schema: { type: 'integer', minimum: 0, default: 0 } })
  @ApiOkResponse({ type: VisitorsReportView })
  report(@Param('projectId') projectId: string, @Query() query: Record<string, unknown>) {
    return this.visitors.report(projectId, parseVisitorsQuery(query));
  }
}

import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ProjectAccess } from '../auth/auth.guard';
import { INTERVALS } from '../common/time-zone';
import { ApiAnalyticsQuery, ApiPageQuery } from '../visitors/analytics.openapi';
import { BreakdownView, TimeseriesView } from './insights.dto';
import { BREAKDOWN_DIMENSIONS, MAX_BUCKETS, parseBreakdownQuery, parseTimeseriesQuery } from './insights.params';
import { InsightsService } from './insights.service';

@ApiTags('analytics')
@Controller('v1/analytics')
export class InsightsController {
  constructor(private readonly insights: InsightsService) {}

  @Get(':projectId/timeseries')
  @ProjectAccess()
  @ApiQuery({ name: 'interval', required: false, schema: { type: 'string', enum: [...INTERVALS], default: 'day' }, description: `Buckets aligned in timezone (week = ISO, from Monday). More than ${MAX_BUCKETS} buckets → 400.` })
  @ApiAnalyticsQuery({ from: 'Inclusive; absent = 30 buckets before dateTo.', to: 'Exclusive; absent = the start of the bucket after now.' })
  @ApiOkResponse({ type: TimeseriesView })
  timeseries(@Param('projectId') projectId: string, @Query() query: Record<string, unknown>) {
    return this.insights.timeseries(projectId, parseTimeseriesQuery(query, Date.now()));
  }

  @Get(':projectId/breakdown')
  @ProjectAccess()
  @ApiQuery({ name: 'by', required: true, schema: { type: 'string', enum: [...BREAKDOWN_DIMENSIONS] } })
  @ApiAnalyticsQuery()
  @ApiPageQuery()
  @ApiOkResponse({ type: BreakdownView })
  breakdown(@Param('projectId') projectId: string, @Query() query: Record<string, unknown>) {
    return this.insights.breakdown(projectId, parseBreakdownQuery(query));
  }
}

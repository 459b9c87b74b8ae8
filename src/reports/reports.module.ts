import { Module, OnApplicationBootstrap } from '@nestjs/common';
import { Config } from '../config/config';
import { InsightsRepository } from '../insights/insights.repository';
import { InsightsService } from '../insights/insights.service';
import { VisitorsRepository } from '../visitors/visitors.repository';
import { VisitorsService } from '../visitors/visitors.service';
import { ReportContentBuilder } from './report-content';
import { ReportScheduler } from './report-scheduler';
import { ReportsController } from './reports.controller';
import { ReportsRepository } from './reports.repository';
import { ReportsService } from './reports.service';

/** Scheduled reports: in the service process (they read ClickHouse), scheduler on when DELIVERY is on. */
@Module({
  controllers: [ReportsController],
  providers: [ReportsRepository, ReportsService, ReportScheduler, ReportContentBuilder, VisitorsRepository, VisitorsService, InsightsRepository, InsightsService],
})
export class ReportsModule implements OnApplicationBootstrap {
  constructor(
    private readonly config: Config,
    private readonly scheduler: ReportScheduler,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.DELIVERY) this.scheduler.start();
  }
}

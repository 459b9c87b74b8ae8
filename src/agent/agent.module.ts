import { Module, OnApplicationBootstrap } from '@nestjs/common';
import { Config } from '../config/config';
import { Metrics } from '../metrics/metrics';
import { JobsController } from './jobs/jobs.controller';
import { JobsRepository } from './jobs/jobs.repository';
import { JobsService } from './jobs/jobs.service';
import { RateLimitHeadersInterceptor } from './jobs/rate-limit.interceptor';
import { RateLimitRepository } from './jobs/rate-limit.repository';
import { AgentWorkerModule } from './worker/agent-worker.module';
import { JobScheduler } from './worker/job-scheduler';

/** Agent jobs over HTTP, plus the worker in the same process when WORKER is on. */
@Module({
  imports: [AgentWorkerModule],
  controllers: [JobsController],
  providers: [JobsService, JobsRepository, RateLimitRepository, RateLimitHeadersInterceptor],
})
export class AgentModule implements OnApplicationBootstrap {
  constructor(
    private readonly config: Config,
    private readonly scheduler: JobScheduler,
    jobs: JobsRepository,
    metrics: Metrics,
  ) {
    metrics.countJobsWith(() => jobs.countByStatus());
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.WORKER) await this.scheduler.start();
  }
}

import { Module } from '@nestjs/common';
import { AgentRunnerModule } from '../runner/agent-runner.module';
import { JobProcessor } from './job-processor';
import { JobQueueRepository } from './job-queue.repository';
import { JobScheduler } from './job-scheduler';

/** The agent worker: needs Config and Database, never ClickHouse, so it also runs on its own (src/worker.ts). */
@Module({
  imports: [AgentRunnerModule],
  providers: [JobQueueRepository, JobProcessor, JobScheduler],
  exports: [JobScheduler],
})
export class AgentWorkerModule {}

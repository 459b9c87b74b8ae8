import { Module } from '@nestjs/common';
import { Config } from '../config/config';
import { CollectRoute } from './collect.route';
import { DailySalts } from './daily-salts';
import { HitsRepository } from './hits.repository';
import { HitsWriter } from './hits.writer';
import { IngestController } from './ingest.controller';
import { IngestService } from './ingest.service';
import { KnownProjects } from './known-projects';
import { SaltsRepository } from './salts.repository';
import { AGENT_RANGES_OPTIONS, AgentRanges } from './verification/agent-ranges';

@Module({
  controllers: [IngestController],
  providers: [
    HitsRepository,
    HitsWriter,
    SaltsRepository,
    { provide: DailySalts, inject: [SaltsRepository], useFactory: (salts: SaltsRepository) => new DailySalts(salts) },
    IngestService,
    KnownProjects,
    CollectRoute,
    {
      provide: AGENT_RANGES_OPTIONS,
      inject: [Config],
      useFactory: (config: Config) => ({ dataDir: config.DATA_DIR, checkIntervalMs: config.AGENT_RANGES_CHECK_MS, enabled: config.AGENT_VERIFICATION }),
    },
    AgentRanges,
  ],
  exports: [HitsWriter, AgentRanges],
})
export class IngestModule {}

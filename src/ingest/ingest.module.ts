import { Module } from '@nestjs/common';
import { CollectRoute } from './collect.route';
import { DailySalts } from './daily-salts';
import { HitsRepository } from './hits.repository';
import { HitsWriter } from './hits.writer';
import { IngestController } from './ingest.controller';
import { IngestService } from './ingest.service';
import { KnownProjects } from './known-projects';
import { SaltsRepository } from './salts.repository';

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
  ],
  exports: [HitsWriter],
})
export class IngestModule {}

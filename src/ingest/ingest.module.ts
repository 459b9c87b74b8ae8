import { Module } from '@nestjs/common';
import { CollectController } from './collect.controller';
import { DailySalts } from './daily-salts';
import { HitsRepository } from './hits.repository';
import { HitsWriter } from './hits.writer';
import { IngestController } from './ingest.controller';
import { IngestService } from './ingest.service';
import { SaltsRepository } from './salts.repository';

@Module({
  controllers: [IngestController, CollectController],
  providers: [
    HitsRepository,
    HitsWriter,
    SaltsRepository,
    { provide: DailySalts, inject: [SaltsRepository], useFactory: (salts: SaltsRepository) => new DailySalts(salts) },
    IngestService,
  ],
  exports: [HitsWriter],
})
export class IngestModule {}

import { Module } from '@nestjs/common';
import { TrackerController } from './tracker.controller';
import { TrackerScript } from './tracker-script';

@Module({
  controllers: [TrackerController],
  providers: [TrackerScript],
})
export class TrackerModule {}

import { Global, Module } from '@nestjs/common';
import { Metrics } from './metrics';

/** The one Metrics registry of the process, for every module that counts something (service and worker alike). */
@Global()
@Module({ providers: [Metrics], exports: [Metrics] })
export class MetricsModule {}

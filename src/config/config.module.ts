import { DynamicModule, Global, Module } from '@nestjs/common';
import { Config } from './config';

/** Provides the one Config, loaded at boot, to every module of a process (service or worker). */
@Global()
@Module({})
export class ConfigModule {
  static with(config: Config): DynamicModule {
    return { module: ConfigModule, providers: [{ provide: Config, useValue: config }], exports: [Config] };
  }
}

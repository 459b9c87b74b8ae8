import { Global, Logger, Module, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Config } from '../config/config';
import { Database } from './database';
import { migratePostgres } from './migrations';
import { PgDatabase } from './pg-database';
import { PgliteDatabase } from './pglite-database';

export async function openDatabase(config: Config): Promise<Database> {
  if (config.DATABASE_URL) return new PgDatabase(config.DATABASE_URL);
  const dir = resolve(join(config.DATA_DIR, 'postgres'));
  mkdirSync(dir, { recursive: true });
  return PgliteDatabase.open(dir, { sharedBuffersMb: config.PGLITE_SHARED_BUFFERS_MB });
}

@Global()
@Module({
  providers: [{ provide: Database, inject: [Config], useFactory: openDatabase }],
  exports: [Database],
})
export class DatabaseModule implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(DatabaseModule.name);

  constructor(private readonly db: Database) {}

  async onModuleInit(): Promise<void> {
    const applied = await migratePostgres(this.db);
    if (applied.length) this.logger.log(`applied Postgres migrations: ${applied.join(', ')}`);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.db.close();
  }
}

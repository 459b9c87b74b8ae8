import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { JobScheduler } from './agent/worker/job-scheduler';
import { WorkerAppModule } from './agent/worker/worker-app.module';
import { loadConfigOrExit } from './config/config';
import { WebhookDispatcher } from './webhooks/webhook-dispatcher';

/** A standalone agent worker: run any number beside the service (which may then set WORKER=off). */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  if (!config.DATABASE_URL) {
    // Embedded PGlite belongs to one process: a second one opening DATA_DIR/postgres would corrupt it.
    process.stderr.write('A standalone worker needs DATABASE_URL (the Postgres server the service uses). With the embedded database, the service runs the worker itself (WORKER=on).\n');
    process.exit(78);
  }
  const app = await NestFactory.createApplicationContext(WorkerAppModule.forRoot(config), { bufferLogs: true, abortOnError: false });
  app.useLogger(app.get(Logger));
  app.enableShutdownHooks();
  await app.get(JobScheduler).start();
  if (config.DELIVERY) await app.get(WebhookDispatcher).start();
}

void main().catch((err: unknown) => {
  process.stderr.write(`Docent worker failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});

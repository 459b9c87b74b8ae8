import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { IdempotencyRepository } from './idempotency.repository';

const PURGE_INTERVAL_MS = 3_600_000;
const PURGE_BATCH = 5000;

/** Deletes Idempotency-Keys past their TTL, hourly, on every instance (the purge is safe to run concurrently). */
@Injectable()
export class IdempotencyKeysPurge implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(IdempotencyKeysPurge.name);
  private timer?: NodeJS.Timeout;

  constructor(private readonly keys: IdempotencyRepository) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(
      () =>
        void this.purge().then(
          (n) => n && this.logger.log(`purged ${n} expired idempotency keys`),
          (err: unknown) => this.logger.warn({ err }, 'idempotency key purge failed'),
        ),
      PURGE_INTERVAL_MS,
    );
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** Purges in batches (short transactions) until nothing expired is left; returns how many. */
  async purge(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await this.keys.purgeExpired(PURGE_BATCH);
      total += n;
      if (n < PURGE_BATCH) break;
    }
    return total;
  }
}

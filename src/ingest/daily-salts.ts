import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { SaltsRepository } from './salts.repository';
import { DAY_MS } from '../common/time';
import { utcDay } from './visitor-identity';

const PURGE_INTERVAL_MS = 3_600_000;

/**
 * The per-UTC-day secret salts for human visitor ids, created on demand in Postgres (so every
 * instance shares them) and destroyed 48 h after their day began: a salt serves its own day and,
 * for late hits, the next one. Older human hits (backfills) get a one-off salt that is never stored.
 */
@Injectable()
export class DailySalts implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(DailySalts.name);
  private readonly cache = new Map<string, Promise<string>>();
  private purgedFor = '';
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly salts: SaltsRepository,
    private readonly now: () => number = Date.now,
  ) {}

  onApplicationBootstrap(): void {
    // Also purge when nobody ingests: a salt must not outlive its 48 h just because traffic stopped.
    this.timer = setInterval(() => void this.purge().catch((err: unknown) => this.logger.warn({ err }, 'salt purge failed')), PURGE_INTERVAL_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** The hex salt for human hits of `day` (YYYY-MM-DD), or undefined once that day's salt is destroyed. */
  async saltFor(day: string): Promise<string | undefined> {
    const oldestKept = utcDay(this.now() - DAY_MS);
    if (day < oldestKept) return undefined;
    if (this.purgedFor !== oldestKept) await this.purge();
    let salt = this.cache.get(day);
    if (!salt) {
      salt = this.salts.getOrCreate(day, randomBytes(32)).then((b) => b.toString('hex'));
      this.cache.set(day, salt);
      // A failed lookup must not stick in the cache.
      salt.catch(() => this.cache.delete(day));
    }
    return salt;
  }

  /** A salt used for one request and forgotten: older human hits stay countable within it, unlinkable beyond. */
  static oneOff(): string {
    return randomBytes(32).toString('hex');
  }

  async purge(): Promise<void> {
    const oldestKept = utcDay(this.now() - DAY_MS);
    for (const day of this.cache.keys()) if (day < oldestKept) this.cache.delete(day);
    await this.salts.deleteBefore(oldestKept);
    this.purgedFor = oldestKept;
  }
}

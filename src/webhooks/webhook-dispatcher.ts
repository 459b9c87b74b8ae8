import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { hostname } from 'node:os';
import { Clock } from '../common/clock';
import { CoalescedRun } from '../common/coalesced-run';
import { randomBase62 } from '../common/ids';
import { Config } from '../config/config';
import { Database } from '../database/database';
import { Metrics } from '../metrics/metrics';
import { MAX_ATTEMPTS, RETRY_DELAYS_MS, WEBHOOKS_CHANNEL } from './webhook-events';
import { ATTEMPT_TIMEOUT_MS, sendDelivery } from './webhook-sender';
import { ClaimedDelivery, WebhooksRepository } from './webhooks.repository';

const POLL_MS = 1000;
/** Longer than an attempt can take, so a live attempt never loses its delivery to another instance. */
const LEASE_MS = ATTEMPT_TIMEOUT_MS * 3;
const BATCH = 10;

/**
 * The delivery loop, in the service and in every standalone worker: claims due deliveries with
 * FOR UPDATE SKIP LOCKED under a lease (one instance attempts a delivery at a time), sends them,
 * and records the outcome with the next retry time. Woken by NOTIFY, with a poll for retries.
 */
@Injectable()
export class WebhookDispatcher implements OnModuleDestroy {
  private readonly logger = new Logger(WebhookDispatcher.name);
  readonly workerId = `${hostname()}:${process.pid}:${randomBase62(6)}`;
  private started = false;
  private stopping = false;
  private pollTimer?: NodeJS.Timeout;
  private unlisten?: () => Promise<void>;
  private readonly rounds = new CoalescedRun(
    () => this.drain(),
    (err) => this.logger.warn({ err: String(err) }, 'webhook delivery round failed; retrying at the next poll'),
    () => this.started && !this.stopping,
  );

  constructor(
    private readonly db: Database,
    private readonly repo: WebhooksRepository,
    private readonly clock: Clock,
    private readonly config: Config,
    private readonly metrics: Metrics,
  ) {}

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.unlisten = await this.db.listen(WEBHOOKS_CHANNEL, () => this.wake());
    this.pollTimer = setInterval(() => this.wake(), POLL_MS);
    this.wake();
  }

  /** Sends everything due; concurrent wake-ups coalesce. Resolves when this round is done (tests await it). */
  wake(): Promise<void> {
    return this.rounds.request();
  }

  private async drain(): Promise<void> {
    while (!this.stopping) {
      const batch = await this.repo.claim(this.workerId, this.clock.now(), LEASE_MS, BATCH);
      if (!batch.length) return;
      await Promise.all(batch.map((d) => this.attempt(d)));
    }
  }

  private async attempt(delivery: ClaimedDelivery): Promise<void> {
    // The signature carries the wall-clock time: receivers check it against theirs (5 min tolerance).
    const result = await sendDelivery(delivery, new Date(), this.config.WEBHOOK_ALLOW_PRIVATE);
    const attempt = delivery.attempts + 1;
    const delay = RETRY_DELAYS_MS[attempt - 1];
    const nextAttemptAt = result.delivered || attempt >= MAX_ATTEMPTS || delay === undefined ? null : new Date(this.clock.now().getTime() + delay);
    const status = await this.repo.recordAttempt(delivery.id, this.workerId, { ...result, at: this.clock.now(), nextAttemptAt });
    if (!status) return; // the lease went to another instance; its record stands
    this.metrics.webhookDeliveries.inc({ status: status === 'pending' ? 'failed' : status === 'failed' ? 'dead' : 'delivered' });
    if (!result.delivered) this.logger.warn({ deliveryId: delivery.id, webhookId: delivery.webhook_id, attempt, error: result.error }, 'webhook attempt failed');
  }

  async onModuleDestroy(): Promise<void> {
    if (!this.started || this.stopping) return;
    this.stopping = true;
    clearInterval(this.pollTimer);
    await this.unlisten?.().catch(() => undefined);
    await this.rounds.current;
  }
}

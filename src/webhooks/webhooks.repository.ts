import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { WEBHOOKS_CHANNEL } from './webhook-events';

export interface WebhookRow {
  id: string;
  project_id: string;
  url: string;
  events: string[];
  secret: string;
  created_at: Date;
}

export interface DeliveryRow {
  id: string;
  webhook_id: string;
  project_id: string;
  event: string;
  body: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: Date;
  last_status_code: number | null;
  last_error: string | null;
  created_at: Date;
  delivered_at: Date | null;
}

/** A claimed delivery with what sending it needs. */
export interface ClaimedDelivery extends DeliveryRow {
  url: string;
  secret: string;
}

const DELIVERY_COLUMNS = 'id, webhook_id, project_id, event, body, status, attempts, next_attempt_at, last_status_code, last_error, created_at, delivered_at';

@Injectable()
export class WebhooksRepository {
  constructor(private readonly db: Database) {}

  async insert(row: Omit<WebhookRow, 'created_at'>): Promise<WebhookRow> {
    const [created] = await this.db.query<WebhookRow>(
      'INSERT INTO webhooks (id, project_id, url, events, secret) VALUES ($1, $2, $3, $4, $5) RETURNING *',
      [row.id, row.project_id, row.url, row.events, row.secret],
    );
    return created;
  }

  list(projectId: string): Promise<WebhookRow[]> {
    return this.db.query<WebhookRow>('SELECT * FROM webhooks WHERE project_id = $1 ORDER BY created_at, id', [projectId]);
  }

  async find(projectId: string, id: string): Promise<WebhookRow | undefined> {
    const [row] = await this.db.query<WebhookRow>('SELECT * FROM webhooks WHERE project_id = $1 AND id = $2', [projectId, id]);
    return row;
  }

  /** Deletes the webhook and, by cascade, its deliveries: nothing more is sent to it. */
  async delete(projectId: string, id: string): Promise<boolean> {
    const rows = await this.db.query('DELETE FROM webhooks WHERE project_id = $1 AND id = $2 RETURNING id', [projectId, id]);
    return rows.length > 0;
  }

  /** Newest first; one row more than asked tells whether there is a next page. */
  deliveries(webhookId: string, limit: number, offset: number): Promise<DeliveryRow[]> {
    return this.db.query<DeliveryRow>(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
      [webhookId, limit, offset],
    );
  }

  /** Puts a delivery back in the queue, due now, with a fresh retry schedule; the same id (webhook-id) goes out. */
  async redeliver(webhookId: string, deliveryId: string, now: Date): Promise<DeliveryRow | undefined> {
    const [row] = await this.db.query<DeliveryRow>(
      `UPDATE webhook_deliveries SET status = 'pending', attempts = 0, next_attempt_at = $3, locked_by = NULL, locked_until = NULL
       WHERE webhook_id = $1 AND id = $2 RETURNING ${DELIVERY_COLUMNS}`,
      [webhookId, deliveryId, now],
    );
    if (row) await this.db.query('SELECT pg_notify($1, $2)', [WEBHOOKS_CHANNEL, '']);
    return row;
  }

  /** Claims up to `limit` due deliveries under a lease; another instance skips the locked rows. */
  claim(workerId: string, now: Date, leaseMs: number, limit: number): Promise<ClaimedDelivery[]> {
    return this.db.query<ClaimedDelivery>(
      `WITH next AS (
         SELECT id FROM webhook_deliveries
         WHERE status = 'pending' AND next_attempt_at <= $2 AND (locked_until IS NULL OR locked_until < $2)
         ORDER BY next_attempt_at, created_at
         LIMIT $4
         FOR UPDATE SKIP LOCKED
       )
       UPDATE webhook_deliveries d SET locked_by = $1, locked_until = $2::timestamptz + make_interval(secs => $3)
       FROM next, webhooks w WHERE d.id = next.id AND w.id = d.webhook_id
       RETURNING d.id, d.webhook_id, d.project_id, d.event, d.body, d.status, d.attempts, d.next_attempt_at, d.last_status_code,
                 d.last_error, d.created_at, d.delivered_at, w.url, w.secret`,
      [workerId, now, leaseMs / 1000, limit],
    );
  }

  /** Records one attempt, only while the lease is ours; `nextAttemptAt` null = no more tries. */
  async recordAttempt(
    id: string,
    workerId: string,
    result: { delivered: boolean; statusCode: number | null; error: string | null; at: Date; nextAttemptAt: Date | null },
  ): Promise<'delivered' | 'pending' | 'failed' | undefined> {
    const [row] = await this.db.query<{ status: 'delivered' | 'pending' | 'failed' }>(
      `UPDATE webhook_deliveries SET attempts = attempts + 1, last_status_code = $3, last_error = $4,
         status = CASE WHEN $5 THEN 'delivered' WHEN $6::timestamptz IS NULL THEN 'failed' ELSE 'pending' END,
         delivered_at = CASE WHEN $5 THEN $7::timestamptz ELSE delivered_at END,
         next_attempt_at = coalesce($6::timestamptz, next_attempt_at),
         locked_by = NULL, locked_until = NULL
       WHERE id = $1 AND locked_by = $2 RETURNING status`,
      [id, workerId, result.statusCode, result.error, result.delivered, result.nextAttemptAt, result.at],
    );
    return row?.status;
  }
}

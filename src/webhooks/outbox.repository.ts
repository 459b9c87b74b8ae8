import { Injectable } from '@nestjs/common';
import { newId } from '../common/ids';
import { Queryable } from '../database/database';
import { WEBHOOKS_CHANNEL, WebhookEvent } from './webhook-events';

/**
 * The write side of the outbox: called inside the transaction that makes the change, so the event
 * commits (or rolls back) with it. One delivery row per subscribed webhook of the project.
 */
@Injectable()
export class OutboxRepository {
  async enqueue(tx: Queryable, projectId: string, type: WebhookEvent, data: unknown, at: Date = new Date()): Promise<number> {
    const hooks = await tx.query<{ id: string }>(
      `SELECT id FROM webhooks WHERE project_id = $1 AND ($2 = ANY(events) OR '*' = ANY(events)) ORDER BY created_at, id`,
      [projectId, type],
    );
    if (!hooks.length) return 0;
    const body = JSON.stringify({ type, timestamp: at.toISOString(), data });
    for (const hook of hooks) {
      await tx.query(
        `INSERT INTO webhook_deliveries (id, webhook_id, project_id, event, body, next_attempt_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $6)`,
        [newId('msg'), hook.id, projectId, type, body, at],
      );
    }
    await tx.query('SELECT pg_notify($1, $2)', [WEBHOOKS_CHANNEL, '']);
    return hooks.length;
  }
}

import { DeliveryView, WebhookView } from './webhooks.dto';
import { DeliveryRow, WebhookRow } from './webhooks.repository';

export function toWebhookView(row: WebhookRow): WebhookView {
  return { id: row.id, url: row.url, events: row.events, createdAt: row.created_at.toISOString() };
}

export function toDeliveryView(row: DeliveryRow): DeliveryView {
  return {
    id: row.id,
    event: row.event,
    status: row.status,
    attempts: row.attempts,
    lastStatusCode: row.last_status_code,
    lastError: row.last_error,
    createdAt: row.created_at.toISOString(),
    deliveredAt: row.delivered_at?.toISOString() ?? null,
    nextAttemptAt: row.status === 'pending' ? row.next_attempt_at.toISOString() : null,
  };
}

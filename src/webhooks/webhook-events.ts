export const WEBHOOK_EVENTS = ['job.completed', 'job.failed', 'job.archived', 'report.ready'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** NOTIFY channel: a delivery became due (new event, redeliver). */
export const WEBHOOKS_CHANNEL = 'docent_webhooks';

/**
 * Delays before each retry, after the first attempt (Standard Webhooks / Svix schedule):
 * 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h — 8 attempts over about 27.6 hours, then `failed`.
 */
export const RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

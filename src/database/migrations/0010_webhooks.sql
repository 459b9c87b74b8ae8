-- Webhooks per project. The secret is kept (it signs every delivery); it is shown once at creation.
CREATE TABLE webhooks (
  id          text PRIMARY KEY,
  project_id  text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  url         text NOT NULL,
  events      text[] NOT NULL,
  secret      text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX webhooks_project_idx ON webhooks (project_id, created_at, id);

-- The outbox: one row per (event, webhook), written in the same transaction as the change it
-- reports. The body is stored as sent, so every retry signs the same bytes under the same id.
-- Deleting a webhook deletes its pending deliveries: it gets nothing more.
CREATE TABLE webhook_deliveries (
  id                text PRIMARY KEY,
  webhook_id        text NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  project_id        text NOT NULL,
  event             text NOT NULL,
  body              text NOT NULL,
  status            text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts          integer NOT NULL DEFAULT 0,
  next_attempt_at   timestamptz NOT NULL,
  last_status_code  integer,
  last_error        text,
  locked_by         text,
  locked_until      timestamptz,
  created_at        timestamptz NOT NULL,
  delivered_at      timestamptz
);

CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';

CREATE INDEX webhook_deliveries_webhook_idx ON webhook_deliveries (webhook_id, created_at DESC, id DESC);

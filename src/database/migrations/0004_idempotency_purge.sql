-- Expired Idempotency-Keys are purged periodically (IdempotencyKeysPurge); this keeps that cheap.
CREATE INDEX IF NOT EXISTS idempotency_keys_created_at ON idempotency_keys (created_at);

-- A finished Idempotency-Key is one with a stored response; the status comes from the route, which
-- always answers the same one, so the stores no longer keep HTTP statuses.
UPDATE idempotency_keys SET response = 'null'::jsonb WHERE status IS NOT NULL AND response IS NULL;
ALTER TABLE idempotency_keys DROP COLUMN status;

-- Idempotency-Key crash safety: ClickHouse remembers the deduplication tokens of the last inserts
-- into hits and skips, partition by partition, what an insert with the same token already stored.
-- A keyed batch's token is derived from its key, so a retry after a crash (the first attempt stored
-- all, some or none of its months) completes it exactly once. Every other insert carries a fresh
-- token, so nothing is deduplicated by content. The window counts inserted parts (one per month an
-- insert touches): a retry must come within the last 100,000 of them. On a replicated table
-- replicated_deduplication_window(_seconds) plays this role instead.
ALTER TABLE hits MODIFY SETTING non_replicated_deduplication_window = 100000;

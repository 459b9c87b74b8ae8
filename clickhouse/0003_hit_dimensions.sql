-- Dimensions for the insights API and verified agents (insights-and-delivery.md §3, §6;
-- classification.md §1, §3). Rows stored before this keep what they were given: no operator,
-- no utm_source, verification unknown.
ALTER TABLE hits ADD COLUMN IF NOT EXISTS ai_operator LowCardinality(String) DEFAULT '' AFTER ai_category;

ALTER TABLE hits ADD COLUMN IF NOT EXISTS verification Enum8('unknown' = 0, 'verified' = 1, 'unverified' = 2) DEFAULT 'unknown' AFTER ai_operator;

ALTER TABLE hits ADD COLUMN IF NOT EXISTS utm_source LowCardinality(String) DEFAULT '' AFTER referrer_host;

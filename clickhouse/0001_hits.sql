-- One row per page hit. visitor_id is a 64-bit hash of the visitor identity (decisions.md §3);
-- raw IPs are never stored. Sorted for the visitors report: one project's range, then by path.
CREATE TABLE IF NOT EXISTS hits
(
    project_id     LowCardinality(String),
    timestamp      DateTime64(3, 'UTC'),
    path           String CODEC(ZSTD(1)),
    visitor_id     UInt64,
    class          Enum8('human' = 1, 'ai' = 2, 'bot' = 3),
    ai_agent       LowCardinality(String),
    ai_category    LowCardinality(String),
    browser        LowCardinality(String),
    os             LowCardinality(String),
    device         LowCardinality(String),
    referrer_host  LowCardinality(String)
)
ENGINE = MergeTree
PARTITION BY toYYYYMM(timestamp)
ORDER BY (project_id, toDate(timestamp), path, visitor_id, timestamp)

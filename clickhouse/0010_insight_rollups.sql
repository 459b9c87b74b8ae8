-- Rollups for the insights API (timeseries, breakdown), fed from hits by materialized views. One row
-- per (project, UTC day, dimensions, visitor) once merged; bots are left out. `quarters` is a
-- bitmask of the quarter-hours of that UTC day (bit q = [q × 15 min, (q + 1) × 15 min)) in which the
-- visitor had such a hit. Every time zone's hour and day boundaries fall on quarter-hours (Kolkata
-- +05:30, Kathmandu +05:45), so buckets in any zone are unions of whole quarters; the partial
-- quarters at a window's edges come from hits (insights.repository.ts). OR is idempotent, so a row
-- written twice (a retried insert, the backfill below racing a view) changes nothing; queries
-- deduplicate with uniqExact, so answers never depend on merges. Hit counts are not kept here: they
-- are read from hits (a count needs no visitor set, and a sum would not be idempotent).
ALTER TABLE hits ADD COLUMN IF NOT EXISTS format LowCardinality(String) MATERIALIZED multiIf(
    endsWith(lower(path), '/llms.txt') OR endsWith(lower(path), '/llms-full.txt'), 'llms.txt',
    endsWith(lower(path), '.md') OR endsWith(lower(path), '.mdx'), 'markdown',
    endsWith(lower(path), '.html') OR endsWith(lower(path), '.htm')
      OR (position(splitByChar('/', path)[-1], '.') = 0 AND lower(splitByChar('/', path)[-1]) NOT IN ('feed', 'rss', 'atom', 'sitemap')), 'html',
    'other');

CREATE TABLE IF NOT EXISTS visitor_quarters
(
    project_id  LowCardinality(String),
    day         Date,
    class       Enum8('human' = 1, 'ai' = 2, 'bot' = 3),
    format      LowCardinality(String),
    visitor_id  UInt64,
    quarters    SimpleAggregateFunction(groupBitOr, UInt128)
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(day)
ORDER BY (project_id, day, class, format, visitor_id);

CREATE TABLE IF NOT EXISTS ai_visitor_quarters
(
    project_id   LowCardinality(String),
    day          Date,
    ai_agent     LowCardinality(String),
    ai_operator  LowCardinality(String),
    ai_category  LowCardinality(String),
    visitor_id   UInt64,
    quarters     SimpleAggregateFunction(groupBitOr, UInt128)
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(day)
ORDER BY (project_id, day, ai_agent, ai_operator, ai_category, visitor_id);

CREATE TABLE IF NOT EXISTS human_visitor_quarters
(
    project_id     LowCardinality(String),
    day            Date,
    browser        LowCardinality(String),
    os             LowCardinality(String),
    device         LowCardinality(String),
    referrer_host  LowCardinality(String),
    utm_source     LowCardinality(String),
    visitor_id     UInt64,
    quarters       SimpleAggregateFunction(groupBitOr, UInt128)
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(day)
ORDER BY (project_id, day, browser, os, device, referrer_host, utm_source, visitor_id);

CREATE MATERIALIZED VIEW IF NOT EXISTS visitor_quarters_mv TO visitor_quarters AS
SELECT project_id, toDate(timestamp) AS day, class, format, visitor_id,
       groupBitOr(bitShiftLeft(toUInt128(1), toHour(timestamp) * 4 + intDiv(toMinute(timestamp), 15))) AS quarters
FROM hits
WHERE class IN ('human', 'ai')
GROUP BY project_id, day, class, format, visitor_id;

CREATE MATERIALIZED VIEW IF NOT EXISTS ai_visitor_quarters_mv TO ai_visitor_quarters AS
SELECT project_id, toDate(timestamp) AS day, ai_agent, ai_operator, ai_category, visitor_id,
       groupBitOr(bitShiftLeft(toUInt128(1), toHour(timestamp) * 4 + intDiv(toMinute(timestamp), 15))) AS quarters
FROM hits
WHERE class = 'ai'
GROUP BY project_id, day, ai_agent, ai_operator, ai_category, visitor_id;

CREATE MATERIALIZED VIEW IF NOT EXISTS human_visitor_quarters_mv TO human_visitor_quarters AS
SELECT project_id, toDate(timestamp) AS day, browser, os, device, referrer_host, utm_source, visitor_id,
       groupBitOr(bitShiftLeft(toUInt128(1), toHour(timestamp) * 4 + intDiv(toMinute(timestamp), 15))) AS quarters
FROM hits
WHERE class = 'human'
GROUP BY project_id, day, browser, os, device, referrer_host, utm_source, visitor_id;

-- Hits stored before the views existed.
INSERT INTO visitor_quarters
SELECT project_id, toDate(timestamp) AS day, class, format, visitor_id,
       groupBitOr(bitShiftLeft(toUInt128(1), toHour(timestamp) * 4 + intDiv(toMinute(timestamp), 15)))
FROM hits
WHERE class IN ('human', 'ai')
GROUP BY project_id, day, class, format, visitor_id;

INSERT INTO ai_visitor_quarters
SELECT project_id, toDate(timestamp) AS day, ai_agent, ai_operator, ai_category, visitor_id,
       groupBitOr(bitShiftLeft(toUInt128(1), toHour(timestamp) * 4 + intDiv(toMinute(timestamp), 15)))
FROM hits
WHERE class = 'ai'
GROUP BY project_id, day, ai_agent, ai_operator, ai_category, visitor_id;

INSERT INTO human_visitor_quarters
SELECT project_id, toDate(timestamp) AS day, browser, os, device, referrer_host, utm_source, visitor_id,
       groupBitOr(bitShiftLeft(toUInt128(1), toHour(timestamp) * 4 + intDiv(toMinute(timestamp), 15)))
FROM hits
WHERE class = 'human'
GROUP BY project_id, day, browser, os, device, referrer_host, utm_source, visitor_id;

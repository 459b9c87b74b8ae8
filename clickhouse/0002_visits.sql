-- Rollups for the visitors report, fed from hits by materialized views (so every insert into hits,
-- whatever writes it, lands here too). One row per (project, month, path, visitor) and per
-- (project, month, visitor) once merged; bots are left out. human_days / ai_days are bitmasks of
-- the UTC days of that month on which the visitor had a human / AI hit (bit day_of_month - 1).
-- OR is idempotent, so a row written twice (a retried insert, the backfill below racing the view)
-- changes nothing. The report reads whole UTC days from here and partial edge days from hits, and
-- deduplicates with uniqExact, so it never depends on merges having happened (visitors.repository.ts).
CREATE TABLE IF NOT EXISTS visits_by_path
(
    project_id  LowCardinality(String),
    month       UInt32,
    path        LowCardinality(String),
    visitor_id  UInt64,
    human_days  SimpleAggregateFunction(groupBitOr, UInt64),
    ai_days     SimpleAggregateFunction(groupBitOr, UInt64)
)
ENGINE = AggregatingMergeTree
PARTITION BY month
ORDER BY (project_id, path, visitor_id);

CREATE TABLE IF NOT EXISTS visits_by_visitor
(
    project_id  LowCardinality(String),
    month       UInt32,
    visitor_id  UInt64,
    human_days  SimpleAggregateFunction(groupBitOr, UInt64),
    ai_days     SimpleAggregateFunction(groupBitOr, UInt64)
)
ENGINE = AggregatingMergeTree
PARTITION BY month
ORDER BY (project_id, visitor_id);

CREATE MATERIALIZED VIEW IF NOT EXISTS visits_by_path_mv TO visits_by_path AS
SELECT project_id, toYYYYMM(timestamp) AS month, path, visitor_id,
       groupBitOrIf(bitShiftLeft(toUInt64(1), toDayOfMonth(timestamp) - 1), class = 'human') AS human_days,
       groupBitOrIf(bitShiftLeft(toUInt64(1), toDayOfMonth(timestamp) - 1), class = 'ai') AS ai_days
FROM hits
WHERE class IN ('human', 'ai')
GROUP BY project_id, month, path, visitor_id;

CREATE MATERIALIZED VIEW IF NOT EXISTS visits_by_visitor_mv TO visits_by_visitor AS
SELECT project_id, toYYYYMM(timestamp) AS month, visitor_id,
       groupBitOrIf(bitShiftLeft(toUInt64(1), toDayOfMonth(timestamp) - 1), class = 'human') AS human_days,
       groupBitOrIf(bitShiftLeft(toUInt64(1), toDayOfMonth(timestamp) - 1), class = 'ai') AS ai_days
FROM hits
WHERE class IN ('human', 'ai')
GROUP BY project_id, month, visitor_id;

-- Hits stored before the views existed.
INSERT INTO visits_by_path
SELECT project_id, toYYYYMM(timestamp) AS month, path, visitor_id,
       groupBitOrIf(bitShiftLeft(toUInt64(1), toDayOfMonth(timestamp) - 1), class = 'human'),
       groupBitOrIf(bitShiftLeft(toUInt64(1), toDayOfMonth(timestamp) - 1), class = 'ai')
FROM hits
WHERE class IN ('human', 'ai')
GROUP BY project_id, month, path, visitor_id;

INSERT INTO visits_by_visitor
SELECT project_id, toYYYYMM(timestamp) AS month, visitor_id,
       groupBitOrIf(bitShiftLeft(toUInt64(1), toDayOfMonth(timestamp) - 1), class = 'human'),
       groupBitOrIf(bitShiftLeft(toUInt64(1), toDayOfMonth(timestamp) - 1), class = 'ai')
FROM hits
WHERE class IN ('human', 'ai')
GROUP BY project_id, month, visitor_id;

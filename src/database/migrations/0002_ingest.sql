-- The secret salt of each UTC day for human visitor ids (decisions.md §3). Shared by every instance;
-- a day's row is deleted once the day after it has ended (48 h after the day began), and with it
-- any way to link that day's visitor ids to an IP and user agent.
CREATE TABLE ingest_salts (
  day         date PRIMARY KEY,
  salt        bytea NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);

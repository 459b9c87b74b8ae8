CREATE TABLE projects (
  id          text PRIMARY KEY,
  name        text NOT NULL,
  repository  text,
  ref         text NOT NULL DEFAULT 'main',
  clone_url   text,
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
  id          text PRIMARY KEY,
  project_id  text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  key_hash    bytea NOT NULL UNIQUE,
  hint        text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  revoked_at  timestamptz
);

CREATE INDEX api_keys_project_idx ON api_keys (project_id, created_at);

-- Replays of create / follow-up / ingest requests that carried an Idempotency-Key (kept 24 h).
CREATE TABLE idempotency_keys (
  project_id  text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  scope       text NOT NULL,
  key         text NOT NULL,
  status      integer,
  response    jsonb,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (project_id, scope, key)
);

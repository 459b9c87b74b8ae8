-- Agent jobs. A job is `active` exactly while it has a queued or running message; workers claim
-- active jobs with FOR UPDATE SKIP LOCKED and hold them under a lease (locked_by, locked_until).
CREATE TABLE agent_jobs (
  id            text PRIMARY KEY,
  project_id    text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  status        text NOT NULL CHECK (status IN ('active', 'completed', 'archived', 'failed')),
  model         text NOT NULL,
  repository    text,
  ref           text NOT NULL,
  clone_url     text,
  pr_link       text,
  error         text,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  archived_at   timestamptz,
  -- Lease: the worker holding the job, and until when; renewed by its heartbeat.
  locked_by     text,
  locked_until  timestamptz,
  claimed_at    timestamptz,
  -- Retry backoff: the job is not claimed again before this time.
  run_after     timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX agent_jobs_project_idx ON agent_jobs (project_id, created_at DESC, id DESC);

CREATE INDEX agent_jobs_runnable_idx ON agent_jobs (run_after, created_at) WHERE status = 'active';

-- The conversation of a job: the initial prompt is seq 1, each follow-up the next seq.
CREATE TABLE agent_job_messages (
  job_id       text NOT NULL REFERENCES agent_jobs (id) ON DELETE CASCADE,
  seq          integer NOT NULL,
  prompt       text NOT NULL,
  status       text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed', 'cancelled')),
  summary      text,
  commit_sha   text,
  attempts     integer NOT NULL DEFAULT 0,
  created_at   timestamptz NOT NULL DEFAULT now(),
  claimed_at   timestamptz,
  finished_at  timestamptz,
  PRIMARY KEY (job_id, seq)
);

-- One row per admitted create or follow-up; the sliding-hour budget counts them.
CREATE TABLE agent_rate_usage (
  project_id  text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  used_at     timestamptz NOT NULL
);

CREATE INDEX agent_rate_usage_idx ON agent_rate_usage (project_id, used_at);

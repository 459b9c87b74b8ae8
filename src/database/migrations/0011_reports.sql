-- Scheduled reports. next_run_at is the next due time; the scheduler that moves it (under the row
-- lock) inserts the run, and (report_id, scheduled_for) is unique: each due time runs once.
CREATE TABLE reports (
  id           text PRIMARY KEY,
  project_id   text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  name         text NOT NULL,
  cron         text NOT NULL,
  timezone     text NOT NULL,
  range        text NOT NULL,
  format       text NOT NULL CHECK (format IN ('csv', 'json')),
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  next_run_at  timestamptz
);

CREATE INDEX reports_project_idx ON reports (project_id, created_at, id);

CREATE INDEX reports_due_idx ON reports (next_run_at);

CREATE TABLE report_runs (
  id             text PRIMARY KEY,
  report_id      text NOT NULL REFERENCES reports (id) ON DELETE CASCADE,
  project_id     text NOT NULL,
  status         text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'running', 'succeeded', 'failed')),
  scheduled_for  timestamptz NOT NULL,
  manual         boolean NOT NULL DEFAULT false,
  window_from    timestamptz NOT NULL,
  window_to      timestamptz NOT NULL,
  error          text,
  content        text,
  attempts       integer NOT NULL DEFAULT 0,
  locked_by      text,
  locked_until   timestamptz,
  created_at     timestamptz NOT NULL,
  finished_at    timestamptz
);

CREATE UNIQUE INDEX report_runs_due_once ON report_runs (report_id, scheduled_for) WHERE NOT manual;

CREATE INDEX report_runs_report_idx ON report_runs (report_id, created_at DESC, id DESC);

CREATE INDEX report_runs_pending_idx ON report_runs (created_at) WHERE status IN ('pending', 'running');

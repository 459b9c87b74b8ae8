import { useState } from 'preact/hooks';
import { call, enc, type Job } from '../api';
import { ErrorNote, Panel, Spinner, StatusPill } from '../components/ui';
import { dateTime } from '../format';
import { errorText, useApi, useInterval } from '../hooks';
import { Link } from '../router';
import { prLabel } from './jobs';

export function JobDetailPage(props: { token: string; projectId: string; jobId: string }) {
  const path = `/v2/agent/${enc(props.projectId)}/job/${enc(props.jobId)}`;
  const loaded = useApi((signal) => call<Job>(props.token, 'GET', path, { signal }), [path, props.token]);
  const [override, setOverride] = useState<Job>();
  const job = loaded.data && override && override.updatedAt && loaded.data.updatedAt && override.updatedAt > loaded.data.updatedAt ? override : (loaded.data ?? override);
  // Live status while the agent works: the job is polled, as the API's contract says clients do.
  useInterval(loaded.reload, 1500, job?.status === 'active');
  const [prompt, setPrompt] = useState('');
  const [busy, setBusy] = useState<string>();
  const [error, setError] = useState<string>();

  async function act(kind: 'message' | 'archive') {
    setBusy(kind);
    setError(undefined);
    try {
      const next = await call<Job>(props.token, 'POST', `${path}/${kind}`, kind === 'message' ? { body: { prompt } } : {});
      setOverride(next);
      if (kind === 'message') setPrompt('');
      loaded.reload();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(undefined);
    }
  }

  return (
    <div class="job-detail">
      <p class="crumbs">
        <Link href={`/dashboard/${enc(props.projectId)}/jobs`}>← Jobs</Link>
      </p>
      <ErrorNote error={loaded.error} />
      {!job ? (
        loaded.error ? null : <Spinner />
      ) : (
        <>
          <div class="page-head">
            <div>
              <h1 class="mono">{job.id}</h1>
              <p class="muted">
                Started {dateTime(job.createdAt)} · model <code>{job.model}</code>
              </p>
            </div>
            <div class="job-status" data-status={job.status}>
              {job.status === 'active' ? <Spinner label="The agent is working" /> : null}
              <StatusPill status={job.status} />
            </div>
          </div>
          <Panel title="Result" id="result">
            <dl class="facts">
              <dt>Status</dt>
              <dd>{describe(job)}</dd>
              <dt>Pull request</dt>
              <dd data-testid="pr-link">
                {job.prLink ? (
                  <a href={job.prLink} target="_blank" rel="noopener noreferrer">
                    {prLabel(job.prLink)} ↗
                  </a>
                ) : (
                  <span class="muted">{job.status === 'active' ? 'Opened when the agent has committed a change.' : 'None: no file was changed.'}</span>
                )}
              </dd>
              {job.error ? (
                <>
                  <dt>Why it failed</dt>
                  <dd class="error-text" data-testid="job-error">
                    {job.error}
                  </dd>
                </>
              ) : null}
              <dt>Repository</dt>
              <dd>
                {job.source.repository ? <a href={job.source.repository} target="_blank" rel="noopener noreferrer">{job.source.repository}</a> : <span class="muted">not set</span>} at <code>{job.source.ref}</code>
              </dd>
              {job.updatedAt ? (
                <>
                  <dt>Updated</dt>
                  <dd>{dateTime(job.updatedAt)}</dd>
                </>
              ) : null}
              {job.archivedAt ? (
                <>
                  <dt>Archived</dt>
                  <dd>{dateTime(job.archivedAt)}</dd>
                </>
              ) : null}
            </dl>
          </Panel>
          {job.status !== 'archived' ? (
            <form
              class="panel composer"
              onSubmit={(e) => {
                e.preventDefault();
                void act('message');
              }}
            >
              <label class="field">
                <span>Follow-up</span>
                <textarea
                  rows={3}
                  required
                  placeholder={job.status === 'active' ? 'Queued after the current turn…' : 'Ask for a change on the same branch and pull request…'}
                  value={prompt}
                  onInput={(e) => setPrompt((e.target as HTMLTextAreaElement).value)}
                />
              </label>
              <ErrorNote error={error} title="That did not work" />
              <div class="composer-foot">
                <button type="button" class="btn btn-ghost" disabled={!!busy} onClick={() => confirm('Archive this job? Work in progress stops at its next step.') && act('archive')}>
                  {busy === 'archive' ? 'Archiving…' : 'Archive job'}
                </button>
                <button type="submit" class="btn btn-primary" disabled={!!busy || !prompt.trim()}>
                  {busy === 'message' ? 'Sending…' : 'Send follow-up'}
                </button>
              </div>
            </form>
          ) : (
            <ErrorNote error={error} />
          )}
        </>
      )}
    </div>
  );
}

function describe(job: Job): string {
  switch (job.status) {
    case 'active':
      return 'The agent is working on it. This page updates by itself.';
    case 'completed':
      return job.prLink ? 'Done: the change is waiting for review in the pull request.' : 'Done, with nothing to change.';
    case 'failed':
      return 'The agent stopped with an error. Send a follow-up to try again on the same branch.';
    case 'archived':
      return 'Archived. It takes no more follow-ups.';
  }
}

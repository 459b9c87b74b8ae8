import { useState } from 'preact/hooks';
import { call, enc, type Job, type JobStatus } from '../api';
import { Empty, ErrorNote, Panel, Spinner, StatusPill } from '../components/ui';
import { relative } from '../format';
import { errorText, useApi, useInterval } from '../hooks';
import { Link, navigate, setQuery, useLocation } from '../router';

const STATUSES: Array<{ value: JobStatus | ''; label: string }> = [
  { value: '', label: 'All' },
  { value: 'active', label: 'Active' },
  { value: 'completed', label: 'Completed' },
  { value: 'failed', label: 'Failed' },
  { value: 'archived', label: 'Archived' },
];
const PAGE = 20;

export function JobsPage(props: { token: string; projectId: string }) {
  const { query } = useLocation();
  const status = (STATUSES.some((s) => s.value === query.get('status')) ? query.get('status') : '') as JobStatus | '';
  const offset = Math.max(0, Number.parseInt(query.get('offset') ?? '0', 10) || 0);
  const jobs = useApi(
    (signal) => call<{ jobs: Job[]; hasMore: boolean }>(props.token, 'GET', `/v2/agent/${enc(props.projectId)}/jobs`, { query: { status, limit: PAGE, offset }, signal }),
    [props.projectId, props.token, status, offset],
  );
  const anyActive = !!jobs.data?.jobs.some((j) => j.status === 'active');
  useInterval(jobs.reload, 2000, anyActive);

  return (
    <div class="jobs">
      <div class="page-head">
        <div>
          <h1>Jobs</h1>
          <p class="muted">Describe a docs change; an agent edits the repository and opens a pull request.</p>
        </div>
      </div>
      <NewJob token={props.token} projectId={props.projectId} onCreated={(job) => navigate(`/dashboard/${enc(props.projectId)}/jobs/${enc(job.id)}`)} />
      <Panel
        title="All jobs"
        id="job-list"
        actions={
          <div class="segmented" role="group" aria-label="Filter by status">
            {STATUSES.map((s) => (
              <button type="button" aria-pressed={status === s.value} class={status === s.value ? 'active' : ''} onClick={() => setQuery({ status: s.value || null, offset: null })}>
                {s.label}
              </button>
            ))}
          </div>
        }
      >
        <ErrorNote error={jobs.error} />
        {!jobs.data && !jobs.error ? (
          <div class="panel-loading">
            <Spinner />
          </div>
        ) : jobs.data && jobs.data.jobs.length === 0 ? (
          <Empty title={status ? `No ${status} jobs.` : 'No jobs yet.'}>
            <p class="muted">Write what should change above — for example “Document the new --dry-run flag in the CLI reference”.</p>
          </Empty>
        ) : jobs.data ? (
          <table class="list">
            <caption class="sr-only">Agent jobs, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Job</th>
                <th scope="col">Status</th>
                <th scope="col">Pull request</th>
                <th scope="col" class="num">Created</th>
              </tr>
            </thead>
            <tbody>
              {jobs.data.jobs.map((job) => (
                <tr key={job.id} data-job={job.id}>
                  <td>
                    <Link href={`/dashboard/${enc(props.projectId)}/jobs/${enc(job.id)}`} class="mono">
                      {job.id}
                    </Link>
                    {job.error ? <div class="sub error-text">{job.error}</div> : null}
                  </td>
                  <td>
                    <StatusPill status={job.status} />
                  </td>
                  <td>{job.prLink ? <a href={job.prLink} target="_blank" rel="noopener noreferrer">{prLabel(job.prLink)}</a> : <span class="muted">–</span>}</td>
                  <td class="num muted" title={job.createdAt}>
                    {relative(job.createdAt)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
        {jobs.data && (offset > 0 || jobs.data.hasMore) ? (
          <div class="pager pager-foot">
            <button type="button" class="btn btn-small btn-ghost" disabled={offset === 0} onClick={() => setQuery({ offset: offset > PAGE ? String(offset - PAGE) : null })}>
              ‹ Newer
            </button>
            <button type="button" class="btn btn-small btn-ghost" disabled={!jobs.data.hasMore} onClick={() => setQuery({ offset: String(offset + PAGE) })}>
              Older ›
            </button>
          </div>
        ) : null}
      </Panel>
    </div>
  );
}

export function prLabel(url: string): string {
  const m = /\/([^/]+\/[^/]+)\/pull\/(\d+)/.exec(url);
  return m ? `${m[1]}#${m[2]}` : url;
}

function NewJob(props: { token: string; projectId: string; onCreated: (job: Job) => void }) {
  const [prompt, setPrompt] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  return (
    <form
      class="panel composer"
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        setError(undefined);
        try {
          const job = await call<Job>(props.token, 'POST', `/v2/agent/${enc(props.projectId)}/job`, { body: { prompt } });
          setPrompt('');
          props.onCreated(job);
        } catch (err) {
          setError(errorText(err));
        } finally {
          setBusy(false);
        }
      }}
    >
      <label class="field">
        <span>New job</span>
        <textarea
          name="prompt"
          rows={3}
          required
          maxLength={100000}
          placeholder="What should change in the docs? e.g. “Add a troubleshooting section for 401 errors to the authentication guide.”"
          value={prompt}
          onInput={(e) => setPrompt((e.target as HTMLTextAreaElement).value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) (e.currentTarget.form as HTMLFormElement).requestSubmit();
          }}
        />
      </label>
      <ErrorNote error={error} title="The job was not created" />
      <div class="composer-foot">
        <span class="muted">⌘/Ctrl + Enter to start</span>
        <button type="submit" class="btn btn-primary" disabled={busy || !prompt.trim()}>
          {busy ? 'Starting…' : 'Start job'}
        </button>
      </div>
    </form>
  );
}

import { useState } from 'preact/hooks';
import { call, enc, type Project } from '../api';
import { CopyButton, Empty, ErrorNote, Panel, Spinner } from '../components/ui';
import { relative } from '../format';
import { errorText, useApi } from '../hooks';
import { Link, setQuery, useLocation } from '../router';
import { rememberProjectKey, type Session } from '../session';

const PAGE = 20;

export function ProjectsPage(props: { session: Session }) {
  const { session } = props;
  const { query } = useLocation();
  const offset = Math.max(0, Number.parseInt(query.get('offset') ?? '0', 10) || 0);
  const list = useApi(
    session.kind === 'operator' ? (signal) => call<{ projects: Project[]; hasMore: boolean }>(session.token, 'GET', '/v1/projects', { query: { limit: PAGE, offset }, signal }) : null,
    [session.token, offset],
  );
  const [created, setCreated] = useState<{ project: Project; apiKey: string }>();

  if (session.kind !== 'operator') {
    return (
      <div class="panel narrow">
        <h1>Projects</h1>
        <p class="muted">A project key sees its own project only. Sign in with the operator token to list and create projects.</p>
      </div>
    );
  }
  return (
    <div class="projects">
      <div class="page-head">
        <div>
          <h1>Projects</h1>
          <p class="muted">One project per docs site. Each has its own keys, analytics and jobs.</p>
        </div>
      </div>
      <NewProject
        token={session.token}
        onCreated={(res) => {
          rememberProjectKey(res.project.id, res.apiKey);
          setCreated(res);
          list.reload();
        }}
      />
      {created ? (
        <div class="note note-secret" role="status" data-testid="new-project-key">
          <strong>
            Project “{created.project.name}” created. Copy its API key now — Docent will not show it again.
          </strong>
          <div class="secret-row">
            <code class="secret">{created.apiKey}</code>
            <CopyButton text={created.apiKey} label="Copy key" />
          </div>
          <div class="secret-row">
            <Link href={`/dashboard/${enc(created.project.id)}`} class="btn btn-small btn-primary">
              Open {created.project.name}
            </Link>
            <button type="button" class="btn btn-small btn-ghost" onClick={() => setCreated(undefined)}>
              Dismiss
            </button>
          </div>
        </div>
      ) : null}
      <Panel title="All projects" id="project-list">
        <ErrorNote error={list.error} />
        {!list.data ? (
          list.error ? null : <Spinner />
        ) : list.data.projects.length === 0 ? (
          <Empty title="No projects yet. Create the first one above." />
        ) : (
          <table class="list">
            <caption class="sr-only">Projects</caption>
            <thead>
              <tr>
                <th scope="col">Project</th>
                <th scope="col">Repository</th>
                <th scope="col" class="num">Created</th>
                <th scope="col" class="num">
                  <span class="sr-only">Open</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.projects.map((p) => (
                <tr key={p.id} data-project={p.id}>
                  <td>
                    <Link href={`/dashboard/${enc(p.id)}`}>{p.name}</Link>
                    <div class="sub mono">{p.id}</div>
                  </td>
                  <td>{p.repository ? <span class="mono small">{p.repository.replace(/^https?:\/\//, '')}</span> : <span class="muted">not set</span>}{p.repository ? <span class="muted"> @ {p.ref}</span> : null}</td>
                  <td class="num muted" title={p.createdAt}>
                    {relative(p.createdAt)}
                  </td>
                  <td class="num">
                    <span class="row-actions">
                      <Link href={`/dashboard/${enc(p.id)}/settings`} class="btn btn-small btn-ghost">
                        Settings
                      </Link>
                      <Link href={`/dashboard/${enc(p.id)}`} class="btn btn-small">
                        Open
                      </Link>
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {list.data && (offset > 0 || list.data.hasMore) ? (
          <div class="pager pager-foot">
            <button type="button" class="btn btn-small btn-ghost" disabled={offset === 0} onClick={() => setQuery({ offset: offset > PAGE ? String(offset - PAGE) : null })}>
              ‹ Previous
            </button>
            <button type="button" class="btn btn-small btn-ghost" disabled={!list.data.hasMore} onClick={() => setQuery({ offset: String(offset + PAGE) })}>
              Next ›
            </button>
          </div>
        ) : null}
      </Panel>
    </div>
  );
}

function NewProject(props: { token: string; onCreated: (res: { project: Project; apiKey: string }) => void }) {
  const [form, setForm] = useState({ name: '', repository: '', ref: '' });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  return (
    <form
      class="panel"
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        setError(undefined);
        try {
          const body: Record<string, string> = { name: form.name.trim() };
          if (form.repository.trim()) body.repository = form.repository.trim();
          if (form.ref.trim()) body.ref = form.ref.trim();
          props.onCreated(await call<{ project: Project; apiKey: string }>(props.token, 'POST', '/v1/projects', { body }));
          setForm({ name: '', repository: '', ref: '' });
        } catch (err) {
          setError(errorText(err));
        } finally {
          setBusy(false);
        }
      }}
    >
      <h2 class="form-title">New project</h2>
      <div class="inline-form">
        <label class="field grow">
          <span>Name</span>
          <input name="name" required maxLength={200} placeholder="Acme docs" value={form.name} onInput={(e) => setForm({ ...form, name: (e.target as HTMLInputElement).value })} />
        </label>
        <label class="field grow2">
          <span>Repository (optional)</span>
          <input name="repository" placeholder="https://github.com/acme/docs" spellcheck={false} value={form.repository} onInput={(e) => setForm({ ...form, repository: (e.target as HTMLInputElement).value })} />
        </label>
        <label class="field">
          <span>Branch</span>
          <input name="ref" placeholder="main" spellcheck={false} value={form.ref} onInput={(e) => setForm({ ...form, ref: (e.target as HTMLInputElement).value })} />
        </label>
        <button type="submit" class="btn btn-primary" disabled={busy || !form.name.trim()}>
          {busy ? 'Creating…' : 'Create project'}
        </button>
      </div>
      <ErrorNote error={error} title="The project was not created" />
    </form>
  );
}

import { useEffect, useState } from 'preact/hooks';
import { call, enc, type ApiKey, type Project } from '../api';
import { Code, CopyButton, Empty, ErrorNote, Panel, Spinner } from '../components/ui';
import { dateTime } from '../format';
import { errorText, useApi } from '../hooks';
import { forgetProjectKey, rememberProjectKey, type Session } from '../session';

export function SettingsPage(props: { session: Session; projectId: string }) {
  const { session, projectId } = props;
  const operator = session.kind === 'operator';
  // GET /v1/projects/{id} takes either the operator token or the project's own key.
  const token = session.token;
  const project = useApi((signal) => call<Project>(token, 'GET', `/v1/projects/${enc(projectId)}`, { signal }), [projectId, token]);
  const snippet = `<script defer src="${location.origin}/script.js" data-project="${projectId}"></script>`;

  return (
    <div class="settings">
      <div class="page-head">
        <div>
          <h1>Settings</h1>
          <p class="muted">
            Project <code>{projectId}</code>
          </p>
        </div>
      </div>
      <ErrorNote error={project.error} />
      <Panel title="Repository" id="repository">
        {project.data ? <RepositoryForm project={project.data} session={session} onSaved={project.reload} /> : project.error ? null : <Spinner />}
      </Panel>
      <Panel title="Tracker snippet" id="snippet">
        <p class="muted">Paste into the <code>&lt;head&gt;</code> of every docs page. It counts human readers, sets no cookie and honours Do Not Track. AI agents are seen through server-side hits (edge middleware or <code>npm run cli -- import-log</code>).</p>
        <Code text={snippet} label="Copy snippet" />
      </Panel>
      <Panel title="API keys" id="keys">
        {operator ? (
          <Keys token={session.token} projectId={projectId} />
        ) : (
          <p class="muted">Keys are managed with the operator token (<code>ADMIN_TOKEN</code>). Sign in with it to create or revoke this project's keys.</p>
        )}
      </Panel>
    </div>
  );
}

function RepositoryForm(props: { project: Project; session: Session; onSaved: () => void }) {
  const canEdit = props.session.kind === 'operator';
  const [form, setForm] = useState({ name: props.project.name, repository: props.project.repository ?? '', ref: props.project.ref, cloneUrl: props.project.cloneUrl ?? '' });
  const [state, setState] = useState<{ busy?: boolean; error?: string; saved?: boolean }>({});
  useEffect(() => setForm({ name: props.project.name, repository: props.project.repository ?? '', ref: props.project.ref, cloneUrl: props.project.cloneUrl ?? '' }), [props.project]);
  const input = (name: keyof typeof form, label: string, hint: string, placeholder = '') => (
    <label class="field">
      <span>{label}</span>
      <input
        name={name}
        value={form[name]}
        placeholder={placeholder}
        disabled={!canEdit}
        spellcheck={false}
        onInput={(e) => {
          setForm({ ...form, [name]: (e.target as HTMLInputElement).value });
          setState({});
        }}
      />
      <small class="muted">{hint}</small>
    </label>
  );
  return (
    <form
      class="form-grid"
      onSubmit={async (e) => {
        e.preventDefault();
        if (!canEdit) return;
        setState({ busy: true });
        try {
          await call<Project>(props.session.token, 'PATCH', `/v1/projects/${enc(props.project.id)}`, {
            body: { name: form.name, repository: form.repository.trim() || null, ref: form.ref.trim(), cloneUrl: form.cloneUrl.trim() || null },
          });
          setState({ saved: true });
          props.onSaved();
        } catch (err) {
          setState({ error: errorText(err) });
        }
      }}
    >
      {input('name', 'Name', 'Shown in the project switcher.')}
      {input('repository', 'Repository', 'Web URL of the docs repository; pull requests are opened there.', 'https://github.com/acme/docs')}
      {input('ref', 'Branch', 'The branch the agent starts from.', 'main')}
      {input('cloneUrl', 'Clone URL', 'Where the worker clones from. Empty: the repository URL + .git.', 'https://github.com/acme/docs.git')}
      <ErrorNote error={state.error} title="Not saved" />
      <div class="form-foot">
        {canEdit ? (
          <>
            {state.saved ? <span class="ok-text" role="status">Saved.</span> : null}
            <button type="submit" class="btn btn-primary" disabled={state.busy}>
              {state.busy ? 'Saving…' : 'Save changes'}
            </button>
          </>
        ) : (
          <span class="muted">Read-only with a project key: changes take the operator token.</span>
        )}
      </div>
    </form>
  );
}

function Keys(props: { token: string; projectId: string }) {
  const keys = useApi((signal) => call<{ keys: ApiKey[] }>(props.token, 'GET', `/v1/projects/${enc(props.projectId)}/keys`, { signal }), [props.projectId, props.token]);
  const [created, setCreated] = useState<{ id: string; key: string }>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  return (
    <>
      <div class="keys-head">
        <p class="muted">Keys read analytics, send server-side hits and run jobs for this project only. A key is shown once, when it is created.</p>
        <button
          type="button"
          class="btn btn-primary"
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            setError(undefined);
            try {
              const res = await call<{ id: string; key: string }>(props.token, 'POST', `/v1/projects/${enc(props.projectId)}/keys`);
              setCreated(res);
              rememberProjectKey(props.projectId, res.key);
              keys.reload();
            } catch (err) {
              setError(errorText(err));
            } finally {
              setBusy(false);
            }
          }}
        >
          Create key
        </button>
      </div>
      <ErrorNote error={error ?? keys.error} />
      {created ? (
        <div class="note note-secret" role="status" data-testid="new-key">
          <strong>Copy this key now — Docent will not show it again.</strong>
          <div class="secret-row">
            <code class="secret" data-testid="new-key-value">{created.key}</code>
            <CopyButton text={created.key} label="Copy key" />
          </div>
          <button type="button" class="btn btn-small btn-ghost" onClick={() => setCreated(undefined)}>
            I have copied it
          </button>
        </div>
      ) : null}
      {!keys.data ? (
        keys.error ? null : <Spinner />
      ) : keys.data.keys.length === 0 ? (
        <Empty title="No keys." />
      ) : (
        <table class="list">
          <caption class="sr-only">API keys of this project</caption>
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Created</th>
              <th scope="col">Status</th>
              <th scope="col" class="num">
                <span class="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.data.keys.map((k) => (
              <tr key={k.id} data-key={k.id}>
                <td>
                  <code>{k.hint}</code>
                  <div class="sub mono">{k.id}</div>
                </td>
                <td class="muted">{dateTime(k.createdAt)}</td>
                <td>{k.revokedAt ? <span class="pill pill-archived">revoked {dateTime(k.revokedAt)}</span> : <span class="pill pill-completed">active</span>}</td>
                <td class="num">
                  {k.revokedAt ? null : (
                    <button
                      type="button"
                      class="btn btn-small btn-danger"
                      aria-label={`Revoke key ${k.hint}`}
                      onClick={async () => {
                        if (!confirm(`Revoke key ${k.hint}? Anything using it gets 401 from the next request.`)) return;
                        setError(undefined);
                        try {
                          await call(props.token, 'DELETE', `/v1/projects/${enc(props.projectId)}/keys/${enc(k.id)}`);
                          if (created?.id === k.id) setCreated(undefined);
                          forgetProjectKey(props.projectId, k.hint);
                          keys.reload();
                        } catch (err) {
                          setError(errorText(err));
                        }
                      }}
                    >
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

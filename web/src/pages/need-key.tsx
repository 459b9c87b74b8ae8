import { useState } from 'preact/hooks';
import { call, enc, type Breakdown } from '../api';
import { ErrorNote } from '../components/ui';
import { errorText } from '../hooks';
import { Link } from '../router';
import { rememberProjectKey, type Session } from '../session';

/**
 * The operator token manages projects and keys; a project's analytics and jobs answer only to that
 * project's own key (decisions.md §1). So the operator pastes one, or creates one for this tab.
 */
export function NeedKeyPage(props: { session: Session; projectId: string }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  if (props.session.kind === 'key') {
    return (
      <div class="panel narrow">
        <h1>Another project</h1>
        <p class="muted">
          This key belongs to <strong>{props.session.project.name}</strong>. <Link href={`/dashboard/${enc(props.session.project.id)}`}>Open it</Link>, or sign out and sign in with this project's key.
        </p>
      </div>
    );
  }
  const token = props.session.token;
  async function use(candidate: string) {
    // Any analytics read proves the key belongs to this project (403 otherwise, 401 if revoked).
    await call<Breakdown>(candidate, 'GET', `/v1/analytics/${enc(props.projectId)}/visitors`, { query: { limit: 1, dateFrom: '2000-01-01', dateTo: '2000-01-02' }, quiet401: true });
    rememberProjectKey(props.projectId, candidate);
  }
  return (
    <div class="panel narrow need-key">
      <h1>Open this project</h1>
      <p class="muted">
        The operator token manages projects and keys. Analytics and jobs answer to the project's own API key: paste one, or create a new one for this browser tab (it is listed under <Link href={`/dashboard/${enc(props.projectId)}/settings`}>Settings → API keys</Link> and can be revoked there).
      </p>
      <form
        class="inline-form"
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          setError(undefined);
          try {
            await use(key.trim());
          } catch (err) {
            setError(errorText(err));
          } finally {
            setBusy(false);
          }
        }}
      >
        <label class="field grow">
          <span>Project API key</span>
          <input type="password" autoComplete="off" spellcheck={false} placeholder="docent_…" value={key} onInput={(e) => setKey((e.target as HTMLInputElement).value)} />
        </label>
        <button type="submit" class="btn btn-primary" disabled={busy || !key.trim()}>
          Open
        </button>
      </form>
      <div class="or">or</div>
      <button
        type="button"
        class="btn"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          setError(undefined);
          try {
            const created = await call<{ key: string }>(token, 'POST', `/v1/projects/${enc(props.projectId)}/keys`);
            rememberProjectKey(props.projectId, created.key);
          } catch (err) {
            setError(errorText(err));
          } finally {
            setBusy(false);
          }
        }}
      >
        Create a key for this tab
      </button>
      <ErrorNote error={error} />
    </div>
  );
}

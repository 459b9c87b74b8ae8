import { useState } from 'preact/hooks';
import { ApiError, call, type Project } from '../api';
import { Logo, ThemeToggle } from '../components/shell';
import { ErrorNote } from '../components/ui';
import { errorText } from '../hooks';
import { navigate } from '../router';
import { setSession } from '../session';

const FLASH = 'docent.flash';

export function signOut(message?: string): void {
  setSession(null);
  if (message) sessionStorage.setItem(FLASH, message);
  else sessionStorage.removeItem(FLASH);
  navigate('/dashboard', { replace: true });
}

/**
 * One field for either secret. GET /v1/projects/me tells a project key its project; the operator
 * token gets 403 there (it belongs to no project) and is then checked against GET /v1/projects.
 */
async function signIn(token: string): Promise<void> {
  try {
    const project = await call<Project>(token, 'GET', '/v1/projects/me', { quiet401: true });
    setSession({ kind: 'key', token, project });
    navigate(`/dashboard/${project.id}`, { replace: true });
    return;
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 403) throw err;
  }
  await call(token, 'GET', '/v1/projects', { query: { limit: 1 }, quiet401: true });
  setSession({ kind: 'operator', token, projectKeys: {} });
  navigate('/dashboard/projects', { replace: true });
}

export function SignInPage() {
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | undefined>(() => sessionStorage.getItem(FLASH) ?? undefined);
  const [busy, setBusy] = useState(false);

  return (
    <div class="signin">
      <div class="signin-top">
        <ThemeToggle />
      </div>
      <form
        class="signin-card"
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          setError(undefined);
          sessionStorage.removeItem(FLASH);
          try {
            await signIn(token.trim());
          } catch (err) {
            setError(err instanceof ApiError && err.status === 401 ? 'Docent did not accept this key: it is mistyped, unknown or revoked.' : errorText(err));
          } finally {
            setBusy(false);
          }
        }}
      >
        <div class="signin-brand">
          <Logo />
          <span>Docent</span>
        </div>
        <h1>Sign in</h1>
        <p class="muted">See who reads your docs, humans and AI agents, and run docs changes as pull requests.</p>
        <label class="field">
          <span>Project API key or operator token</span>
          <input
            type="password"
            name="token"
            autoComplete="off"
            spellcheck={false}
            required
            placeholder="docent_…"
            value={token}
            onInput={(e) => setToken((e.target as HTMLInputElement).value)}
            autoFocus
          />
        </label>
        <ErrorNote error={error} title="Could not sign in" />
        <button type="submit" class="btn btn-primary btn-block" disabled={busy || !token.trim()}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <p class="hint">
          The key stays in this tab only (session storage) and is sent to this server alone. A project key opens that project; the operator token (<code>ADMIN_TOKEN</code>) manages every project and its keys. Both were printed when Docent first started.
        </p>
      </form>
    </div>
  );
}

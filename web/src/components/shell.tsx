import type { ComponentChildren } from 'preact';
import { call, enc, type Project } from '../api';
import { useApi } from '../hooks';
import { signOut } from '../pages/sign-in';
import { Link, navigate } from '../router';
import { useSession } from '../session';
import { useTheme } from '../theme';

export function Logo() {
  return (
    <span class="logo" aria-hidden="true">
      <svg viewBox="0 0 32 32" width="22" height="22">
        <rect width="32" height="32" rx="8" fill="var(--accent)" />
        <path d="M9 8h7.5a8 8 0 0 1 0 16H9z" fill="none" stroke="#fff" stroke-width="3" />
        <circle cx="22.5" cy="9.5" r="3" fill="var(--ai)" />
      </svg>
    </span>
  );
}

export function ThemeToggle() {
  const { theme, toggle } = useTheme();
  return (
    <button type="button" class="icon-btn" onClick={toggle} aria-label={theme === 'dark' ? 'Switch to light theme' : 'Switch to dark theme'} title={theme === 'dark' ? 'Light theme' : 'Dark theme'}>
      {theme === 'dark' ? (
        <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true"><circle cx="12" cy="12" r="4.5" fill="none" stroke="currentColor" stroke-width="1.8" /><path d="M12 2v2.5M12 19.5V22M2 12h2.5M19.5 12H22M4.9 4.9l1.8 1.8M17.3 17.3l1.8 1.8M4.9 19.1l1.8-1.8M17.3 6.7l1.8-1.8" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" /></svg>
      ) : (
        <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true"><path d="M20 14.5A8 8 0 0 1 9.5 4a8 8 0 1 0 10.5 10.5z" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linejoin="round" /></svg>
      )}
    </button>
  );
}

type Section = 'overview' | 'jobs' | 'settings' | 'projects';

export function Shell(props: { section: Section; projectId?: string; children: ComponentChildren }) {
  const session = useSession()!;
  const operator = session.kind === 'operator';
  const projects = useApi(operator ? (signal) => call<{ projects: Project[]; hasMore: boolean }>(session.token, 'GET', '/v1/projects', { query: { limit: 100 }, signal }) : null, [operator, session.token, props.projectId]);
  const list = session.kind === 'key' ? [session.project] : (projects.data?.projects ?? []);
  const current = props.projectId ? list.find((p) => p.id === props.projectId) : undefined;
  const base = props.projectId ? `/dashboard/${enc(props.projectId)}` : '';

  return (
    <div class="app">
      <header class="topbar">
        <div class="topbar-inner">
          <Link href={session.kind === 'key' ? `/dashboard/${session.project.id}` : '/dashboard/projects'} class="brand">
            <Logo />
            <span>Docent</span>
          </Link>
          {props.projectId ? (
            operator ? (
              <label class="switcher">
                <span class="sr-only">Project</span>
                <select
                  value={props.projectId}
                  onChange={(e) => navigate(`/dashboard/${enc((e.target as HTMLSelectElement).value)}${props.section === 'overview' ? '' : `/${props.section}`}`)}
                >
                  {!current ? <option value={props.projectId}>{props.projectId}</option> : null}
                  {list.map((p) => (
                    <option value={p.id} key={p.id}>
                      {p.name}
                    </option>
                  ))}
                </select>
              </label>
            ) : (
              <span class="project-name" title={props.projectId}>
                {current?.name ?? props.projectId}
              </span>
            )
          ) : null}
          <nav class="tabs" aria-label="Sections">
            {props.projectId ? (
              <>
                <Link href={base} aria-current={props.section === 'overview' ? 'page' : undefined}>Overview</Link>
                <Link href={`${base}/jobs`} aria-current={props.section === 'jobs' ? 'page' : undefined}>Jobs</Link>
                <Link href={`${base}/settings`} aria-current={props.section === 'settings' ? 'page' : undefined}>Settings</Link>
              </>
            ) : null}
            {operator ? <Link href="/dashboard/projects" aria-current={props.section === 'projects' ? 'page' : undefined}>Projects</Link> : null}
          </nav>
          <div class="topbar-end">
            <span class="who" title={operator ? 'Signed in with the operator token' : 'Signed in with a project key'}>{operator ? 'Operator' : 'Project key'}</span>
            <ThemeToggle />
            <button type="button" class="btn btn-ghost btn-small" onClick={() => signOut()}>
              Sign out
            </button>
          </div>
        </div>
      </header>
      <main class="content" id="main">
        {props.children}
      </main>
    </div>
  );
}

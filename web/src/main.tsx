import { render } from 'preact';
import { useEffect } from 'preact/hooks';
import { setUnauthorizedHandler } from './api';
import { Shell } from './components/shell';
import { JobDetailPage } from './pages/job-detail';
import { JobsPage } from './pages/jobs';
import { NeedKeyPage } from './pages/need-key';
import { OverviewPage } from './pages/overview';
import { ProjectsPage } from './pages/projects';
import { SettingsPage } from './pages/settings';
import { SignInPage, signOut } from './pages/sign-in';
import { navigate, useLocation } from './router';
import { projectKey, refused, useSession } from './session';
import './styles.css';
import { applyTheme, useTheme } from './theme';

applyTheme();
setUnauthorizedHandler((message, token) => {
  if (refused(token) === 'sign-out') signOut(`Signed out: ${message}`);
});

function App() {
  const session = useSession();
  const { path } = useLocation();
  const { theme } = useTheme();
  const parts = path.split('/').filter(Boolean);

  useEffect(() => {
    if (!session || parts.length) return;
    navigate(session.kind === 'key' ? `/dashboard/${session.project.id}` : '/dashboard/projects', { replace: true });
  }, [session, path]);

  if (!session) return <SignInPage />;
  if (parts[0] === 'projects') {
    return (
      <Shell section="projects">
        <ProjectsPage session={session} />
      </Shell>
    );
  }
  const projectId = parts[0];
  if (!projectId) return null;
  const section = parts[1] === 'jobs' ? 'jobs' : parts[1] === 'settings' ? 'settings' : 'overview';
  const key = projectKey(session, projectId);
  let page;
  if (section === 'settings') page = <SettingsPage session={session} projectId={projectId} />;
  else if (!key) page = <NeedKeyPage session={session} projectId={projectId} />;
  else if (section === 'jobs' && parts[2]) page = <JobDetailPage token={key} projectId={projectId} jobId={parts[2]} />;
  else if (section === 'jobs') page = <JobsPage token={key} projectId={projectId} />;
  else page = <OverviewPage token={key} projectId={projectId} theme={theme} />;
  return (
    <Shell section={section} projectId={projectId}>
      {page}
    </Shell>
  );
}

render(<App />, document.getElementById('app')!);

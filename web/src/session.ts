import { useEffect, useState } from 'preact/hooks';
import type { Project } from './api';

// The key or token lives in sessionStorage only: never in a URL, never in a cookie, gone when the tab closes.
const STORAGE_KEY = 'docent.session';

export type Session =
  | { kind: 'key'; token: string; project: Project }
  /** The operator token manages projects and keys; analytics and jobs take a project's own key, kept per project. */
  | { kind: 'operator'; token: string; projectKeys: Record<string, string> };

let current: Session | null = read();
const listeners = new Set<() => void>();

function read(): Session | null {
  try {
    const raw = sessionStorage.getItem(STORAGE_KEY);
    return raw ? (JSON.parse(raw) as Session) : null;
  } catch {
    return null;
  }
}

export function getSession(): Session | null {
  return current;
}

export function setSession(session: Session | null): void {
  current = session;
  if (session) sessionStorage.setItem(STORAGE_KEY, JSON.stringify(session));
  else sessionStorage.removeItem(STORAGE_KEY);
  for (const listener of listeners) listener();
}

/** The operator keeps one project key per project for this tab (created or pasted on the Projects page). */
export function rememberProjectKey(projectId: string, key: string): void {
  if (current?.kind !== 'operator') return;
  setSession({ ...current, projectKeys: { ...current.projectKeys, [projectId]: key } });
}

/** Drops the kept key of a project (only the one with this hint, when given: e.g. after revoking it). */
export function forgetProjectKey(projectId: string, hint?: string): void {
  if (current?.kind !== 'operator') return;
  const key = current.projectKeys[projectId];
  if (!key || (hint && hintOf(key) !== hint)) return;
  const { [projectId]: _, ...rest } = current.projectKeys;
  setSession({ ...current, projectKeys: rest });
}

/** The key that reads this project's analytics and jobs, if this session has one. */
export function projectKey(session: Session | null, projectId: string): string | undefined {
  if (!session) return undefined;
  if (session.kind === 'key') return session.project.id === projectId ? session.token : undefined;
  return session.projectKeys[projectId];
}

export function useSession(): Session | null {
  const [, force] = useState(0);
  useEffect(() => {
    const listener = () => force((n) => n + 1);
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, []);
  return current;
}

/** As the API shows a key: prefix and 4 characters, an ellipsis, the last 4. */
export function hintOf(key: string): string {
  return `${key.slice(0, 'docent_'.length + 4)}…${key.slice(-4)}`;
}

/** A 401: the session's own secret was refused → sign out; a kept project key was refused → forget it. */
export function refused(token: string): 'sign-out' | 'forgot-key' {
  if (current?.kind === 'operator' && current.token !== token) {
    const entry = Object.entries(current.projectKeys).find(([, key]) => key === token);
    if (entry) {
      const { [entry[0]]: _, ...rest } = current.projectKeys;
      setSession({ ...current, projectKeys: rest });
      return 'forgot-key';
    }
  }
  return 'sign-out';
}

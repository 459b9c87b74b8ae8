import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';

export const BASE = '/dashboard';
const listeners = new Set<() => void>();

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  const url = to.startsWith('/') ? to : `${BASE}/${to}`;
  if (url === location.pathname + location.search) return;
  if (options.replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  for (const listener of listeners) listener();
}

/** Current path under /dashboard (without it) and the query string; re-renders on navigation. */
export function useLocation(): { path: string; query: URLSearchParams } {
  const [, force] = useState(0);
  useEffect(() => {
    const listener = () => force((n) => n + 1);
    listeners.add(listener);
    addEventListener('popstate', listener);
    return () => {
      listeners.delete(listener);
      removeEventListener('popstate', listener);
    };
  }, []);
  const path = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) || '/' : '/';
  return { path, query: new URLSearchParams(location.search) };
}

/** Replaces some query parameters (null removes one), keeping the others. */
export function setQuery(changes: Record<string, string | null | undefined>, options: { replace?: boolean } = {}): void {
  const params = new URLSearchParams(location.search);
  for (const [k, v] of Object.entries(changes)) {
    if (v === null || v === undefined || v === '') params.delete(k);
    else params.set(k, v);
  }
  const qs = params.toString();
  navigate(location.pathname + (qs ? `?${qs}` : ''), options);
}

export function Link(props: { href: string; children: ComponentChildren; class?: string; 'aria-current'?: 'page' }) {
  const href = props.href.startsWith('/') ? props.href : `${BASE}/${props.href}`;
  return (
    <a
      href={href}
      class={props.class}
      aria-current={props['aria-current']}
      onClick={(e) => {
        if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        navigate(href);
      }}
    >
      {props.children}
    </a>
  );
}

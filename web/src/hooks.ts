import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api';

export interface Loaded<T> {
  data?: T;
  error?: string;
  loading: boolean;
  reload: () => void;
}

/** Runs `load` whenever `deps` change; a newer load aborts the older one, so stale answers never land. */
export function useApi<T>(load: ((signal: AbortSignal) => Promise<T>) | null, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: string; loading: boolean }>({ loading: !!load });
  const [tick, setTick] = useState(0);
  // The render in which deps change comes before the effect that starts the load: report it as
  // loading already, so no one reads the previous answer as the answer to the new question.
  const started = useRef<unknown[] | undefined>(undefined);
  const current = [...deps, tick, !!load];
  const pending = !!load && (!started.current || current.some((d, i) => !Object.is(d, started.current![i])));
  useEffect(() => {
    started.current = current;
    if (!load) {
      setState({ loading: false });
      return;
    }
    const controller = new AbortController();
    setState((s) => ({ data: s.data, loading: true }));
    load(controller.signal).then(
      (data) => !controller.signal.aborted && setState({ data, loading: false }),
      (err: unknown) => !controller.signal.aborted && setState({ error: errorText(err), loading: false }),
    );
    return () => controller.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((n) => n + 1), []);
  return { ...state, loading: state.loading || pending, reload };
}

export function errorText(err: unknown): string {
  if (err instanceof ApiError) return err.text;
  return err instanceof Error ? err.message : String(err);
}

/** Calls `fn` every `ms` while `active`. */
export function useInterval(fn: () => void, ms: number, active: boolean): void {
  const saved = useRef(fn);
  saved.current = fn;
  useEffect(() => {
    if (!active) return;
    const id = setInterval(() => saved.current(), ms);
    return () => clearInterval(id);
  }, [ms, active]);
}

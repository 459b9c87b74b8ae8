// The dashboard is a client of Docent's public HTTP API and nothing else: every number on the
// page is one a user can fetch with curl and the same key.

export interface ApiErrorBody {
  error: string;
  details?: Array<{ message: string; field?: string }>;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details: ApiErrorBody['details'] = [],
  ) {
    super(message);
  }

  /** The error in words, as the API put it, with the fields it names. */
  get text(): string {
    const extra = (this.details ?? []).map((d) => d.message).filter((m) => m && !this.message.includes(m));
    return extra.length ? `${this.message} ${extra.join('; ')}.` : this.message;
  }
}

export interface Counts {
  human: number;
  ai: number;
  total: number;
}
export interface VisitorsReport {
  totals: Counts;
  visitors: Array<Counts & { path: string }>;
  hasMore: boolean;
}
export interface Bucket extends Counts {
  start: string;
  hits: { human: number; ai: number; bot: number };
}
export interface Timeseries {
  interval: Interval;
  timezone: string;
  buckets: Bucket[];
}
export type Interval = 'hour' | 'day' | 'week' | 'month';
export type Dimension = 'agent' | 'operator' | 'category' | 'referrer' | 'source' | 'browser' | 'os' | 'device' | 'format';
export interface BreakdownRow extends Counts {
  value: string;
  hits: number;
  operator?: string;
  category?: string;
  verification?: { verified: number; unverified: number; unknown: number };
  referred?: number;
  crawlsPerReferral?: number | null;
  aiAssistant?: string | null;
}
export interface Breakdown {
  by: Dimension;
  totals: Counts & { hits: number };
  rows: BreakdownRow[];
  hasMore: boolean;
}
export interface Project {
  id: string;
  name: string;
  repository: string | null;
  ref: string;
  cloneUrl: string | null;
  createdAt: string;
}
export type JobStatus = 'active' | 'completed' | 'archived' | 'failed';
export interface Job {
  id: string;
  status: JobStatus;
  source: { repository: string; ref: string };
  model: string;
  prLink: string | null;
  createdAt: string;
  archivedAt: string | null;
  updatedAt?: string;
  error?: string | null;
}
export interface ApiKey {
  id: string;
  hint: string;
  createdAt: string;
  revokedAt: string | null;
}

export type Query = Record<string, string | number | undefined | null>;

function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

/** Called when the API answers 401: the key was revoked or the token changed. */
let onUnauthorized: (message: string, token: string) => void = () => undefined;
export function setUnauthorizedHandler(handler: (message: string, token: string) => void): void {
  onUnauthorized = handler;
}

export async function call<T>(token: string, method: string, path: string, options: { query?: Query; body?: unknown; signal?: AbortSignal; quiet401?: boolean } = {}): Promise<T> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(withQuery(path, options.query), {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
      credentials: 'omit',
      cache: 'no-store',
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(0, 'Docent did not answer. Check that the service is running and your connection is up.');
  }
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!res.ok) {
    const err = body as Partial<ApiErrorBody> | undefined;
    const message = typeof err?.error === 'string' ? err.error : `Docent answered ${res.status} ${res.statusText}.`;
    const retry = res.headers.get('retry-after');
    const error = new ApiError(res.status, retry && res.status >= 429 ? `${message} Try again in ${retry} s.` : message, err?.details);
    if (res.status === 401 && !options.quiet401) onUnauthorized(error.text, token);
    throw error;
  }
  return body as T;
}

export const enc = encodeURIComponent;

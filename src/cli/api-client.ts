/**
 * The CLI's one way to call the Docent API: bearer key, a time limit per attempt, and retries of what
 * may succeed later (network errors, 408, 425, 429, 502–504), honouring Retry-After, with exponential
 * backoff and jitter. Every other answer is returned as it is, for the command to act on.
 */
export interface RetryPolicy {
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 8, baseDelayMs: 500, maxDelayMs: 30_000 };

/** 500 is not here: the API answers it only for a bug, which a retry does not fix. */
const RETRYABLE = new Set([408, 425, 429, 502, 503, 504]);
const ATTEMPT_TIMEOUT_MS = 120_000;

export interface ErrorDetail {
  field?: string;
  message?: string;
}

export interface ApiAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body; undefined when it is not JSON. */
  json: unknown;
}

/** Retries ran out: the last reason is in the message. */
export class GaveUp extends Error {}

export class ApiClient {
  constructor(
    private readonly baseUrl: string,
    private readonly key: string,
    private readonly retry: RetryPolicy = DEFAULT_RETRY,
    private readonly onRetry: (message: string) => void = () => undefined,
  ) {}

  async send(method: string, path: string, init: { body?: string; headers?: Record<string, string> } = {}): Promise<ApiAnswer> {
    for (let attempt = 1; ; attempt++) {
      let why: string;
      let retryAfter: string | null = null;
      try {
        const res = await fetch(this.baseUrl + path, {
          method,
          headers: { authorization: `Bearer ${this.key}`, accept: 'application/json', ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
          body: init.body,
          signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
        });
        const text = await res.text();
        const answer = { status: res.status, headers: res.headers, text, json: parseJson(text) };
        if (!RETRYABLE.has(res.status)) return answer;
        why = describeAnswer(answer);
        retryAfter = res.headers.get('retry-after');
      } catch (err) {
        why = `network error: ${err instanceof Error ? ((err.cause as Error | undefined)?.message ?? err.message) : String(err)}`;
      }
      if (attempt >= this.retry.attempts) throw new GaveUp(`gave up after ${attempt} attempts: ${why}`);
      const backoff = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (attempt - 1)) * (0.5 + Math.random() / 2);
      const delay = Math.min(this.retry.maxDelayMs, retryAfterMs(retryAfter) ?? backoff);
      this.onRetry(`${why}; retrying in ${(delay / 1000).toFixed(1)} s (attempt ${attempt + 1}/${this.retry.attempts})`);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

/** `400 Invalid limit. (limit: limit must be …)`: status, the API's error sentence and its details. */
export function describeAnswer(answer: ApiAnswer): string {
  const body = answer.json as { error?: unknown; details?: ErrorDetail[] } | undefined;
  const message = typeof body?.error === 'string' ? body.error : answer.text.slice(0, 200);
  const details = Array.isArray(body?.details) ? body.details.map((d) => `${d.field ? `${d.field}: ` : ''}${d.message ?? ''}`).join('; ') : '';
  return `${answer.status} ${message}${details ? ` (${details})` : ''}`;
}

/** Retry-After as delta-seconds or an HTTP date, in ms; null when absent or unreadable. */
export function retryAfterMs(header: string | null): number | null {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

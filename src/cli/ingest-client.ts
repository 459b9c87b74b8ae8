export interface ErrorDetail {
  field?: string;
  message?: string;
}

export type BatchResult =
  | { outcome: 'accepted'; accepted: number; replayed: boolean }
  | { outcome: 'refused'; status: number; error: string; details: ErrorDetail[] };

/** The API said no to every batch to come (bad key, wrong project): stop the import. */
export class FatalApiError extends Error {}

export interface RetryPolicy {
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

const RETRYABLE = new Set([408, 409, 425, 429, 500, 502, 503, 504]);
const DEFAULT_RETRY: RetryPolicy = { attempts: 8, baseDelayMs: 500, maxDelayMs: 30_000 };

/** Posts hit batches (`{ "hits": [...] }` JSON) to `POST /v1/ingest/{projectId}/hits`, retrying what may succeed later. */
export class IngestClient {
  private readonly endpoint: string;

  constructor(
    baseUrl: string,
    projectId: string,
    private readonly key: string,
    private readonly retry: RetryPolicy = DEFAULT_RETRY,
    private readonly onRetry: (message: string) => void = () => undefined,
  ) {
    this.endpoint = `${baseUrl}/v1/ingest/${encodeURIComponent(projectId)}/hits`;
  }

  /**
   * 202 → accepted; another 4xx → refused (the caller decides what to drop); 401/403/404 → FatalApiError.
   * 408/409/429/5xx and network errors are retried with exponential backoff, honouring Retry-After;
   * 409 is the same Idempotency-Key still in flight from an earlier attempt.
   */
  async post(body: string, idempotencyKey: string): Promise<BatchResult> {
    for (let attempt = 1; ; attempt++) {
      let res: Response;
      try {
        res = await fetch(this.endpoint, {
          method: 'POST',
          headers: { authorization: `Bearer ${this.key}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
          body,
          signal: AbortSignal.timeout(120_000),
        });
      } catch (err) {
        const reason = err instanceof Error ? ((err.cause as Error | undefined)?.message ?? err.message) : String(err);
        await this.pause(attempt, null, `network error: ${reason}`);
        continue;
      }
      const text = await res.text();
      const json = parseJson(text);
      if (res.status === 202 || res.status === 200) {
        const accepted = Number((json as { accepted?: unknown } | undefined)?.accepted);
        return { outcome: 'accepted', accepted: Number.isFinite(accepted) ? accepted : 0, replayed: res.headers.get('idempotent-replayed') === 'true' };
      }
      const error = typeof (json as { error?: unknown })?.error === 'string' ? (json as { error: string }).error : text.slice(0, 200);
      if (RETRYABLE.has(res.status)) {
        await this.pause(attempt, res.headers.get('retry-after'), `${res.status} ${error}`);
        continue;
      }
      if (res.status === 401 || res.status === 403 || res.status === 404) throw new FatalApiError(`${res.status} from ${this.endpoint}: ${error}`);
      const details = (json as { details?: unknown })?.details;
      return { outcome: 'refused', status: res.status, error, details: Array.isArray(details) ? (details as ErrorDetail[]) : [] };
    }
  }

  private async pause(attempt: number, retryAfter: string | null, why: string): Promise<void> {
    if (attempt >= this.retry.attempts) throw new FatalApiError(`gave up after ${attempt} attempts: ${why}`);
    const backoff = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (attempt - 1));
    const delay = Math.min(this.retry.maxDelayMs, retryAfterMs(retryAfter) ?? backoff * (0.5 + Math.random() / 2));
    this.onRetry(`${why}; retrying in ${(delay / 1000).toFixed(1)} s (attempt ${attempt + 1}/${this.retry.attempts})`);
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
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
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

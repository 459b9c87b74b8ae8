import { ApiClient, DEFAULT_RETRY, ErrorDetail, GaveUp, RetryPolicy } from './api-client';

export type { ErrorDetail, RetryPolicy };

export type BatchResult =
  | { outcome: 'accepted'; accepted: number; replayed: boolean }
  | { outcome: 'refused'; status: number; error: string; details: ErrorDetail[] };

/** The API said no to every batch to come (bad key, wrong project), or kept failing: stop the import. */
export class FatalApiError extends Error {}

/** Posts hit batches (`{ "hits": [...] }` JSON) to `POST /v1/ingest/{projectId}/hits`, retrying what may succeed later. */
export class IngestClient {
  private readonly path: string;
  private readonly api: ApiClient;

  constructor(baseUrl: string, projectId: string, key: string, retry: RetryPolicy = DEFAULT_RETRY, onRetry: (message: string) => void = () => undefined) {
    this.path = `/v1/ingest/${encodeURIComponent(projectId)}/hits`;
    this.api = new ApiClient(baseUrl, key, retry, onRetry);
  }

  /** 202 → accepted; another 4xx → refused (the caller decides what to drop); 401/403/404 or retries spent → FatalApiError. */
  async post(body: string, idempotencyKey: string): Promise<BatchResult> {
    let res;
    try {
      res = await this.api.send('POST', this.path, { body, headers: { 'idempotency-key': idempotencyKey } });
    } catch (err) {
      if (err instanceof GaveUp) throw new FatalApiError(err.message);
      throw err;
    }
    const json = res.json as { accepted?: unknown; error?: unknown; details?: unknown } | undefined;
    if (res.status === 202 || res.status === 200) {
      const accepted = Number(json?.accepted);
      return { outcome: 'accepted', accepted: Number.isFinite(accepted) ? accepted : 0, replayed: res.headers.get('idempotent-replayed') === 'true' };
    }
    const error = typeof json?.error === 'string' ? json.error : res.text.slice(0, 200);
    if (res.status === 401 || res.status === 403 || res.status === 404) throw new FatalApiError(`${res.status} from ${this.path}: ${error}`);
    return { outcome: 'refused', status: res.status, error, details: Array.isArray(json?.details) ? (json.details as ErrorDetail[]) : [] };
  }
}

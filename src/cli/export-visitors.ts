// `npm run cli -- export visitors ...`: walks every page of the visitors report and writes CSV or JSON.
import type { Writable } from 'node:stream';
import { intOption, OptionSpecs, parseCommandLine, urlOption, usage, UsageError } from './args';
import { retryAfterMs } from './ingest-client';

const SYNOPSIS = 'npm run cli -- export visitors --url URL --key KEY --project ID [--from DATE] [--to DATE] [--format csv|json] [--limit 250]';

const OPTIONS = {
  url: { type: 'string', value: 'URL', description: 'Docent base URL, e.g. https://docent.example.com', required: true },
  key: { type: 'string', value: 'KEY', description: "the project's admin API key (docent_...)", required: true },
  project: { type: 'string', value: 'ID', description: 'project id', required: true },
  from: { type: 'string', value: 'DATE', description: 'dateFrom, inclusive: YYYY-MM-DD or ISO 8601 date-time' },
  to: { type: 'string', value: 'DATE', description: 'dateTo, exclusive: YYYY-MM-DD or ISO 8601 date-time' },
  format: { type: 'string', value: 'FORMAT', description: 'csv (path,human,ai,total) or json ({ totals, visitors })', default: 'csv' },
  limit: { type: 'string', value: 'N', description: 'rows per request, 1 to 250', default: '250' },
  help: { type: 'boolean', description: 'show this help', short: 'h' },
} satisfies OptionSpecs;

export interface Io {
  stdout: Writable;
  stderr: Writable;
}

export interface RetryPolicy {
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

interface Counts {
  human: number;
  ai: number;
  total: number;
}

interface Page {
  totals: Counts;
  visitors: Array<Counts & { path: string }>;
  hasMore: boolean;
}

/** The API refused the request (4xx), or kept failing past the retries. */
class ExportError extends Error {}

const RETRYABLE = new Set([429, 502, 503, 504]);
const DEFAULT_RETRY: RetryPolicy = { attempts: 8, baseDelayMs: 500, maxDelayMs: 30_000 };

export async function run(argv: string[], io: Io = { stdout: process.stdout, stderr: process.stderr }, retry: RetryPolicy = DEFAULT_RETRY): Promise<number> {
  let options: { base: string; key: string; project: string; from?: string; to?: string; format: 'csv' | 'json'; limit: number };
  try {
    const [what, ...rest] = argv;
    if (what === '--help' || what === '-h' || rest.includes('--help') || rest.includes('-h')) {
      io.stdout.write(usage(SYNOPSIS, OPTIONS));
      return 0;
    }
    if (what !== 'visitors') throw new UsageError(what ? `unknown export: ${what} (only "visitors")` : 'say what to export: visitors');
    const { values } = parseCommandLine(rest, OPTIONS);
    if (values.format !== 'csv' && values.format !== 'json') throw new UsageError('--format must be csv or json');
    options = {
      base: urlOption(values.url, 'url'), key: values.key, project: values.project, from: values.from, to: values.to,
      format: values.format, limit: intOption(values.limit, 'limit', 1, 250, 250),
    };
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.stderr.write(`export: ${err.message}\n\n${usage(SYNOPSIS, OPTIONS)}`);
    return 2;
  }

  const endpoint = `${options.base}/v1/analytics/${encodeURIComponent(options.project)}/visitors`;
  const fetchPage = (offset: number) => {
    const query = new URLSearchParams({ limit: String(options.limit), offset: String(offset) });
    if (options.from !== undefined) query.set('dateFrom', options.from);
    if (options.to !== undefined) query.set('dateTo', options.to);
    return getJson(`${endpoint}?${query}`, options.key, retry, (message) => io.stderr.write(`export: ${message}\n`));
  };

  try {
    // Rows go out page by page, so memory stays flat however many paths there are.
    let rowsWritten = 0;
    for (let offset = 0; ; offset += options.limit) {
      const page = await fetchPage(offset);
      if (options.format === 'csv') {
        if (offset === 0) await write(io.stdout, 'path,human,ai,total\n');
        if (page.visitors.length) await write(io.stdout, page.visitors.map((v) => `${csvField(v.path)},${v.human},${v.ai},${v.total}\n`).join(''));
      } else {
        const rows = page.visitors.map((v) => JSON.stringify({ path: v.path, human: v.human, ai: v.ai, total: v.total }));
        if (offset === 0) await write(io.stdout, `{"totals":${JSON.stringify(page.totals)},"visitors":[`);
        if (rows.length) await write(io.stdout, `${rowsWritten ? ',' : ''}${rows.join(',')}`);
      }
      rowsWritten += page.visitors.length;
      if (!page.hasMore) break;
    }
    if (options.format === 'json') await write(io.stdout, ']}\n');
    return 0;
  } catch (err) {
    if (!(err instanceof ExportError)) throw err;
    io.stderr.write(`export: ${err.message}\n`);
    return 1;
  }
}

/** RFC 4180: quote a field holding a comma, quote, CR or LF, doubling the quotes inside. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

async function getJson(url: string, key: string, retry: RetryPolicy, warn: (message: string) => void): Promise<Page> {
  for (let attempt = 1; ; attempt++) {
    let why: string;
    let retryAfter: string | null = null;
    try {
      const res = await fetch(url, { headers: { authorization: `Bearer ${key}`, accept: 'application/json' }, signal: AbortSignal.timeout(120_000) });
      const text = await res.text();
      if (res.ok) return JSON.parse(text) as Page;
      const body = parseJson(text) as { error?: unknown; details?: Array<{ field?: string; message?: string }> } | undefined;
      const message = typeof body?.error === 'string' ? body.error : text.slice(0, 200);
      const details = Array.isArray(body?.details) ? body.details.map((d) => ` ${d.field ? `${d.field}: ` : ''}${d.message ?? ''}`).join(';') : '';
      why = `${res.status} ${message}${details ? ` (${details.trim()})` : ''}`;
      if (!RETRYABLE.has(res.status)) throw new ExportError(why);
      retryAfter = res.headers.get('retry-after');
    } catch (err) {
      if (err instanceof ExportError) throw err;
      why = `network error: ${err instanceof Error ? ((err.cause as Error | undefined)?.message ?? err.message) : String(err)}`;
    }
    if (attempt >= retry.attempts) throw new ExportError(`gave up after ${attempt} attempts: ${why}`);
    const backoff = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (attempt - 1)) * (0.5 + Math.random() / 2);
    const delay = Math.min(retry.maxDelayMs, retryAfterMs(retryAfter) ?? backoff);
    warn(`${why}; retrying in ${(delay / 1000).toFixed(1)} s`);
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function write(stream: Writable, chunk: string): Promise<void> {
  return new Promise((resolve, reject) => stream.write(chunk, (err) => (err ? reject(err) : resolve())));
}

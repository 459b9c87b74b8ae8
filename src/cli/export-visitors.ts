// `npm run cli -- export visitors ...`: walks every page of the visitors report and writes CSV or JSON.
import type { Writable } from 'node:stream';
import { intOption, OptionSpecs, parseCommandLine, urlOption, usage, UsageError } from './args';
import { ApiClient, DEFAULT_RETRY, describeAnswer, GaveUp, RetryPolicy } from './api-client';

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

  const api = new ApiClient(options.base, options.key, retry, (message) => io.stderr.write(`export: ${message}\n`));
  const endpoint = `/v1/analytics/${encodeURIComponent(options.project)}/visitors`;
  const fetchPage = (offset: number) => {
    const query = new URLSearchParams({ limit: String(options.limit), offset: String(offset) });
    if (options.from !== undefined) query.set('dateFrom', options.from);
    if (options.to !== undefined) query.set('dateTo', options.to);
    return getJson(api, `${endpoint}?${query}`);
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

async function getJson(api: ApiClient, path: string): Promise<Page> {
  let res;
  try {
    res = await api.send('GET', path);
  } catch (err) {
    if (err instanceof GaveUp) throw new ExportError(err.message);
    throw err;
  }
  if (res.status !== 200 || res.json === undefined) throw new ExportError(describeAnswer(res));
  return res.json as Page;
}

function write(stream: Writable, chunk: string): Promise<void> {
  return new Promise((resolve, reject) => stream.write(chunk, (err) => (err ? reject(err) : resolve())));
}

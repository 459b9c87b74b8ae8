import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { classifyUserAgent, HitClass } from '../ingest/classifier/user-agent-classifier';
import { intOption, OptionSpecs, parseCommandLine, urlOption, usage, UsageError } from './args';
import { ImportHit, parseCombinedLine, SkipReason, toHit } from './combined-log';
import { FatalApiError, IngestClient, RetryPolicy } from './ingest-client';
import { ProgressBar } from './progress';

const SYNOPSIS = 'npm run cli -- import-log --url URL --key KEY --project ID [--format combined] [--batch 500] [--concurrency 4] [--json] FILE';

const OPTIONS = {
  url: { type: 'string', value: 'URL', required: true, description: 'base URL of the Docent service, e.g. https://docent.example.com' },
  key: { type: 'string', value: 'KEY', required: true, description: "the project's admin API key" },
  project: { type: 'string', value: 'ID', required: true, description: 'the project id (prj_...)' },
  format: { type: 'string', value: 'FORMAT', default: 'combined', description: 'log format: combined (nginx and Apache)' },
  batch: { type: 'string', value: 'N', default: '500', description: 'hits per request, 1 to 1000; keep it when re-running a file, so batches keep their keys' },
  concurrency: { type: 'string', value: 'N', default: '4', description: 'requests in flight at once, 1 to 16' },
  json: { type: 'boolean', description: 'print the summary as JSON' },
  help: { type: 'boolean', short: 'h', description: 'show this help' },
} satisfies OptionSpecs;

// The API takes at most 1 MiB per request; long user agents could push 1,000 hits past it.
const MAX_BATCH_BYTES = 900 * 1024;

export interface ImportOptions {
  url: string;
  key: string;
  projectId: string;
  file: string;
  batchSize: number;
  /** Batches in flight at once. */
  concurrency: number;
  retry?: RetryPolicy;
}

export type RejectReason = 'unparseable' | SkipReason | 'api';

export interface ImportSummary {
  file: string;
  linesRead: number;
  batches: number;
  hitsSent: number;
  hitsAccepted: number;
  /** Batches the API answered from an earlier import with the same Idempotency-Key (when it says so). */
  hitsReplayed: number;
  /** Classes of the accepted hits, by the same classifier the service runs. */
  byClass: Record<HitClass, number>;
  aiAgents: Record<string, number>;
  rejected: Record<RejectReason, number>;
  seconds: number;
  /** Set when the import stopped early. */
  error?: string;
}

export interface Io {
  stdout: Writable;
  stderr: Writable & { isTTY?: boolean; columns?: number };
}

interface Pending {
  hit: ImportHit;
  class: HitClass;
  aiAgent: string;
}

/** `import-log` command: exit 0 when every page view was stored, 1 when the API refused some or the import stopped, 2 on usage errors. */
export async function run(argv: string[], io: Io = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.stdout.write(usage(SYNOPSIS, OPTIONS));
    return 0;
  }
  let options: ImportOptions;
  let json: boolean;
  try {
    const { values, positionals } = parseCommandLine(argv, OPTIONS, { min: 1, max: 1 });
    if (values.format !== 'combined') throw new UsageError('--format must be "combined"');
    options = {
      url: urlOption(values.url, 'url'),
      key: values.key,
      projectId: values.project,
      file: positionals[0],
      batchSize: intOption(values.batch, 'batch', 1, 1000, 500),
      concurrency: intOption(values.concurrency, 'concurrency', 1, 16, 4),
    };
    json = values.json;
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.stderr.write(`import-log: ${err.message}\n\n${usage(SYNOPSIS, OPTIONS)}`);
    return 2;
  }

  const summary = await importLog(options, io);
  io.stdout.write(json ? `${JSON.stringify(summary, null, 2)}\n` : formatSummary(summary, options));
  return summary.error || summary.rejected.api > 0 ? 1 : 0;
}

/**
 * Streams the file (gzip detected by its magic bytes), keeps the page views, and posts them in
 * batches. Each batch's Idempotency-Key is a hash of project, batch index and content, so running
 * the same file again within the API's 24 h window (say, after a crash) stores nothing twice.
 */
export async function importLog(options: ImportOptions, io: Io): Promise<ImportSummary> {
  const started = Date.now();
  const summary: ImportSummary = {
    file: options.file,
    linesRead: 0,
    batches: 0,
    hitsSent: 0,
    hitsAccepted: 0,
    hitsReplayed: 0,
    byClass: { human: 0, ai: 0, bot: 0 },
    aiAgents: {},
    rejected: { unparseable: 0, method: 0, status: 0, asset: 0, invalid: 0, api: 0 },
    seconds: 0,
  };
  const { size } = await stat(options.file);
  const gzip = await isGzip(options.file);
  const raw = createReadStream(options.file);
  const input: Readable = gzip ? raw.pipe(createGunzip()) : raw;
  if (gzip) raw.on('error', (err) => input.destroy(err));
  const lines = createInterface({ input, crlfDelay: Infinity });

  const progress = new ProgressBar(io.stderr, size);
  const say = (message: string) => {
    progress.clear();
    io.stderr.write(`${message}\n`);
  };
  const client = new IngestClient(options.url, options.projectId, options.key, options.retry, say);

  let pending: Pending[] = [];
  let pendingBytes = 0;
  // Up to `concurrency` batches in flight: the service group-commits concurrent requests.
  const inFlight = new Set<Promise<void>>();
  let failure: unknown;
  const flush = async () => {
    const items = pending;
    pending = [];
    pendingBytes = 0;
    const sending: Promise<void> = sendBatch(client, options.projectId, summary.batches++, items, summary, say)
      .catch((err: unknown) => void (failure ??= err))
      .finally(() => inFlight.delete(sending));
    inFlight.add(sending);
    if (inFlight.size >= options.concurrency) await Promise.race(inFlight);
    if (failure) throw failure;
  };

  try {
    for await (const line of lines) {
      summary.linesRead++;
      progress.update(raw.bytesRead, summary.linesRead);
      const entry = parseCombinedLine(line);
      if (!entry) {
        summary.rejected.unparseable++;
        continue;
      }
      const hit = toHit(entry);
      if (typeof hit === 'string') {
        summary.rejected[hit]++;
        continue;
      }
      const bytes = Buffer.byteLength(JSON.stringify(hit)) + 1;
      if (pending.length >= options.batchSize || (pending.length > 0 && pendingBytes + bytes > MAX_BATCH_BYTES)) await flush();
      const classification = classifyUserAgent(hit.userAgent);
      pending.push({ hit, class: classification.class, aiAgent: classification.aiAgent });
      pendingBytes += bytes;
    }
    if (pending.length > 0) await flush();
    await Promise.all(inFlight);
    if (failure) throw failure;
    progress.update(raw.bytesRead, summary.linesRead, true);
  } catch (err) {
    await Promise.allSettled(inFlight);
    if (!(err instanceof FatalApiError)) throw err;
    summary.error = err.message;
  } finally {
    progress.clear();
    lines.close();
    raw.destroy();
  }
  summary.seconds = (Date.now() - started) / 1000;
  return summary;
}

/**
 * One batch through the API. A 400 naming `hits[i]` drops those hits and sends the rest once more
 * (a new key, since the content changed); any other refusal counts the whole batch as rejected.
 */
async function sendBatch(client: IngestClient, projectId: string, index: number, items: Pending[], summary: ImportSummary, say: (m: string) => void): Promise<void> {
  let batch = items;
  for (let round = 0; batch.length > 0; round++) {
    const body = JSON.stringify({ hits: batch.map((item) => item.hit) });
    const key = `import-log-${createHash('sha256').update(`${projectId}\n${index}\n${body}`).digest('base64url').slice(0, 32)}`;
    if (round === 0) summary.hitsSent += batch.length;
    const result = await client.post(body, key);
    if (result.outcome === 'accepted') {
      summary.hitsAccepted += result.accepted;
      if (result.replayed) summary.hitsReplayed += result.accepted;
      for (const item of batch) {
        summary.byClass[item.class]++;
        if (item.aiAgent) summary.aiAgents[item.aiAgent] = (summary.aiAgents[item.aiAgent] ?? 0) + 1;
      }
      return;
    }
    const bad = new Set(result.details.map((d) => /^hits\[(\d+)\]/.exec(d.field ?? '')?.[1]).filter((i): i is string => i !== undefined).map(Number));
    const fields = result.details.slice(0, 5).map((d) => `${d.field ?? '?'}: ${d.message ?? ''}`).join('; ');
    say(`batch ${index + 1}: the API refused it (${result.status} ${result.error}${fields ? ` — ${fields}` : ''})`);
    if (result.status !== 400 || bad.size === 0 || bad.size >= batch.length || round > 0) {
      summary.rejected.api += batch.length;
      return;
    }
    summary.rejected.api += bad.size;
    batch = batch.filter((_, i) => !bad.has(i));
    say(`batch ${index + 1}: sending its other ${batch.length} hits again`);
  }
}

async function isGzip(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(2), 0, 2, 0);
    return bytesRead === 2 && buffer[0] === 0x1f && buffer[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

const REASONS: Array<[RejectReason, string]> = [
  ['unparseable', 'unparseable (not combined format)'],
  ['invalid', 'malformed request or too long'],
  ['method', 'not a GET'],
  ['status', 'status not 2xx or 304'],
  ['asset', 'static asset or robots/sitemap'],
  ['api', 'refused by the API'],
];

export function formatSummary(s: ImportSummary, options: Pick<ImportOptions, 'projectId' | 'url'>): string {
  const row = (label: string, value: number, note = '') => `${label.padEnd(40)}${value.toLocaleString('en-US').padStart(9)}${note ? `  ${note}` : ''}`;
  const rejected = Object.values(s.rejected).reduce((a, b) => a + b, 0);
  const agents = Object.entries(s.aiAgents)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([name, count]) => `${name} ${count}`)
    .join(', ');
  const lines = [
    `${basename(s.file)} → project ${options.projectId} at ${options.url}`,
    row('  lines read', s.linesRead),
    row('  hits sent', s.hitsSent, `in ${s.batches} batch${s.batches === 1 ? '' : 'es'}`),
    row('  hits accepted', s.hitsAccepted, s.hitsReplayed ? `${s.hitsReplayed.toLocaleString('en-US')} of them already imported` : ''),
    row('    human', s.byClass.human),
    row('    ai', s.byClass.ai, agents),
    row('    bot', s.byClass.bot),
    row('  lines rejected', rejected),
    ...REASONS.map(([reason, label]) => row(`    ${label}`, s.rejected[reason])),
    `${'  elapsed'.padEnd(40)}${s.seconds.toFixed(1).padStart(9)} s  (${Math.round(s.linesRead / Math.max(s.seconds, 0.001)).toLocaleString('en-US')} lines/s)`,
  ];
  if (s.error) lines.push(`  stopped early: ${s.error}`, '  Running the same command again resumes: batches already stored are not counted twice.');
  return `${lines.join('\n')}\n`;
}

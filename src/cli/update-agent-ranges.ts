// `npm run cli -- update-agent-ranges`: downloads the operators' published IP range lists (for
// verified agents) into DATA_DIR/agent-ranges/. Running services pick them up within
// AGENT_RANGES_CHECK_MS, without a restart.
import { mkdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { loadConfig } from '../config/config';
import { extractEmbeddedRangeList, parseRangeList } from '../ingest/verification/ip-ranges';
import { RANGE_SOURCES, RANGES_SUBDIR, RangeSource } from '../ingest/verification/range-sources';
import { OptionSpecs, parseCommandLine, urlOption, usage, UsageError } from './args';

const SYNOPSIS = 'npm run cli -- update-agent-ranges [--only ID,ID] [--from BASE_URL]';

const OPTIONS = {
  only: { type: 'string', value: 'IDS', description: `refresh only these lists (comma-separated): ${RANGE_SOURCES.map((s) => s.id).join(', ')}` },
  from: {
    type: 'string',
    value: 'BASE_URL',
    description: "download BASE_URL/<id>.json (.html for Amazon's page) instead of the operators' official URLs: a mirror, or a test server",
  },
  help: { type: 'boolean', description: 'show this help', short: 'h' },
} satisfies OptionSpecs;

/** A slow operator must not hold the others: each download gets this long. */
const DOWNLOAD_TIMEOUT_MS = 30_000;
/** The largest published list is ~70 KB; Amazon's HTML page a few hundred. */
const MAX_DOWNLOAD_BYTES = 10 * 1024 * 1024;

export interface Io {
  stdout: Writable;
  stderr: Writable;
}

export interface RefreshOutcome {
  id: string;
  ok: boolean;
  message: string;
}

async function download(url: string): Promise<string> {
  const response = await fetch(url, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS), redirect: 'follow', headers: { accept: 'application/json, text/html;q=0.5' } });
  if (!response.ok) throw new Error(`HTTP ${response.status} from ${url}`);
  const text = await response.text();
  if (text.length > MAX_DOWNLOAD_BYTES) throw new Error(`${url} sent more than ${MAX_DOWNLOAD_BYTES} bytes`);
  return text;
}

/** What is there now, for the "keeping" message. */
async function describeCurrent(path: string): Promise<string> {
  try {
    const [s, text] = await Promise.all([stat(path), readFile(path, 'utf8')]);
    return `the list refreshed ${s.mtime.toISOString()} (published ${parseRangeList(text).creationTime || 'undated'})`;
  } catch {
    return 'the list shipped with Docent';
  }
}

/** Downloads, checks and atomically replaces one list; a failure leaves the previous file untouched. */
async function refreshOne(source: RangeSource, dir: string, from: string | undefined): Promise<RefreshOutcome> {
  const url = from ? `${from}/${source.id}.${source.format}` : source.url;
  const path = join(dir, `${source.id}.json`);
  try {
    const body = await download(url);
    // Kept in the operator's own format, so the service parses it with the code it parses the shipped copy with.
    const document = source.format === 'html' ? extractEmbeddedRangeList(body) : body;
    const list = parseRangeList(document);
    const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(tmp, document);
    try {
      await rename(tmp, path);
    } catch (err) {
      await unlink(tmp).catch(() => undefined);
      throw err;
    }
    return { id: source.id, ok: true, message: `updated: ${list.prefixes.length} prefixes, published ${list.creationTime || 'undated'}` };
  } catch (err) {
    return { id: source.id, ok: false, message: `FAILED (${(err as Error).message}); keeping ${await describeCurrent(path)}` };
  }
}

export async function updateAgentRanges(dataDir: string, options: { only?: string[]; from?: string } = {}): Promise<RefreshOutcome[]> {
  const dir = resolve(dataDir, RANGES_SUBDIR);
  await mkdir(dir, { recursive: true });
  const sources = RANGE_SOURCES.filter((s) => !options.only || options.only.includes(s.id));
  return Promise.all(sources.map((source) => refreshOne(source, dir, options.from)));
}

/** Exit code 0 when every list was refreshed, 1 when any download failed (the previous list stays), 2 on a usage error. */
export async function run(argv: string[], io: Io = { stdout: process.stdout, stderr: process.stderr }, env: Record<string, string | undefined> = process.env): Promise<number> {
  let only: string[] | undefined;
  let from: string | undefined;
  try {
    if (argv.includes('--help') || argv.includes('-h')) {
      io.stdout.write(usage(SYNOPSIS, OPTIONS));
      return 0;
    }
    const { values } = parseCommandLine(argv, OPTIONS);
    if (values.only !== undefined) {
      only = values.only.split(',').map((s) => s.trim()).filter(Boolean);
      const unknown = only.filter((id) => !RANGE_SOURCES.some((s) => s.id === id));
      if (unknown.length > 0) throw new UsageError(`unknown list: ${unknown.join(', ')}`);
    }
    if (values.from !== undefined) from = urlOption(values.from, 'from');
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.stderr.write(`update-agent-ranges: ${err.message}\n\n${usage(SYNOPSIS, OPTIONS)}`);
    return 2;
  }
  const config = loadConfig(env);
  const outcomes = await updateAgentRanges(config.DATA_DIR, { only, from });
  for (const o of outcomes) (o.ok ? io.stdout : io.stderr).write(`${o.id}: ${o.message}\n`);
  const failed = outcomes.filter((o) => !o.ok).length;
  io.stdout.write(`${outcomes.length - failed} of ${outcomes.length} lists refreshed into ${resolve(config.DATA_DIR, RANGES_SUBDIR)}\n`);
  return failed === 0 ? 0 : 1;
}

import { isIP } from 'node:net';
import { MAX_PATH_LENGTH, MAX_REFERRER_LENGTH, MAX_USER_AGENT_LENGTH } from '../common/limits';

/** One line of the combined log format: `%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-agent}i"`. */
export interface LogEntry {
  remoteHost: string;
  time: Date;
  /** '' when the request line was not `METHOD TARGET [PROTOCOL]` (e.g. `-`, or TLS bytes on a plain port). */
  method: string;
  target: string;
  status: number;
  /** '' when logged as `-`. */
  referrer: string;
  /** '' when logged as `-`. */
  userAgent: string;
}

// A quoted field: anything but a bare quote, where backslash escapes the next character
// (Apache writes \" and \\; nginx writes \x22 and \xHH). Fields after the user agent (nginx
// setups often append $http_x_forwarded_for or timings) are ignored.
const QUOTED = '"((?:[^"\\\\]|\\\\.)*)"';
const COMBINED = new RegExp(`^(\\S+) \\S+ \\S+ \\[([^\\]]+)\\] ${QUOTED} (\\d{3}) (?:\\d+|-) ${QUOTED} ${QUOTED}(?:\\s.*)?$`);

const MONTHS: Record<string, number> = { Jan: 0, Feb: 1, Mar: 2, Apr: 3, May: 4, Jun: 5, Jul: 6, Aug: 7, Sep: 8, Oct: 9, Nov: 10, Dec: 11 };
const LOG_TIME = /^(\d{2})\/([A-Z][a-z]{2})\/(\d{4}):(\d{2}):(\d{2}):(\d{2}) ([+-])(\d{2})(\d{2})$/;

/** `10/Oct/2025:13:55:36 -0700` → the instant it names; null when malformed or impossible. */
export function parseLogTime(text: string): Date | null {
  const m = LOG_TIME.exec(text);
  if (!m) return null;
  const [, dd, mon, yyyy, hh, mi, ss, sign, oh, om] = m;
  const month = MONTHS[mon];
  if (month === undefined || Number(oh) > 14 || Number(om) > 59) return null;
  const local = Date.UTC(Number(yyyy), month, Number(dd), Number(hh), Number(mi), Number(ss));
  const check = new Date(local);
  // Date.UTC rolls 31/Feb over into March; a field that changed was out of range.
  if (check.getUTCDate() !== Number(dd) || check.getUTCHours() !== Number(hh) || check.getUTCMinutes() !== Number(mi) || check.getUTCSeconds() !== Number(ss)) return null;
  const offsetMs = (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om)) * 60_000;
  return new Date(local - offsetMs);
}

/** Undoes the log writers' escaping: `\"`, `\\` and `\xHH` (bytes, so UTF-8 sequences come back whole). */
export function unescapeField(text: string): string {
  if (!text.includes('\\')) return text;
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && i + 1 < text.length) {
      const next = text[i + 1];
      if (next === 'x' && /^[0-9a-fA-F]{2}$/.test(text.slice(i + 2, i + 4))) {
        bytes.push(parseInt(text.slice(i + 2, i + 4), 16));
        i += 3;
        continue;
      }
      const simple: Record<string, string> = { '"': '"', '\\': '\\', n: '\n', t: '\t' };
      if (next in simple) {
        bytes.push(...Buffer.from(simple[next]));
        i += 1;
        continue;
      }
    }
    bytes.push(...Buffer.from(c));
  }
  return Buffer.from(bytes).toString('utf8');
}

const dash = (field: string): string => (field === '-' ? '' : unescapeField(field));

/** Parses one combined-format line; null when it is not one. */
export function parseCombinedLine(line: string): LogEntry | null {
  const m = COMBINED.exec(line.trimEnd());
  if (!m) return null;
  const [, remoteHost, timeText, request, status, referrer, userAgent] = m;
  const time = parseLogTime(timeText);
  if (!time) return null;
  const parts = unescapeField(request).split(' ');
  const wellFormed = parts.length >= 2 && parts.length <= 3 && /^[A-Z]+$/.test(parts[0]);
  return {
    remoteHost,
    time,
    method: wellFormed ? parts[0] : '',
    target: wellFormed ? parts[1] : '',
    status: Number(status),
    referrer: dash(referrer),
    userAgent: dash(userAgent),
  };
}

/** What the importer posts for one page view: the ingest API's hit shape. */
export interface ImportHit {
  timestamp: string;
  path: string;
  userAgent: string;
  ip?: string;
  referrer?: string;
}

export type SkipReason = 'method' | 'status' | 'asset' | 'invalid';

// Files a page pulls in, and housekeeping that crawlers fetch; a reader never "views" these.
// .txt, .md, .html and .pdf stay: llms.txt and Markdown twins of pages are how AI agents read docs.
const ASSET_EXTENSION =
  /\.(?:css|js|mjs|cjs|map|json|xml|rss|atom|webmanifest|png|jpe?g|gif|webp|avif|svg|ico|bmp|tiff?|woff2?|ttf|otf|eot|mp4|webm|mp3|ogg|wav|zip|gz|tgz|wasm)$/i;
const HOUSEKEEPING = /^\/(?:robots\.txt|ads\.txt|security\.txt|humans\.txt|\.well-known\/)/i;

// The ingest API's limits (decisions.md §3): a hit beyond them would fail its whole batch.

/**
 * A log entry as a hit when it is a page view worth counting, else why not: only GET (HEAD fetches
 * no page; the rest are forms, APIs and probes), only 2xx or 304 (a 304 is a page shown from cache;
 * other 3xx are redirects whose target is logged as its own line, 4xx/5xx showed no page), and no
 * static assets or crawler housekeeping files.
 */
export function toHit(entry: LogEntry): ImportHit | SkipReason {
  if (entry.method === '') return 'invalid';
  if (entry.method !== 'GET') return 'method';
  if (!((entry.status >= 200 && entry.status < 300) || entry.status === 304)) return 'status';
  let path = entry.target;
  if (/^https?:\/\//i.test(path)) {
    try {
      path = new URL(path).pathname; // absolute-form request target, as sent to proxies
    } catch {
      return 'invalid';
    }
  }
  path = path.replace(/[?#].*$/s, '');
  if (!path.startsWith('/') || path.length > MAX_PATH_LENGTH || entry.userAgent.length > MAX_USER_AGENT_LENGTH) return 'invalid';
  if (ASSET_EXTENSION.test(path) || HOUSEKEEPING.test(path)) return 'asset';

  const hit: ImportHit = { timestamp: entry.time.toISOString(), path, userAgent: entry.userAgent };
  // %h is a hostname when the server resolves names; only addresses identify a visitor.
  if (isIP(entry.remoteHost)) hit.ip = entry.remoteHost;
  if (isHttpUrl(entry.referrer) && entry.referrer.length <= MAX_REFERRER_LENGTH) hit.referrer = entry.referrer;
  return hit;
}

function isHttpUrl(text: string): boolean {
  if (!/^https?:\/\//i.test(text)) return false;
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

import { comparePaths, FixtureHit } from './visitors.fixtures';

/** The brute-force side of the insights tests: what each answer must be, computed the obvious way. */

const ASSISTANT_HOSTS: Record<string, string> = { 'chatgpt.com': 'OpenAI', 'perplexity.ai': 'Perplexity', 'claude.ai': 'Anthropic' };
const ASSISTANT_UTM: Record<string, string> = { 'chatgpt.com': 'OpenAI', 'copilot.com': 'Microsoft' };

/** What a path fetched, as insights-and-delivery.md §3 defines it. */
export function formatOf(path: string): string {
  const p = path.toLowerCase();
  if (p.endsWith('/llms.txt') || p.endsWith('/llms-full.txt')) return 'llms.txt';
  if (p.endsWith('.md') || p.endsWith('.mdx')) return 'markdown';
  const last = p.slice(p.lastIndexOf('/') + 1);
  if (p.endsWith('.html') || p.endsWith('.htm') || (!last.includes('.') && !['feed', 'rss', 'atom', 'sitemap'].includes(last))) return 'html';
  return 'other';
}

const inRange = (h: FixtureHit, from: number, to: number, prefix?: string) => h.at >= from && h.at < to && (!prefix || h.path.startsWith(prefix));

export interface ExpectedBucket {
  start: string;
  human: number;
  ai: number;
  total: number;
  hits: { human: number; ai: number; bot: number };
}

/** Buckets [starts[i], starts[i + 1]) (the last ending at `to`), counting hits in [from, to). */
export function bruteTimeseries(hits: FixtureHit[], starts: number[], from: number, to: number, prefix?: string): ExpectedBucket[] {
  return starts.map((start, i) => {
    const end = Math.min(i + 1 < starts.length ? starts[i + 1] : to, to);
    const inside = hits.filter((h) => h.at >= start && h.at < end && inRange(h, from, to, prefix));
    const visitors = (cls: string[]) => new Set(inside.filter((h) => cls.includes(h.class)).map((h) => h.visitor)).size;
    const count = (cls: string) => inside.filter((h) => h.class === cls).length;
    return {
      start: new Date(start).toISOString(),
      human: visitors(['human']), ai: visitors(['ai']), total: visitors(['human', 'ai']),
      hits: { human: count('human'), ai: count('ai'), bot: count('bot') },
    };
  });
}

type Row = Record<string, unknown> & { value: string; human: number; ai: number; total: number; hits: number };

const DIMENSION: Record<string, { value: (h: FixtureHit) => string; classes: string[] }> = {
  agent: { value: (h) => h.agent ?? 'GPTBot', classes: ['ai'] },
  operator: { value: (h) => h.operator ?? '', classes: ['ai'] },
  category: { value: (h) => h.category ?? 'training', classes: ['ai'] },
  referrer: { value: (h) => h.referrerHost ?? '', classes: ['human'] },
  source: { value: (h) => h.utmSource ?? '', classes: ['human'] },
  browser: { value: (h) => h.browser ?? '', classes: ['human'] },
  os: { value: (h) => h.os ?? '', classes: ['human'] },
  device: { value: (h) => h.device ?? '', classes: ['human'] },
  format: { value: (h) => formatOf(h.path), classes: ['human', 'ai'] },
};

const counts = (hs: FixtureHit[]) => ({
  human: new Set(hs.filter((h) => h.class === 'human').map((h) => h.visitor)).size,
  ai: new Set(hs.filter((h) => h.class === 'ai').map((h) => h.visitor)).size,
  total: new Set(hs.map((h) => h.visitor)).size,
  hits: hs.length,
});

const maxString = (xs: string[]) => xs.reduce((a, b) => (comparePaths(a, b) >= 0 ? a : b), '');

/** The whole breakdown (every row, in order) and its totals. */
export function bruteBreakdown(hits: FixtureHit[], by: string, from = -Infinity, to = Infinity, prefix?: string): { totals: ReturnType<typeof counts>; rows: Row[] } {
  const d = DIMENSION[by];
  const counted = hits.filter((h) => inRange(h, from, to, prefix) && d.classes.includes(h.class));
  const groups = new Map<string, FixtureHit[]>();
  for (const h of counted) groups.set(d.value(h), [...(groups.get(d.value(h)) ?? []), h]);
  const rows: Row[] = [...groups].map(([value, hs]) => {
    const row: Row = { value, ...counts(hs) };
    if (by === 'agent') {
      row.operator = maxString(hs.map((h) => h.operator ?? ''));
      row.category = maxString(hs.map((h) => h.category ?? 'training'));
      row.verification = {
        verified: hs.filter((h) => h.verification === 'verified').length,
        unverified: hs.filter((h) => h.verification === 'unverified').length,
        unknown: hs.filter((h) => (h.verification ?? 'unknown') === 'unknown').length,
      };
    }
    if (by === 'referrer') row.aiAssistant = { 'chatgpt.com': 'ChatGPT', 'perplexity.ai': 'Perplexity', 'claude.ai': 'Claude' }[value] ?? null;
    if (by === 'operator') row.human = 0;
    return row;
  });
  if (by === 'operator') {
    // Human visitors referred by each operator's assistants: referrer host first, else utm_source.
    const referred = new Map<string, Set<bigint>>();
    for (const h of hits) {
      if (h.class !== 'human' || !inRange(h, from, to, prefix)) continue;
      const op = ASSISTANT_HOSTS[h.referrerHost ?? ''] ?? ASSISTANT_UTM[(h.utmSource ?? '').toLowerCase()];
      if (op) referred.set(op, (referred.get(op) ?? new Set()).add(h.visitor));
    }
    for (const op of referred.keys()) if (!groups.has(op)) rows.push({ value: op, human: 0, ai: 0, total: 0, hits: 0 });
    for (const row of rows) {
      const n = referred.get(row.value)?.size ?? 0;
      row.referred = n;
      row.crawlsPerReferral = n === 0 ? null : row.hits / n;
    }
  }
  rows.sort((a, b) => b.total - a.total || b.hits - a.hits || comparePaths(a.value, b.value));
  const totals = counts(counted);
  if (by === 'operator') totals.human = 0;
  return { totals, rows };
}

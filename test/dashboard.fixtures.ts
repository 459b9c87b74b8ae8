/**
 * A week of docs traffic sent through the public ingest API with real user agents, so the
 * classifier, the stores and the dashboard all see what a docs site would send.
 */

export interface IngestHit {
  timestamp: string;
  path: string;
  userAgent: string;
  ip: string;
  visitorId?: string;
  referrer?: string;
}

const HUMAN_UAS = [
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.0.0',
];
const AI_UAS = [
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot)',
];
const BOT_UA = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const PATHS = ['/docs/getting-started', '/docs/getting-started', '/docs/install', '/docs/guides/authentication', '/docs/guides/webhooks', '/api/reference', '/api/reference/jobs', '/docs/faq', '/changelog', '/'];
const AI_PATHS = ['/llms.txt', '/llms-full.txt', '/docs/getting-started.md', '/api/reference.md', '/docs/install', '/api/reference', '/sitemap.xml'];
const REFERRERS = ['', '', '', 'https://www.google.com/', 'https://chatgpt.com/', 'https://www.perplexity.ai/', 'https://news.ycombinator.com/', 'https://github.com/acme/docs', 'https://claude.ai/'];

/** Deterministic: the same hits on every run (mulberry32). */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `days` days of hits from `from` (UTC midnight), growing day by day; `scale` thins a quieter period. */
export function docsTraffic(from: string, days: number, seed: number, scale = 1): IngestHit[] {
  const r = rng(seed);
  const pick = <T,>(xs: T[]) => xs[Math.floor(r() * xs.length)];
  const start = Date.parse(`${from}T00:00:00Z`);
  const hits: IngestHit[] = [];
  for (let d = 0; d < days; d++) {
    const day = start + d * 86_400_000;
    const humans = Math.round((14 + d * 3 + r() * 6) * scale);
    for (let v = 0; v < humans; v++) {
      const ua = pick(HUMAN_UAS);
      const visitorId = `human-${seed}-${d}-${v}`;
      const referrer = pick(REFERRERS);
      const views = 1 + Math.floor(r() * 3);
      for (let i = 0; i < views; i++) {
        let path = pick(PATHS);
        if (i === 0 && referrer.includes('chatgpt')) path += '?utm_source=chatgpt.com';
        hits.push({ timestamp: new Date(day + Math.floor(r() * 86_000_000)).toISOString(), path, userAgent: ua, ip: `198.51.100.${1 + (v % 200)}`, visitorId, referrer: i === 0 ? referrer || undefined : undefined });
      }
    }
    const agents = Math.round((6 + d + r() * 4) * scale);
    for (let a = 0; a < agents; a++) {
      const ua = AI_UAS[a % AI_UAS.length];
      const fetches = 2 + Math.floor(r() * 6);
      for (let i = 0; i < fetches; i++) {
        // GPTBot and ClaudeBot mostly from their operators' published ranges (verified), the rest from elsewhere.
        const published = a % AI_UAS.length === 0 ? '132.196.86' : a % AI_UAS.length === 1 ? '216.73.216' : undefined;
        const ip = published && r() < 0.8 ? `${published}.${10 + (a % 200)}` : `203.0.113.${1 + (a % 250)}`;
        hits.push({ timestamp: new Date(day + Math.floor(r() * 86_000_000)).toISOString(), path: pick(AI_PATHS), userAgent: ua, ip, visitorId: `ai-${seed}-${a}` });
      }
    }
    for (let b = 0; b < Math.round(5 * scale); b++) {
      hits.push({ timestamp: new Date(day + Math.floor(r() * 86_000_000)).toISOString(), path: pick(PATHS), userAgent: BOT_UA, ip: '66.249.66.1' });
    }
  }
  return hits;
}

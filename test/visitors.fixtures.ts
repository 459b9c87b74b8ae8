import type { ClickHouseClient } from '@clickhouse/client';

export type HitClass = 'human' | 'ai' | 'bot';

export interface FixtureHit {
  /** Epoch ms. */
  at: number;
  path: string;
  visitor: bigint;
  class: HitClass;
  /** Optional dimensions (insights); AI hits default to GPTBot / training. */
  agent?: string;
  operator?: string;
  category?: string;
  verification?: 'verified' | 'unverified' | 'unknown';
  browser?: string;
  os?: string;
  device?: string;
  referrerHost?: string;
  utmSource?: string;
}

export interface Counts {
  human: number;
  ai: number;
  total: number;
}

export interface Expected {
  totals: Counts;
  /** Every path with a visitor, by total desc then path asc. */
  visitors: Array<Counts & { path: string }>;
}

/** Inserts rows into `hits` exactly as ingest does (same table, same types), so the views see them. */
export async function insertHits(client: ClickHouseClient, projectId: string, hits: FixtureHit[]): Promise<void> {
  for (let i = 0; i < hits.length; i += 10_000) {
    await client.insert({
      table: 'hits',
      format: 'JSONEachRow',
      values: hits.slice(i, i + 10_000).map((h) => ({
        project_id: projectId,
        timestamp: new Date(h.at).toISOString().replace('T', ' ').replace('Z', ''),
        path: h.path,
        visitor_id: h.visitor.toString(),
        class: h.class,
        ai_agent: h.agent ?? (h.class === 'ai' ? 'GPTBot' : ''),
        ai_category: h.category ?? (h.class === 'ai' ? 'training' : ''),
        ai_operator: h.operator ?? '',
        verification: h.verification ?? 'unknown',
        browser: h.browser ?? '',
        os: h.os ?? '',
        device: h.device ?? '',
        referrer_host: h.referrerHost ?? '',
        utm_source: h.utmSource ?? '',
      })),
      clickhouse_settings: { async_insert: 0, wait_end_of_query: 1 },
    });
  }
}

/** Byte order, as ClickHouse sorts strings. */
export function comparePaths(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/** The report computed the slow, obvious way from the fixture rows. */
export function bruteForce(hits: FixtureHit[], from = -Infinity, to = Infinity): Expected {
  const all = { human: new Set<bigint>(), ai: new Set<bigint>() };
  const byPath = new Map<string, { human: Set<bigint>; ai: Set<bigint> }>();
  for (const h of hits) {
    if (h.class === 'bot' || h.at < from || h.at >= to) continue;
    let sets = byPath.get(h.path);
    if (!sets) byPath.set(h.path, (sets = { human: new Set(), ai: new Set() }));
    sets[h.class].add(h.visitor);
    all[h.class].add(h.visitor);
  }
  const counts = (s: { human: Set<bigint>; ai: Set<bigint> }): Counts => ({ human: s.human.size, ai: s.ai.size, total: new Set([...s.human, ...s.ai]).size });
  const visitors = [...byPath].map(([path, sets]) => ({ path, ...counts(sets) }));
  visitors.sort((a, b) => b.total - a.total || comparePaths(a.path, b.path));
  return { totals: counts(all), visitors };
}

/** Deterministic PRNG (mulberry32), so a failing random case can be replayed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

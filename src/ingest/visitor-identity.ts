import { hash } from 'node:crypto';
import type { HitClass } from './classifier/user-agent-classifier';

export interface IdentityInput {
  projectId: string;
  class: HitClass;
  visitorId?: string;
  ip?: string;
  userAgent: string;
  /** The secret salt of the hit's UTC day; required for human hits without a visitorId. */
  salt?: string;
}

/**
 * The 64-bit visitor id stored in `hits.visitor_id` (a UInt64, as a decimal string): the first 8
 * bytes of a SHA-256 over length-prefixed parts, so no two different part lists can collide by
 * concatenation ("ab"+"c" vs "a"+"bc").
 */
export function hashParts(parts: readonly string[]): string {
  let input = '';
  for (const part of parts) input += `${part.length}:${part}`;
  // One-shot crypto.hash: about a third cheaper than createHash().update()... on this hot path.
  return hash('sha256', input, 'buffer').readBigUInt64BE(0).toString();
}

/**
 * decisions.md §3: a caller-supplied visitorId is hashed with the project; otherwise (project, IP,
 * user agent), salted for humans with the day's secret salt so a person is one visitor per day and
 * cannot be followed across days. AI and bot hits stay unsalted: an agent is one visitor across days.
 */
export function visitorIdentity(input: IdentityInput): string {
  if (input.visitorId !== undefined) return hashParts(['id', input.projectId, input.visitorId]);
  const network = ['net', input.projectId, input.ip ?? '', input.userAgent];
  if (input.class !== 'human') return hashParts(network);
  if (!input.salt) throw new Error('a human hit without visitorId needs its day\'s salt');
  return hashParts([...network, input.salt]);
}

/** The UTC day a hit belongs to, as the salts table keys it. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

import { randomInt } from 'node:crypto';

export const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** n uniformly random base62 characters from the CSPRNG. */
export function randomBase62(n: number): string {
  let out = '';
  for (let i = 0; i < n; i++) out += BASE62[randomInt(62)];
  return out;
}

/** An opaque, prefixed identifier such as `job_4fT...`: 20 random base62 chars (~119 bits). */
export function newId(prefix: string): string {
  return `${prefix}_${randomBase62(20)}`;
}

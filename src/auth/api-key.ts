import { createHash, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { BASE62, randomBase62 } from '../common/ids';

export const KEY_PREFIX = 'docent_';
const RANDOM_LENGTH = 40;
const CHECKSUM_LENGTH = 6;
const KEY_PATTERN = new RegExp(`^${KEY_PREFIX}([0-9A-Za-z]{${RANDOM_LENGTH},})([0-9A-Za-z]{${CHECKSUM_LENGTH}})$`);

function base62Fixed(value: number, width: number): string {
  let out = '';
  for (let v = value; v > 0; v = Math.floor(v / 62)) out = BASE62[v % 62] + out;
  return out.padStart(width, '0');
}

function checksum(random: string): string {
  return base62Fixed(crc32(random), CHECKSUM_LENGTH);
}

/** A new admin API key: `docent_` + 40 random base62 chars + 6-char base62 CRC32 of them. */
export function generateApiKey(): string {
  const random = randomBase62(RANDOM_LENGTH);
  return `${KEY_PREFIX}${random}${checksum(random)}`;
}

/** True when the string has the key's shape and its checksum holds: typos are refused without a lookup. */
export function isWellFormedApiKey(key: string): boolean {
  const m = KEY_PATTERN.exec(key);
  return m !== null && checksum(m[1]) === m[2];
}

export function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

/** Constant-time equality of two secrets, whatever their lengths. */
export function secretsEqual(a: string, b: string): boolean {
  return timingSafeEqual(hashSecret(a), hashSecret(b));
}

/** What a key list shows instead of the key: enough to recognise it, useless to an attacker. */
export function keyHint(key: string): string {
  return `${key.slice(0, KEY_PREFIX.length + 4)}…${key.slice(-4)}`;
}

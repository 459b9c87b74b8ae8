import { generateApiKey, isWellFormedApiKey, keyHint, KEY_PREFIX, secretsEqual } from './api-key';

describe('API key format', () => {
  it('is docent_ + 40 base62 chars + a 6-char base62 checksum', () => {
    const key = generateApiKey();
    expect(key).toMatch(/^docent_[0-9A-Za-z]{46}$/);
    expect(isWellFormedApiKey(key)).toBe(true);
  });

  it('never repeats', () => {
    const keys = new Set(Array.from({ length: 1000 }, generateApiKey));
    expect(keys.size).toBe(1000);
  });

  it('refuses a key with one character changed (checksum)', () => {
    const key = generateApiKey();
    const i = KEY_PREFIX.length + 10;
    const swapped = key.slice(0, i) + (key[i] === 'a' ? 'b' : 'a') + key.slice(i + 1);
    expect(isWellFormedApiKey(swapped)).toBe(false);
  });

  it('refuses a key whose checksum part is altered', () => {
    const key = generateApiKey();
    const altered = key.slice(0, -1) + (key.endsWith('0') ? '1' : '0');
    expect(isWellFormedApiKey(altered)).toBe(false);
  });

  it.each([
    ['empty', ''],
    ['wrong prefix', 'sk_' + 'a'.repeat(46)],
    ['too short', 'docent_abc123'],
    ['non-base62', 'docent_' + '-'.repeat(46)],
    ['whitespace', ' docent_' + 'a'.repeat(46)],
  ])('refuses %s', (_name, key) => {
    expect(isWellFormedApiKey(key)).toBe(false);
  });

  it('hints without revealing the secret part', () => {
    const key = generateApiKey();
    const hint = keyHint(key);
    expect(hint.startsWith('docent_')).toBe(true);
    expect(hint.length).toBeLessThan(20);
    expect(key.includes(hint.replace('…', ''))).toBe(false);
  });

  it('compares secrets of any length in constant time', () => {
    expect(secretsEqual('abc', 'abc')).toBe(true);
    expect(secretsEqual('abc', 'abcd')).toBe(false);
    expect(secretsEqual('', 'x')).toBe(false);
  });
});

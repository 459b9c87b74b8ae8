import { LruCache } from './lru-cache';

describe('LruCache', () => {
  it('evicts the least recently used entry, not everything, when full', () => {
    const cache = new LruCache<string, number>(3);
    cache.set('a', 1, 60_000);
    cache.set('b', 2, 60_000);
    cache.set('c', 3, 60_000);
    expect(cache.get('a')).toBe(1); // a is now the most recent; b the least
    cache.set('d', 4, 60_000);
    expect(cache.size).toBe(3);
    expect(cache.get('b')).toBeUndefined();
    expect([cache.get('a'), cache.get('c'), cache.get('d')]).toEqual([1, 3, 4]);
  });

  it('keeps an entry stored without a time until it is evicted', () => {
    let now = 1000;
    const cache = new LruCache<string, number>(2, () => now);
    cache.set('a', 1);
    now += 1e12;
    expect(cache.get('a')).toBe(1);
    cache.set('b', 2);
    cache.set('c', 3);
    expect(cache.get('a')).toBeUndefined();
  });

  it('forgets an entry once its time is up', () => {
    let now = 1000;
    const cache = new LruCache<string, boolean>(10, () => now);
    cache.set('yes', true, 100);
    cache.set('no', false, 10);
    now += 50;
    expect(cache.get('yes')).toBe(true);
    expect(cache.get('no')).toBeUndefined();
    expect(cache.size).toBe(1);
    now += 100;
    expect(cache.get('yes')).toBeUndefined();
  });

  it('stays bounded under a stream of unique keys', () => {
    const cache = new LruCache<number, boolean>(100);
    for (let i = 0; i < 10_000; i++) cache.set(i, false, 60_000);
    expect(cache.size).toBe(100);
    expect(cache.get(9_999)).toBe(false);
    expect(cache.get(0)).toBeUndefined();
  });
});

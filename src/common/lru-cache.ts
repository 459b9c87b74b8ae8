/**
 * A bounded least-recently-used map whose entries may also expire. A Map keeps insertion order, so
 * re-inserting on every hit makes its first key the least recently used one: O(1) everywhere.
 */
export class LruCache<K, V> {
  private readonly entries = new Map<K, { value: V; until: number }>();

  constructor(
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The value, unless absent or expired; a hit becomes the most recently used entry. */
  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    if (entry.until !== Infinity && entry.until <= this.now()) return undefined;
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Stores for ttlMs (by default until evicted), evicting the least recently used entry when full. */
  set(key: K, value: V, ttlMs = Infinity): void {
    this.entries.delete(key);
    this.entries.set(key, { value, until: this.now() + ttlMs });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as K);
  }
}

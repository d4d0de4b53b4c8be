/**
 * A map with a memory bound: entries carry an estimated size in bytes, and once the
 * total passes the bound the least recently used ones are dropped. Every cache of the
 * decoding engine is one of these, owned by a vocabulary or a grammar cache, so no
 * process-wide state grows without limit.
 * @module
 */

export class BoundedCache<Key, Value> {
  /** Insertion order is recency order: a hit moves its entry to the end. */
  private readonly entries = new Map<Key, { value: Value; bytes: number }>();
  private heldBytes = 0;
  private evictionCount = 0;

  /**
   * @param maxBytes estimated bytes the cache may hold; one entry larger than this is kept
   *   alone until the next insertion, so a result is never dropped before its caller sees it
   * @param sizeOf estimated bytes of a value (typed-array payloads plus a per-object overhead)
   */
  constructor(
    readonly maxBytes: number,
    private readonly sizeOf: (value: Value) => number,
  ) {}

  /** Number of entries held. */
  get size(): number {
    return this.entries.size;
  }

  /** Estimated bytes held. */
  get bytes(): number {
    return this.heldBytes;
  }

  /** Entries dropped to keep within the bound so far. */
  get evictions(): number {
    return this.evictionCount;
  }

  has(key: Key): boolean {
    return this.entries.has(key);
  }

  /** The value for `key`, marking it most recently used. */
  get(key: Key): Value | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: Key, value: Value): void {
    const previous = this.entries.get(key);
    if (previous !== undefined) {
      this.heldBytes -= previous.bytes;
      this.entries.delete(key);
    }
    const bytes = this.sizeOf(value);
    this.entries.set(key, { value, bytes });
    this.heldBytes += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.heldBytes <= this.maxBytes || oldest === key) break;
      this.entries.delete(oldest);
      this.heldBytes -= entry.bytes;
      this.evictionCount++;
    }
  }

  /** The cached value for `key`, computing and storing it on a miss. */
  getOrCompute(key: Key, compute: () => Value): Value {
    const entry = this.entries.get(key);
    if (entry !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, entry);
      return entry.value;
    }
    const value = compute();
    this.set(key, value);
    return value;
  }

  values(): IterableIterator<Value> {
    return [...this.entries.values()].map((entry) => entry.value)[Symbol.iterator]();
  }

  clear(): void {
    this.entries.clear();
    this.heldBytes = 0;
  }
}

/** Rough fixed cost of one small JS object or typed array header, for size estimates. */
export const OBJECT_OVERHEAD_BYTES = 64;

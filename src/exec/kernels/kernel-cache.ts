/**
 * A bounded, per-isolate cache of compiled code: generated loops (fused.ts `generate`) keyed by their
 * source text.
 *
 * Why cache the function object, not only the text: V8 keeps a function's optimized code alive
 * through the function itself; code reached only through a shared feedback vector (closures made
 * per query) is dropped by some major GCs and compiled again by TurboFan on a helper thread
 * (issue #10, bench/deopt-runs.ts: Q3's sort comparators were compiled again in 3 of the first 9
 * runs without a deopt). A generated loop kept here is compiled once per isolate and text.
 *
 * Why bounded: a long-running REPL compiles expressions without limit; the cache keeps the most
 * recently used `capacity` entries (least recently used first out). An evicted function stays valid
 * for whoever still holds it; the next query with that text compiles a new one.
 */

/** A map from key to value holding at most `capacity` entries, evicting the least recently used. */
export class BoundedCache<K, V> {
  private readonly entries = new Map<K, V>();

  /** @param capacity the most entries kept (≥ 1) */
  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`a cache capacity must be a positive integer, got ${capacity}`);
  }

  /** The number of entries held. */
  get size(): number { return this.entries.size; }

  /** The value for `key` (and marks it most recently used), or undefined. */
  get(key: K): V | undefined {
    const v = this.entries.get(key);
    if (v !== undefined) {
      // Map keeps insertion order: re-inserting moves the key to the young end.
      this.entries.delete(key);
      this.entries.set(key, v);
    }
    return v;
  }

  /** The value for `key`, made by `make` (and stored) when absent. */
  getOrCreate(key: K, make: () => V): V {
    let v = this.get(key);
    if (v === undefined) {
      v = make();
      this.entries.set(key, v);
      if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as K);
    }
    return v;
  }

  /** Whether `key` is held (does not change the order). */
  has(key: K): boolean { return this.entries.has(key); }
}

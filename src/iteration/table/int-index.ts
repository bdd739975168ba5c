/**
 * An index from INTEGER key values to ids (the keyed table's key → key id,
 * for lookups in place: keyed-store.ts `findInt`).
 *
 * Decision: graph keys are mostly small non-negative node numbers, so a key
 * in [0, cap) lives in a direct-mapped array (a lookup is one read, no hash)
 * whose cap grows with the keys seen, up to 16 entries per key held plus
 * 64 Ki (memory stays proportional to the keys); any other key goes to an
 * int hash (int-tuple-table.ts). A lookup tries the array, then the hash.
 * When the array grows over keys already hashed, they are copied into it:
 * a held key inside the array's range is always found in the array.
 */
import { IntTupleTable } from './int-tuple-table.js';

export class IntIndex {
  /** Keys held. */
  size = 0;
  /** id + 1 at key (0: absent). */
  private direct = new Int32Array(1024);
  private readonly hash = new IntTupleTable(1);
  /** Hash tuple id → id, and → key. */
  private hashIds = new Int32Array(64);
  private hashKeys = new Int32Array(64);

  /** The direct-mapped part (id + 1 at key, 0 = absent), for loops that read it inline (pipeline-fused.ts). */
  get directIds(): Int32Array {
    return this.direct;
  }

  /** True when some key lives outside the direct-mapped part. */
  get hashed(): boolean {
    return this.hash.size > 0;
  }

  /** The id of key k, or −1. */
  get(k: number): number {
    if (k >= 0 && k < this.direct.length) {
      const v = this.direct[k]!;
      if (v !== 0) return v - 1;
    }
    if (this.hash.size === 0) return -1;
    const t = this.hash.get1(k);
    return t < 0 ? -1 : this.hashIds[t]!;
  }

  /** Records key k with id `id` (k must not be held yet). */
  set(k: number, id: number): void {
    this.size++;
    if (k >= 0 && k >= this.direct.length && k < 16 * this.size + 65536) {
      let cap = this.direct.length;
      while (cap <= k) cap *= 2;
      const d = new Int32Array(cap);
      d.set(this.direct);
      // Hashed keys the range now covers move in (they stay in the hash too): every held key in range is in
      // `direct`, which loops reading it inline rely on (pipeline-fused.ts).
      const hashed = this.hash.size;
      for (let t = 0; t < hashed; t++) { const h = this.hashKeys[t]!; if (h >= 0 && h < cap && d[h] === 0) d[h] = this.hashIds[t]! + 1; }
      this.direct = d;
    }
    if (k >= 0 && k < this.direct.length) { this.direct[k] = id + 1; return; }
    const t = this.hash.add1(k);
    if (t >= this.hashIds.length) {
      const x = new Int32Array(2 * (t + 1)); x.set(this.hashIds); this.hashIds = x;
      const y = new Int32Array(2 * (t + 1)); y.set(this.hashKeys); this.hashKeys = y;
    }
    this.hashIds[t] = id;
    this.hashKeys[t] = k;
  }

  /** Bytes held. */
  get bytes(): number {
    return this.direct.byteLength + this.hash.bytes + this.hashIds.byteLength + this.hashKeys.byteLength;
  }
}

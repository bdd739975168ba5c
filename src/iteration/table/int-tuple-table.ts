/**
 * An open-addressing hash table from tuples of W int32 words to dense ids
 * 0, 1, 2, … in first-seen order: the per-round group table of the fused
 * body pipeline (pipeline.ts), the seen set of UNION iterations over
 * INTEGER rows (seen-set.ts) and the key index of a static join side.
 *
 * Decision: the iteration's hot sets hold only int32 keys without NULLs (the
 * callers route other rows elsewhere), so the generic KeyTable's encoding
 * step, NULL handling and per-group word copies are not needed here: one
 * Int32Array of slots (id + 1, then W words), linear probing, load ≤ 1/2,
 * with W = 1 and W = 2 loops written out. `clear()` keeps the capacity, so a
 * table reused round after round allocates nothing once it has grown.
 */

/** Mixes one int32 word into a 32-bit hash. */
function mix(h: number, k: number): number {
  return Math.imul(h ^ k ^ (k >>> 16), 0x9e3779b1);
}

export class IntTupleTable {
  /** Number of distinct tuples. */
  size = 0;
  private slots: Int32Array;
  private mask: number;
  private shift: number;

  constructor(readonly W: number, capacity = 64) {
    let cap = 64;
    while (cap < 2 * capacity) cap *= 2;
    this.slots = new Int32Array(cap * (W + 1));
    this.mask = cap - 1;
    this.shift = 32 - Math.log2(cap);
  }

  /** Bytes held by the slots (for memory accounting). */
  get bytes(): number {
    return this.slots.byteLength;
  }

  /** Forgets every tuple, keeping the capacity. */
  clear(): void {
    if (this.size > 0) this.slots.fill(0);
    this.size = 0;
  }

  /** The id of the one-word tuple (k), inserted when new (W = 1). */
  add1(k: number): number {
    const slots = this.slots;
    let s = mix(0x2545f491, k) >>> this.shift;
    for (;;) {
      const g1 = slots[2 * s]!;
      if (g1 === 0) {
        slots[2 * s] = this.size + 1;
        slots[2 * s + 1] = k;
        return this.added();
      }
      if (slots[2 * s + 1] === k) return g1 - 1;
      s = (s + 1) & this.mask;
    }
  }

  /** The id of (k), or −1 (W = 1). */
  get1(k: number): number {
    const slots = this.slots;
    let s = mix(0x2545f491, k) >>> this.shift;
    for (;;) {
      const g1 = slots[2 * s]!;
      if (g1 === 0) return -1;
      if (slots[2 * s + 1] === k) return g1 - 1;
      s = (s + 1) & this.mask;
    }
  }

  /** The id of the two-word tuple (a, b), inserted when new (W = 2). */
  add2(a: number, b: number): number {
    const slots = this.slots;
    let s = mix(mix(0x2545f491, a), b) >>> this.shift;
    for (;;) {
      const base = 3 * s;
      const g1 = slots[base]!;
      if (g1 === 0) {
        slots[base] = this.size + 1;
        slots[base + 1] = a;
        slots[base + 2] = b;
        return this.added();
      }
      if (slots[base + 1] === a && slots[base + 2] === b) return g1 - 1;
      s = (s + 1) & this.mask;
    }
  }

  /** The id of the tuple words[at .. at + W), inserted when new (any W). */
  add(words: Int32Array, at: number): number {
    const W = this.W;
    if (W === 1) return this.add1(words[at]!);
    if (W === 2) return this.add2(words[at]!, words[at + 1]!);
    const S = W + 1;
    const slots = this.slots;
    let h = 0x2545f491;
    for (let w = 0; w < W; w++) h = mix(h, words[at + w]!);
    let s = h >>> this.shift;
    for (;;) {
      const base = S * s;
      const g1 = slots[base]!;
      if (g1 === 0) {
        slots[base] = this.size + 1;
        for (let w = 0; w < W; w++) slots[base + 1 + w] = words[at + w]!;
        return this.added();
      }
      let same = true;
      for (let w = 0; w < W; w++) if (slots[base + 1 + w] !== words[at + w]) { same = false; break; }
      if (same) return g1 - 1;
      s = (s + 1) & this.mask;
    }
  }

  /** Counts the tuple just stored and grows at load 1/2; returns its id. */
  private added(): number {
    const id = this.size++;
    if (this.size * 2 > this.mask + 1) this.grow();
    return id;
  }

  private grow(): void {
    const S = this.W + 1;
    const old = this.slots;
    const cap = 2 * (this.mask + 1);
    this.slots = new Int32Array(cap * S);
    this.mask = cap - 1;
    this.shift -= 1;
    for (let base = 0; base < old.length; base += S) {
      if (old[base] === 0) continue;
      let h = 0x2545f491;
      for (let w = 0; w < this.W; w++) h = mix(h, old[base + 1 + w]!);
      let s = h >>> this.shift;
      while (this.slots[S * s] !== 0) s = (s + 1) & this.mask;
      for (let w = 0; w < S; w++) this.slots[S * s + w] = old[base + w]!;
    }
  }
}

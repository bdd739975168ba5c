/**
 * String interning for hash keys: maps UTF-8 byte strings to dense int ids
 * without decoding them to JS strings. Used by `hash.ts` to turn a VARCHAR
 * key column (Utf8 or Dictionary) into one int32 word per row.
 *
 * Storage: a growable byte arena plus an offsets array (id → bytes), and an
 * open-addressing table of (id + 1, hash) pairs in one Int32Array.
 * Initial sizes are ≤ 64 bytes each: V8 keeps such typed arrays on the JS
 * heap (~50 ns), a bigger one gets an off-heap backing store (0.5–3 µs), and
 * every KeyTable (a 3-group GROUP BY of a 10-row query) makes an interner.
 */

/** FNV-1a over bytes [start, end), finished with a murmur-style mix. */
export function hashUtf8(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5 | 0;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 16777619);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h;
}

/** Interns UTF-8 byte strings into ids 0, 1, 2, ... in first-seen order. */
export class StringInterner {
  private arena = new Uint8Array(64);
  private arenaUsed = 0;
  /** offsets[id] .. offsets[id + 1] are the bytes of `id` in the arena. */
  private offsets = new Int32Array(16);
  private slots = new Int32Array(2 * 8);
  private mask = 7;
  /** Number of distinct strings. */
  size = 0;

  /**
   * The id of bytes [start, end) of `src`; when absent, adds it (insert) or
   * returns -1 (lookup only).
   */
  intern(src: Uint8Array, start: number, end: number, insert: boolean): number {
    const h = hashUtf8(src, start, end);
    const len = end - start;
    const slots = this.slots;
    const mask = this.mask;
    const arena = this.arena;
    const offs = this.offsets;
    let i = (h >>> 0) & mask;
    for (;;) {
      const id1 = slots[2 * i]!;
      if (id1 === 0) break;
      if (slots[2 * i + 1] === h) {
        const id = id1 - 1;
        const s = offs[id]!;
        if (offs[id + 1]! - s === len) {
          let k = 0;
          while (k < len && arena[s + k] === src[start + k]) k++;
          if (k === len) return id;
        }
      }
      i = (i + 1) & mask;
    }
    if (!insert) return -1;
    const id = this.size++;
    this.append(src, start, end);
    slots[2 * i] = id + 1;
    slots[2 * i + 1] = h;
    if (this.size * 2 > mask + 1) this.grow();
    return id;
  }

  /** The bytes of an id (a view into the arena; valid until the next insert). */
  bytesOf(id: number): Uint8Array {
    return this.arena.subarray(this.offsets[id]!, this.offsets[id + 1]!);
  }

  /** Byte length of an id's string. */
  lengthOf(id: number): number {
    return this.offsets[id + 1]! - this.offsets[id]!;
  }

  /** Copies the bytes of `id` into `dst` at `at`; returns the position after them. */
  copyTo(id: number, dst: Uint8Array, at: number): number {
    const s = this.offsets[id]!;
    const e = this.offsets[id + 1]!;
    const arena = this.arena;
    if (e - s > 24) { dst.set(arena.subarray(s, e), at); return at + e - s; }
    for (let k = s; k < e; k++) dst[at++] = arena[k]!;
    return at;
  }

  /** Compares two ids by UTF-8 bytes (= code point order). */
  compare(a: number, b: number): number {
    if (a === b) return 0;
    const arena = this.arena;
    const sa = this.offsets[a]!;
    const la = this.offsets[a + 1]! - sa;
    const sb = this.offsets[b]!;
    const lb = this.offsets[b + 1]! - sb;
    const m = la < lb ? la : lb;
    for (let k = 0; k < m; k++) {
      const d = arena[sa + k]! - arena[sb + k]!;
      if (d !== 0) return d;
    }
    return la - lb;
  }

  /** Ranks of all ids in byte order: rank[id] (equal strings never occur: ids are distinct). */
  ranks(): Int32Array {
    const ids = new Int32Array(this.size);
    for (let i = 0; i < ids.length; i++) ids[i] = i;
    ids.sort((a, b) => this.compare(a, b));
    const rank = new Int32Array(this.size);
    for (let r = 0; r < ids.length; r++) rank[ids[r]!] = r;
    return rank;
  }

  private append(src: Uint8Array, start: number, end: number): void {
    const len = end - start;
    if (this.arenaUsed + len > this.arena.length) {
      const next = new Uint8Array(Math.max(this.arena.length * 2, this.arenaUsed + len));
      next.set(this.arena.subarray(0, this.arenaUsed));
      this.arena = next;
    }
    const arena = this.arena;
    let p = this.arenaUsed;
    for (let k = start; k < end; k++) arena[p++] = src[k]!;
    this.arenaUsed = p;
    if (this.size + 1 > this.offsets.length) {
      const next = new Int32Array(this.offsets.length * 2);
      next.set(this.offsets);
      this.offsets = next;
    }
    this.offsets[this.size] = p;
  }

  /** Doubles the slots, re-placing each id by the hash its slot already holds (no string is hashed again). */
  private grow(): void {
    const cap = (this.mask + 1) * 2;
    const old = this.slots;
    const slots = new Int32Array(2 * cap);
    const mask = cap - 1;
    for (let j = 0; j < old.length; j += 2) {
      const id1 = old[j]!;
      if (id1 === 0) continue;
      const h = old[j + 1]!;
      let i = (h >>> 0) & mask;
      while (slots[2 * i] !== 0) i = (i + 1) & mask;
      slots[2 * i] = id1;
      slots[2 * i + 1] = h;
    }
    this.slots = slots;
    this.mask = mask;
  }
}

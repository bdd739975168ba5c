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
 *
 * Hashing takes four bytes per step (MurmurHash3's 32-bit block mix): the
 * byte-at-a-time FNV-1a chain was one dependent multiply per byte, ~100 ns
 * for a 73-byte TPC-H comment (`npm run bench:interner`).
 */

/** MurmurHash3 (32-bit) of bytes [start, end), seed 0: four bytes per step, then the tail. */
export function hashUtf8(bytes: Uint8Array, start: number, end: number): number {
  let h = 0;
  let i = start;
  for (const last = end - 3; i < last; i += 4) {
    let k = bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
    k = Math.imul(k, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    h ^= Math.imul(k, 0x1b873593);
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  const tail = end - i;
  if (tail > 0) {
    let k = bytes[i]! | (tail > 1 ? bytes[i + 1]! << 8 : 0) | (tail > 2 ? bytes[i + 2]! << 16 : 0);
    k = Math.imul(k, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    h ^= Math.imul(k, 0x1b873593);
  }
  h ^= end - start;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
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

  /** Bytes of all interned strings together (the arena in use). */
  get byteLength(): number {
    return this.arenaUsed;
  }

  /**
   * Writes the interned strings out as a Utf8 column's buffers, id order: `offsets` gets `size + 1`
   * entries (from 0), `bytes` the `byteLength` bytes (io/dictionary-store.ts makes a dictionary so).
   */
  writeUtf8(offsets: Int32Array, bytes: Uint8Array): void {
    offsets.set(this.offsets.subarray(0, this.size + 1));
    bytes.set(this.arena.subarray(0, this.arenaUsed));
  }

  /** Byte length of an id's string. */
  lengthOf(id: number): number {
    return this.offsets[id + 1]! - this.offsets[id]!;
  }

  /**
   * Copies the bytes of `id` into `dst` at `at`; returns the position after them. A plain loop
   * at every length: `dst.set(arena.subarray(...))` made a view object per long string (an
   * aggregate's output of 38K groups × 5 string keys).
   */
  copyTo(id: number, dst: Uint8Array, at: number): number {
    const e = this.offsets[id + 1]!;
    const arena = this.arena;
    for (let k = this.offsets[id]!; k < e; k++) dst[at++] = arena[k]!;
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

  /**
   * Room for `strings` more strings of `bytes` bytes in all, each array grown at most once (at least
   * doubled, so reserving batch after batch stays amortized): a key encoder about to intern whole
   * dictionaries reserves for all of them (hash-encode.ts). Doubling up to them allocated about as
   * much again in dropped arrays: TPC-H Q10's aggregate interns four customer string columns of 57K
   * entries, 27 MB of arena, offsets and slots per query for 12 MB kept.
   */
  reserve(strings: number, bytes: number): void {
    if (this.arenaUsed + bytes > this.arena.length) {
      const next = new Uint8Array(Math.max(this.arena.length * 2, this.arenaUsed + bytes));
      next.set(this.arena.subarray(0, this.arenaUsed));
      this.arena = next;
    }
    if (this.size + strings + 1 > this.offsets.length) {
      const next = new Int32Array(Math.max(this.offsets.length * 2, this.size + strings + 1));
      next.set(this.offsets.subarray(0, this.size + 1));
      this.offsets = next;
    }
    let cap = this.mask + 1;
    while ((this.size + strings) * 2 > cap) cap *= 2;
    if (cap > this.mask + 1) this.rehash(cap);
  }

  /** Doubles the slots. */
  private grow(): void {
    this.rehash((this.mask + 1) * 2);
  }

  /** Moves the slots to a table of `cap` slots, re-placing each id by the hash its slot already holds (no string is hashed again). */
  private rehash(cap: number): void {
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


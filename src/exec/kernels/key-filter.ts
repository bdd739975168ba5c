/**
 * Membership pre-filters over integer join keys (sideways information
 * passing): built from a hash join's build keys, tested by the probe side's
 * scan so rows that cannot match are dropped before anything copies them.
 *
 * Decision: one structure per key column, chosen from the build keys' range.
 * Dense keys (range ≤ 64 bits per build row, or any range up to 2^23 bits =
 * 1 MB; at most 2^27 bits) get an exact bitmap over [min, max] — TPC-H's keys
 * are dense, and a bitmap costs one memory access per probe row with no false
 * positives. (Q10's 57K filtered orders span the 6M order keys: 105 bits per
 * key; the Bloom filter it used to get kept 1.4% of lineitem's 6M rows as
 * false positives — 84K rows copied for nothing — and cost two hashes per row.)
 * Sparse keys get a Bloom filter (16 bits per key, two probes: about 1.4%
 * false positives) behind the min/max range check. A filter may keep rows that cannot match
 * (the join still compares keys), never drop one that can. NULL never
 * matches a join key, so NULL probe rows are dropped.
 *
 * Only integer-valued columns take part (INTEGER, BIGINT, DATE as days):
 * values are compared as numbers; a BIGINT beyond ±2^53 on the build side
 * makes no filter, on the probe side keeps the row (the row loop) or drops it
 * (the search below: it equals no build key).
 *
 * Few keys (at most FEW_KEYS build rows): the filter also keeps its distinct
 * keys in order, and a sorted probe batch is binary-searched for them instead
 * of tested row by row (kernels/key-search.ts; TPC-H Q18's ~60 order keys
 * against lineitem and orders, both stored in order-key order).
 */
import type { Data } from 'apache-arrow';
import { InternalError } from '../../relnode/errors.js';
import { giveArray, takeScratch } from './buffer-pool.js';
import { searchSelect } from './key-search.js';
import { sortedAscending } from './sorted-column.js';

const MAX_BITS = 1 << 27;
/** Runs of kept rows per tested row below 1 / CLUSTERED: the branching bitmap loop wins (see bitmapBranch). */
const CLUSTERED = 20;
/** A bitmap this small is always chosen over a Bloom filter, whatever the key density. */
const SMALL_BITS = 1 << 23;
/**
 * Build sides of at most this many rows keep their keys for the sorted search (sorted, deduplicated
 * on first use: ~0.2 ms at 4096 keys, paid only when a probe batch may take the search).
 */
export const FEW_KEYS = 4096;

/**
 * One caller's choice of bitmap loop: its last test's kept rows came in few runs (under 1 per
 * CLUSTERED rows tested: sorted keys, or almost nothing kept), so its next test takes the loop with
 * a branch, which then predicts well. Each caller keeps its own (a scan's use of the filter, the
 * join's membership probe): the batches they test differ. Q3's customer filter is tested by the
 * orders scan (20% kept at random: the mask loop) and by the join's membership probe (every row
 * kept: one run); with one flag between them each probe batch set it and every scan batch took
 * the branching loop and mispredicted (8–10 ns a row instead of ~3). Never shared between threads.
 */
export interface LoopHint { clustered: boolean }

/** A built membership filter over one key column. */
export class KeyFilter {
  private constructor(
    /** Smallest and largest build key. */
    readonly min: number,
    readonly max: number,
    /** 'bitmap': bit (v − min) is set iff v is a build key; 'bloom': two hashed bits per key. */
    readonly mode: 'bitmap' | 'bloom' | 'empty',
    private bits: Int32Array,
    private readonly mask: number,
    /** The build keys when there are at most FEW_KEYS (any order, repeats), else undefined. */
    private few: Float64Array | undefined = undefined,
    /** Build rows with a non-NULL key (repeats counted). */
    readonly keyRows = 0,
  ) {}

  /**
   * Whether no build key repeats: a bitmap with as many set bits as non-NULL build keys, or an
   * empty filter. A Bloom filter cannot tell (false). Lets a join decide on membership probes
   * before it builds a key table (hash-join-member.ts).
   */
  keysDistinct(): boolean {
    if (this.mode === 'empty') return true;
    if (this.mode !== 'bitmap') return false;
    let set = 0;
    const bits = this.bits;
    for (let w = 0; w < bits.length; w++) {
      let x = bits[w]!;
      x -= (x >>> 1) & 0x55555555;
      x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
      set += (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
    }
    return set === this.keyRows;
  }

  /** `few` sorted and deduplicated (on first use), and as BIGINTs (on the first BIGINT probe). */
  private sortedKeys: Float64Array | undefined;
  private bigKeys: BigInt64Array | undefined;

  /** The loop choice of callers that pass no hint of their own. */
  private readonly defaultHint: LoopHint = { clustered: false };

  /** How EXPLAIN ANALYZE and tests describe it. */
  describe(): string {
    if (this.mode === 'empty') return 'empty';
    return `${this.mode} [${this.min}, ${this.max}]`;
  }

  /**
   * Builds a filter from key columns (several parts, e.g. one per join subtask);
   * undefined when a key is not an integer column or is out of the exact number range.
   */
  static build(parts: readonly Data[]): KeyFilter | undefined {
    let min = Infinity;
    let max = -Infinity;
    let n = 0;
    for (const d of parts) {
      const v = d.values as ArrayLike<number | bigint>;
      if (!(v instanceof Int32Array) && !(v instanceof BigInt64Array)) return undefined;
      const len = d.length;
      if (v instanceof Int32Array && d.nullCount === 0) {
        // The common case (INTEGER keys, no NULLs): no per-row getters or conversions.
        for (let i = 0; i < len; i++) { const x = v[i]!; if (x < min) min = x; if (x > max) max = x; }
        n += len;
        continue;
      }
      const nulls = d.nullCount > 0;
      for (let i = 0; i < len; i++) {
        if (nulls && !d.getValid(i)) continue;
        const x = Number(v[i]!);
        if (!Number.isSafeInteger(x)) return undefined;
        if (x < min) min = x;
        if (x > max) max = x;
        n++;
      }
    }
    if (n === 0) return new KeyFilter(0, -1, 'empty', new Int32Array(0), 0);
    let few: Float64Array | undefined;
    if (n <= FEW_KEYS) {
      few = new Float64Array(n);
      let j = 0;
      for (const d of parts) eachKey(d, (x) => { few![j++] = x; });
    }
    const range = max - min + 1;
    if (range <= MAX_BITS && (range <= 64 * n || range <= SMALL_BITS)) {
      const bits = zeroedWords(Math.ceil(range / 32));
      for (const d of parts) eachKey(d, (x) => { const o = x - min; bits[o >>> 5] |= 1 << (o & 31); });
      return new KeyFilter(min, max, 'bitmap', bits, 0, few, n);
    }
    let m = 64;
    while (m < 16 * n && m < MAX_BITS) m *= 2;
    const bits = zeroedWords(m >>> 5);
    const mask = m - 1;
    for (const d of parts) {
      eachKey(d, (x) => {
        const h1 = hash1(x) & mask;
        const h2 = hash2(x) & mask;
        bits[h1 >>> 5] |= 1 << (h1 & 31);
        bits[h2 >>> 5] |= 1 << (h2 & 31);
      });
    }
    return new KeyFilter(min, max, 'bloom', bits, mask, few, n);
  }

  /**
   * Gives the bit array back to the thread's scratch pool (RuntimeFilterSlot.closed, once the run is
   * over); testing the filter afterwards is an internal error (its bits may be another filter's now).
   */
  release(): void {
    giveArray(this.bits);
    this.bits = new Int32Array(0);
    this.released = true;
  }

  private released = false;

  /**
   * Writes the rows of `d` that may match into `sel` (ascending) and returns
   * their number; `sel` has room for d.length rows. With `from`, only rows
   * `from[0..fromN)` (ascending) are tested: the selection of the filters
   * applied before this one, so a scan with several filters copies its rows once. `hint` is the
   * caller's own loop choice (LoopHint), kept from test to test.
   */
  select(d: Data, sel: Int32Array, from?: Int32Array, fromN: number = d.length, hint: LoopHint = this.defaultHint): number {
    const all = from === undefined;
    const n = all ? d.length : fromN;
    if (this.released) throw new InternalError('a runtime filter was tested after its run ended');
    if (this.mode === 'empty') return 0;
    if (this.few !== undefined) {
      const k = searchSelect(d, this.keysOf, this.bigKeysOf, sel, from ?? null, n);
      if (k >= 0) return k;
    }
    const v = d.values as Int32Array | BigInt64Array;
    const nulls = d.nullCount > 0;
    const { min, max, bits, mask } = this;
    if (v instanceof Int32Array && !nulls) {
      if (this.mode === 'bloom') return bloomSelect(v, from ?? null, n, min, max, bits, mask, sel);
      const span = max - min;
      if (all && sortedAscending(d)) return bitmapSorted(v, n, min, span, bits, sel);
      const k = hint.clustered ? bitmapBranch(v, from ?? null, n, min, span, bits, sel) : all ? bitmapAll(v, n, min, span, bits, sel) : bitmapFrom(v, from, n, min, span, bits, sel);
      hint.clustered = runsOf(sel, k) * CLUSTERED < n;
      return k;
    }
    let m = 0;
    for (let k = 0; k < n; k++) {
      const i = all ? k : from[k]!;
      if (nulls && !d.getValid(i)) continue;
      const x = Number(v[i]!);
      if (!Number.isSafeInteger(x)) { sel[m++] = i; continue; }
      if (this.mayContain(x)) sel[m++] = i;
    }
    return m;
  }

  /** The distinct build keys, ascending (when few), and as BIGINTs, for searching BIGINT probe columns. */
  private readonly keysOf = (): Float64Array => (this.sortedKeys ??= distinctSorted(this.few!));
  private readonly bigKeysOf = (): BigInt64Array => (this.bigKeys ??= BigInt64Array.from(this.keysOf(), (x) => BigInt(x)));

  /** Whether the integer x may be a build key. */
  mayContain(x: number): boolean {
    if (this.released) throw new InternalError('a runtime filter was tested after its run ended');
    if (this.mode === 'empty' || x < this.min || x > this.max) return false;
    const bits = this.bits;
    if (this.mode === 'bitmap') { const o = x - this.min; return (bits[o >>> 5]! & (1 << (o & 31))) !== 0; }
    const h1 = hash1(x) & this.mask;
    const h2 = hash2(x) & this.mask;
    return (bits[h1 >>> 5]! & (1 << (h1 & 31))) !== 0 && (bits[h2 >>> 5]! & (1 << (h2 & 31))) !== 0;
  }
}

/*
 * The INTEGER loops below test 32 rows into a bit mask, then write the kept rows of the mask
 * (lowest bit first). A row kept or dropped at random (Q3's orders by customer: 20% kept) then costs
 * no mispredicted branch, and unlike a branch-free `sel[m] = i; m += bit` loop no row's store waits
 * for the previous row's bitmap read, so a big bitmap's cache misses still overlap (TPC-H Q10: 57K
 * order keys over 6M). The range checks stay branches: they almost always pass (the build keys span
 * the probe's range) and guard the bitmap read.
 */

/** Writes rows base + b for the set bits b of mask `w` to sel from m on (ascending); returns the new m. */
function emitMask(w: number, base: number, sel: Int32Array, m: number): number {
  while (w !== 0) {
    const t = w & -w;
    sel[m++] = base + 31 - Math.clz32(t);
    w ^= t;
  }
  return m;
}

/** emitMask through a selection: bit b stands for row from[base + b]. */
function emitMaskFrom(w: number, from: Int32Array, base: number, sel: Int32Array, m: number): number {
  while (w !== 0) {
    const t = w & -w;
    sel[m++] = from[base + 31 - Math.clz32(t)]!;
    w ^= t;
  }
  return m;
}

/**
 * The bitmap test with a branch per row: faster than the mask loops when the outcome runs in long
 * stretches (Q3's lineitem, sorted by order key, 4 rows per key and 10% of keys kept: 2.3 vs
 * 2.6 ns a row; 1% kept at random: 3.1 vs 3.7), slower when it flips at random (20%: 4.6 vs 3.1).
 */
function bitmapBranch(v: Int32Array, from: Int32Array | null, n: number, min: number, span: number, bits: Int32Array, sel: Int32Array): number {
  let m = 0;
  if (from === null) {
    for (let i = 0; i < n; i++) {
      const o = v[i]! - min;
      if (o >= 0 && o <= span && ((bits[o >>> 5]! >>> o) & 1) !== 0) sel[m++] = i;
    }
  } else {
    for (let k = 0; k < n; k++) {
      const i = from[k]!;
      const o = v[i]! - min;
      if (o >= 0 && o <= span && ((bits[o >>> 5]! >>> o) & 1) !== 0) sel[m++] = i;
    }
  }
  return m;
}

/**
 * The bitmap test of a sorted column (kernels/sorted-column.ts: TPC-H lineitem's and orders' order
 * keys) as a merge of the rows' keys with the bitmap's set bits: the loop visits each build key
 * (set bit) in the batch's key range once, gallops the row cursor to it and writes its run of rows,
 * and jumps the bitmap cursor to the next row's key. The row cursor moves 32, then 8, then 1 rows
 * a step (loops whose branches predict; galloping with a bisection mispredicted half its branches
 * and was slower on Q3's gaps of ~40 rows). Against the block-skipping row test it replaced (a
 * 32-row block with a build key tested each row), 6M sorted rows of 4 per key, CPU ns a row
 * alternating in one process: 10% of the keys built (Q3's lineitem) 2.21 → 1.00, 50% 4.35 → 2.65,
 * 2% 0.89 → 0.45 (load ~3).
 */
function bitmapSorted(v: Int32Array, n: number, min: number, span: number, bits: Int32Array, sel: Int32Array): number {
  if (n === 0) return 0;
  const top = Math.min(v[n - 1]! - min, span);
  if (top < 0) return 0;
  let i = 0;
  let m = 0;
  // The bitmap cursor: word w holds offsets ≥ 32w; `word` its bits not visited yet.
  let o = v[0]! - min;
  if (o < 0) o = 0;
  let w = o >>> 5;
  let word = bits[w]! & (-1 << (o & 31));
  const wTop = top >>> 5;
  for (;;) {
    while (word === 0) {
      if (++w > wTop) return m;
      word = bits[w]!;
    }
    const t = word & -word;
    word ^= t;
    const b = (w << 5) + 31 - Math.clz32(t);
    if (b > top) return m;
    const key = b + min;
    // Row cursor to the first row with v ≥ key: 32 rows a step while the 32nd row on is below it,
    // then 8, then 1 (the rows ascend; predicted loops — a bisection's branches mispredict).
    while (i + 32 < n && v[i + 32]! < key) i += 32;
    while (i + 8 < n && v[i + 8]! < key) i += 8;
    while (i < n && v[i]! < key) i++;
    if (i >= n) return m;
    while (i < n && v[i] === key) sel[m++] = i++;
    if (i >= n) return m;
    // Build keys below the next row's key have no rows: jump the bitmap cursor to it.
    const no = v[i]! - min;
    if (no > b) {
      if (no > top) return m;
      const nw = no >>> 5;
      if (nw !== w) { w = nw; word = bits[w]!; }
      word &= -1 << (no & 31);
    }
  }
}

/** Runs of consecutive rows in the ascending selection sel[0..m). */
function runsOf(sel: Int32Array, m: number): number {
  let runs = m > 0 ? 1 : 0;
  for (let k = 1; k < m; k++) if (sel[k] !== sel[k - 1]! + 1) runs++;
  return runs;
}

/** Bitmap test of rows 0..n−1 of v (span = max − min): writes kept rows to sel, returns their number. */
function bitmapAll(v: Int32Array, n: number, min: number, span: number, bits: Int32Array, sel: Int32Array): number {
  let m = 0;
  for (let i0 = 0; i0 < n; i0 += 32) {
    const i1 = Math.min(n, i0 + 32);
    let w = 0;
    for (let i = i0; i < i1; i++) {
      const o = v[i]! - min;
      if (o < 0 || o > span) continue;
      w |= ((bits[o >>> 5]! >>> o) & 1) << (i - i0); // a shift count is taken mod 32: o & 31
    }
    if (w !== 0) m = emitMask(w, i0, sel, m);
  }
  return m;
}

/** bitmapAll over the rows from[0..n). */
function bitmapFrom(v: Int32Array, from: Int32Array, n: number, min: number, span: number, bits: Int32Array, sel: Int32Array): number {
  let m = 0;
  for (let k0 = 0; k0 < n; k0 += 32) {
    const k1 = Math.min(n, k0 + 32);
    let w = 0;
    for (let k = k0; k < k1; k++) {
      const o = v[from[k]!]! - min;
      if (o < 0 || o > span) continue;
      w |= ((bits[o >>> 5]! >>> o) & 1) << (k - k0);
    }
    if (w !== 0) m = emitMaskFrom(w, from, k0, sel, m);
  }
  return m;
}

/** Bloom test (two bits) of rows 0..n−1 of v, or of rows from[0..n). */
function bloomSelect(v: Int32Array, from: Int32Array | null, n: number, min: number, max: number, bits: Int32Array, mask: number, sel: Int32Array): number {
  let m = 0;
  for (let k0 = 0; k0 < n; k0 += 32) {
    const k1 = Math.min(n, k0 + 32);
    let w = 0;
    for (let k = k0; k < k1; k++) {
      const x = v[from === null ? k : from[k]!]!;
      if (x < min || x > max) continue;
      const h1 = hash1i(x) & mask;
      const h2 = hash2i(x) & mask;
      w |= ((bits[h1 >>> 5]! >>> h1) & (bits[h2 >>> 5]! >>> h2) & 1) << (k - k0);
    }
    if (w !== 0) m = from === null ? emitMask(w, k0, sel, m) : emitMaskFrom(w, from, k0, sel, m);
  }
  return m;
}

/** The distinct values of `keys`, ascending. */
function distinctSorted(keys: Float64Array): Float64Array {
  const s = Float64Array.from(keys).sort();
  let m = 0;
  for (let i = 0; i < s.length; i++) if (m === 0 || s[i] !== s[m - 1]) s[m++] = s[i]!;
  return s.subarray(0, m);
}

function eachKey(d: Data, f: (x: number) => void): void {
  const v = d.values as Int32Array | BigInt64Array;
  const nulls = d.nullCount > 0;
  const n = d.length;
  if (v instanceof Int32Array && !nulls) { for (let i = 0; i < n; i++) f(v[i]!); return; }
  for (let i = 0; i < n; i++) {
    if (nulls && !d.getValid(i)) continue;
    f(Number(v[i]!));
  }
}

/** Two independent 32-bit hashes of an integer (its low and high 32-bit halves mixed). */
function hash1(x: number): number {
  const lo = x | 0;
  const hi = Math.floor(x / 4294967296) | 0;
  let h = Math.imul(lo ^ Math.imul(hi, 0x27d4eb2d), 0x9e3779b1);
  h ^= h >>> 15;
  return Math.imul(h, 0x85ebca6b) >>> 0;
}

/** hash1 of an int32 (its high half is its sign): no division. */
function hash1i(x: number): number {
  let h = Math.imul(x ^ Math.imul(x >> 31, 0x27d4eb2d), 0x9e3779b1);
  h ^= h >>> 15;
  return Math.imul(h, 0x85ebca6b) >>> 0;
}

/** hash2 of an int32. */
function hash2i(x: number): number {
  let h = Math.imul(x ^ 0x5bd1e995, 0xcc9e2d51) ^ Math.imul(x >> 31, 0x1b873593);
  h ^= h >>> 13;
  return Math.imul(h, 0xc2b2ae35) >>> 0;
}

function hash2(x: number): number {
  const lo = x | 0;
  const hi = Math.floor(x / 4294967296) | 0;
  let h = Math.imul(lo ^ 0x5bd1e995, 0xcc9e2d51) ^ Math.imul(hi, 0x1b873593);
  h ^= h >>> 13;
  return Math.imul(h, 0xc2b2ae35) >>> 0;
}

/**
 * A bit array of at least `words` 32-bit words, the first `words` zeroed (from the thread's scratch pool:
 * a filter's bits live for one run; the tests read only words below `words`).
 */
function zeroedWords(words: number): Int32Array {
  const a = takeScratch(Int32Array, words);
  a.fill(0, 0, words);
  return a;
}

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
import { popcount } from './bitmap.js';
import { giveArray, takeScratch } from './buffer-pool.js';
import { searchSelect } from './key-search.js';
import { sortedAscending } from './sorted-column.js';
import { bitmapAll, bitmapBranch, bitmapFrom, bitmapSorted, bloomSelect, runsOf } from './key-filter-loops.js';

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
    // Only the bitmap's own max − min + 1 bits: the pooled word array may be longer, its tail stale (zeroedWords).
    const bits = this.bits;
    return popcount(new Uint8Array(bits.buffer, bits.byteOffset, bits.byteLength), this.max - this.min + 1) === this.keyRows;
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

/** Two independent 32-bit hashes of an integer (its low and high 32-bit halves mixed; key-filter-loops.ts has them for int32s). */
function hash1(x: number): number {
  const lo = x | 0;
  const hi = Math.floor(x / 4294967296) | 0;
  let h = Math.imul(lo ^ Math.imul(hi, 0x27d4eb2d), 0x9e3779b1);
  h ^= h >>> 15;
  return Math.imul(h, 0x85ebca6b) >>> 0;
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

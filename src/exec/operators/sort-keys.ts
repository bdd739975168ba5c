/**
 * Sort keys on typed arrays: each key column becomes one comparable array
 * (Int32 values or ranks, Float64 values, or BigInt64 when 64-bit values are
 * not exact as doubles) plus a NULL mask, and a comparator over row indexes is
 * composed per key type. VARCHAR keys compare by rank in UTF-8 byte order
 * (= code point order): Utf8 columns through a string interner, dictionary
 * columns by ranking the dictionary once.
 */
import { Type, type Data, type Utf8 } from 'apache-arrow';
import type { SortKey } from '../../relnode/rel.js';
import { dictionaryValues } from '../batch-concat.js';
import { compareDoubles } from '../kernels/float-order.js';
import { allRows } from '../kernels/selection.js';
import { StringInterner } from '../kernels/hash-interner.js';
import { radixPermutation } from './sort-radix.js';
import { packKeys } from './sort-pack.js';
import { packedMap } from '../packed.js';

/** One key column in comparable form. */
export interface NormalizedKey {
  readonly values: Int32Array | Float64Array | BigInt64Array;
  /** 1 = NULL, or null when no row is NULL. */
  readonly nulls: Uint8Array | null;
  /** Float64 values containing NaN (compared as the largest value). */
  readonly hasNaN: boolean;
}

function nullMask(d: Data): Uint8Array | null {
  const n = d.length;
  if (d.typeId === Type.Null) return new Uint8Array(n).fill(1);
  if (d.nullCount === 0) return null;
  const bm = d.nullBitmap!;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) { const b = d.offset + i; if (((bm[b >> 3]! >> (b & 7)) & 1) === 0) out[i] = 1; }
  return out;
}

/** Dense ranks of dictionary entries in byte order (equal strings share a rank). */
export function dictionaryDenseRanks(dict: Data<Utf8>): Int32Array {
  const offs = dict.valueOffsets;
  const bytes = dict.values;
  const n = dict.length;
  const cmp = (x: number, y: number): number => {
    const sx = offs[x]!; const lx = offs[x + 1]! - sx;
    const sy = offs[y]!; const ly = offs[y + 1]! - sy;
    const m = lx < ly ? lx : ly;
    for (let k = 0; k < m; k++) { const d = bytes[sx + k]! - bytes[sy + k]!; if (d !== 0) return d; }
    return lx - ly;
  };
  const order = Array.from({ length: n }, (_, k) => k).sort(cmp);
  const rank = new Int32Array(n);
  let r = 0;
  for (let k = 0; k < n; k++) {
    if (k > 0 && cmp(order[k - 1]!, order[k]!) !== 0) r++;
    rank[order[k]!] = r;
  }
  return rank;
}

/** Up to this many VARCHAR rows are ranked by a comparison sort (n log n byte compares) rather than interned. */
const SMALL_UTF8_ROWS = 16;

/** The comparable form of one key column. */
export function normalizeKey(d: Data): NormalizedKey {
  const n = d.length;
  const nulls = nullMask(d);
  switch (d.typeId) {
    case Type.Null: return { values: new Int32Array(n), nulls, hasNaN: false };
    case Type.Bool: {
      const v = new Int32Array(n);
      const bits = d.values as Uint8Array;
      for (let i = 0; i < n; i++) { const b = d.offset + i; v[i] = (bits[b >> 3]! >> (b & 7)) & 1; }
      return { values: v, nulls, hasNaN: false };
    }
    case Type.Utf8: {
      // A few rows (a small query's ORDER BY): rank them by comparing bytes, without an interner's tables.
      if (n <= SMALL_UTF8_ROWS) return { values: dictionaryDenseRanks(d as Data<Utf8>), nulls, hasNaN: false };
      const interner = new StringInterner();
      const ids = new Int32Array(n);
      const offs = d.valueOffsets as Int32Array;
      const bytes = d.values as Uint8Array;
      for (let i = 0; i < n; i++) ids[i] = interner.intern(bytes, offs[i]!, offs[i + 1]!, true);
      const rank = interner.ranks();
      for (let i = 0; i < n; i++) ids[i] = rank[ids[i]!]!;
      return { values: ids, nulls, hasNaN: false };
    }
    case Type.Dictionary: {
      const rank = dictionaryDenseRanks(dictionaryValues(d));
      const codes = d.values as Int32Array;
      const v = new Int32Array(n);
      for (let i = 0; i < n; i++) { const c = codes[i]!; v[i] = c >= 0 && c < rank.length ? rank[c]! : 0; }
      return { values: v, nulls, hasNaN: false };
    }
    default: {
      const v = d.values as unknown;
      if (v instanceof Int32Array) return { values: v.subarray(0, n), nulls, hasNaN: false };
      if (v instanceof Float64Array) {
        let hasNaN = false;
        for (let i = 0; i < n; i++) if (v[i] !== v[i]) { hasNaN = true; break; }
        return { values: v.subarray(0, n), nulls, hasNaN };
      }
      if (v instanceof BigInt64Array) {
        // Doubles when every value is exact as a double (|v| < 2^53): read as (lo, hi) words.
        const w = new Int32Array(v.buffer, v.byteOffset, 2 * n);
        let safe = true;
        for (let i = 0; i < n; i++) { const hi = w[2 * i + 1]!; if (hi < -0x200000 || hi >= 0x200000) { safe = false; break; } }
        if (!safe) return { values: v.subarray(0, n), nulls, hasNaN: false };
        const f = new Float64Array(n);
        for (let i = 0; i < n; i++) f[i] = w[2 * i + 1]! * 4294967296 + (w[2 * i]! >>> 0);
        return { values: f, nulls, hasNaN: false };
      }
      const f = Float64Array.from(v as ArrayLike<number>);
      return { values: f.subarray(0, n), nulls, hasNaN: false };
    }
  }
}

type Cmp = (a: number, b: number) => number;

/** How a key's values compare: Int32 or Float64 values without NaN (a difference), Float64 with NaN, BigInt64. */
const BY_DIFFERENCE = 0;
const BY_DOUBLE_ORDER = 1;
const BY_BIGINT = 2;

/** One sort key as the comparator reads it (one shape for every key type). */
interface OrderKey {
  readonly how: number;
  readonly values: Int32Array | Float64Array | BigInt64Array;
  readonly nulls: Uint8Array | null;
  /** 1 ascending, -1 descending. */
  readonly dir: number;
  /** What a NULL row compares as against a non-NULL one: -1 NULLS FIRST, 1 NULLS LAST. */
  readonly nullSide: number;
}

function orderKey(key: SortKey, k: NormalizedKey): OrderKey {
  const how = k.values instanceof BigInt64Array ? BY_BIGINT : k.hasNaN ? BY_DOUBLE_ORDER : BY_DIFFERENCE;
  return { how, values: k.values, nulls: k.nulls, dir: key.desc ? -1 : 1, nullSide: key.nullsFirst ? -1 : 1 };
}

function compareValues(k: OrderKey, a: number, b: number): number {
  const v = k.values;
  // Int32 differences are exact; Float64 without NaN: ∞ − ∞ = NaN counts as equal (|| falls through).
  if (k.how === BY_DIFFERENCE) return ((v as Int32Array | Float64Array)[a]! - (v as Int32Array | Float64Array)[b]!) || 0;
  if (k.how === BY_DOUBLE_ORDER) return compareDoubles((v as Float64Array)[a]!, (v as Float64Array)[b]!); // NaN is the largest value
  const x = (v as BigInt64Array)[a]!; const y = (v as BigInt64Array)[b]!;
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Rows a and b in the order of `keys`, ties broken by row index (stable).
 *
 * Why module functions over an array of keys rather than a closure composed per key: a closure made
 * per query holds its optimized code only through its shared feedback vector, and some major GCs drop
 * it: TPC-H Q3's three comparator closures were compiled again by TurboFan in 3 of its first 9 runs
 * with no deopt (issue #10; kernels/kernel-cache.ts). These functions live as long as the module.
 */
function compareRows(keys: readonly OrderKey[], a: number, b: number): number {
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const nulls = k.nulls;
    if (nulls !== null) {
      const na = nulls[a]!; const nb = nulls[b]!;
      if (na | nb) {
        if (na === nb) continue;
        return na ? k.nullSide : -k.nullSide;
      }
    }
    const c = compareValues(k, a, b);
    if (c !== 0) return k.dir * c;
  }
  return a - b;
}

/**
 * A row comparator for the sort keys over normalized columns; ties break by row index (stable).
 *
 * Why `compareRows` bound to the keys rather than a closure `(a, b) => compareRows(order, a, b)`: the
 * closure was a new function per sort, compiled by TurboFan (with compareRows inlined) and dropped again
 * (TPC-H Q3 at parallelism 1 compiled it once per timed run: bench/deopt-runs.ts). A bound function has no
 * code of its own: the sort calls compareRows, whose optimized code lives as long as the module. The cost
 * per comparison measured the same (a 200k-row two-key sort, CPU time, interleaved).
 */
export function rowComparator(keys: readonly SortKey[], cols: readonly NormalizedKey[]): Cmp {
  const order: OrderKey[] = [];
  for (let i = 0; i < keys.length; i++) order.push(orderKey(keys[i]!, cols[i]!));
  return compareRows.bind(undefined, order);
}

/** The ascending key a packed key (sort-pack.ts) sorts by. */
export const ASC: SortKey = { index: 0, desc: false, nullsFirst: false };

/** The sorted permutation of rows [0, n) of the key columns. */
export function sortPermutation(keys: readonly SortKey[], keyCols: readonly Data[], n: number): Int32Array {
  // The identity as a leaf (allRows): with this loop in its body, V8 compiled sortPermutation by
  // on-stack replacement with the key normalization and radix sort inlined (issue #10).
  const perm = allRows(n);
  if (keys.length === 0 || n < 2) return perm;
  const norm = packedMap(keyCols, (c) => normalizeKey(c));
  // Several integral keys whose ranges multiply below 2^53: one packed key (sort-pack.ts).
  const packed = keys.length > 1 ? packKeys(keys, norm, n) : undefined;
  const first = packed ?? norm[0]!;
  // One numeric key (values, ranks, or 64-bit values exact as doubles): a stable radix sort.
  if ((packed !== undefined || keys.length === 1) && n >= 1024 && !(first.values instanceof BigInt64Array)) return radixPermutation(first, packed ? false : keys[0]!.desc, packed ? false : keys[0]!.nullsFirst, n);
  return packed ? perm.sort(rowComparator([ASC], [packed])) : perm.sort(rowComparator(keys, norm));
}

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

function valueCmp(k: NormalizedKey): Cmp {
  const v = k.values;
  if (v instanceof BigInt64Array) return (a, b) => (v[a]! < v[b]! ? -1 : v[a]! > v[b]! ? 1 : 0);
  if (k.hasNaN) {
    const f = v as Float64Array;
    return (a, b) => compareDoubles(f[a]!, f[b]!); // NaN is the largest value
  }
  const nv = v as Int32Array | Float64Array;
  // Int32 differences are exact; Float64 without NaN: ∞ − ∞ = NaN counts as equal (|| falls through).
  return (a, b) => nv[a]! - nv[b]! || 0;
}

/** A row comparator for the sort keys over normalized columns; ties break by row index (stable). */
export function rowComparator(keys: readonly SortKey[], cols: readonly NormalizedKey[]): Cmp {
  const parts: Cmp[] = packedMap(keys, (key, i): Cmp => {
    const k = cols[i]!;
    const base = valueCmp(k);
    const dir = key.desc ? -1 : 1;
    const nulls = k.nulls;
    if (nulls === null) return key.desc ? (a, b) => -base(a, b) : base;
    const nullSide = key.nullsFirst ? -1 : 1;
    return (a, b) => {
      const na = nulls[a]!; const nb = nulls[b]!;
      if (na | nb) return na === nb ? 0 : na ? nullSide : -nullSide;
      return dir * base(a, b);
    };
  });
  if (parts.length === 1) {
    const p = parts[0]!;
    return (a, b) => p(a, b) || a - b;
  }
  return (a, b) => {
    for (let i = 0; i < parts.length; i++) { const c = parts[i]!(a, b); if (c !== 0) return c; }
    return a - b;
  };
}

/** The ascending key a packed key (sort-pack.ts) sorts by. */
export const ASC: SortKey = { index: 0, desc: false, nullsFirst: false };

/** The sorted permutation of rows [0, n) of the key columns. */
export function sortPermutation(keys: readonly SortKey[], keyCols: readonly Data[], n: number): Int32Array {
  const perm = new Int32Array(n);
  for (let i = 0; i < n; i++) perm[i] = i;
  if (keys.length === 0 || n < 2) return perm;
  const norm = packedMap(keyCols, (c) => normalizeKey(c));
  // Several integral keys whose ranges multiply below 2^53: one packed key (sort-pack.ts).
  const packed = keys.length > 1 ? packKeys(keys, norm, n) : undefined;
  const first = packed ?? norm[0]!;
  // One numeric key (values, ranks, or 64-bit values exact as doubles): a stable radix sort.
  if ((packed !== undefined || keys.length === 1) && n >= 1024 && !(first.values instanceof BigInt64Array)) return radixPermutation(first, packed ? false : keys[0]!.desc, packed ? false : keys[0]!.nullsFirst, n);
  return packed ? perm.sort(rowComparator([ASC], [packed])) : perm.sort(rowComparator(keys, norm));
}

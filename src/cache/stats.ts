/**
 * Per-batch statistics of cached data (min, max and null count per column)
 * and the pruning test: a batch is skipped when its statistics prove a
 * pushed-down conjunct FALSE or NULL for every row. Strings compare by UTF-8
 * bytes (code-point order), like the comparison kernels; numbers by the
 * total order of float-order.ts. A batch holding a NaN has no numeric bounds
 * (never skipped by them), and a NaN literal compares above every bound.
 */
import { Type, type Data, type RecordBatch } from 'apache-arrow';
import { int32MinMax } from '../exec/kernels/column.js';
import { compareBytes, decodeUtf8, strView } from '../exec/kernels/utf8.js';
import { fixedBlockStats, type ColumnStats, type FixedBlockStats } from '../io/prune.js';

// The pruning test lives in io/prune.ts (file sources prune Parquet row groups with it too).
export { canSkipBlock, provablyFalse, provablyTrue, type BlockStats, type ColumnStats, type FixedBlockStats, type StatValue } from '../io/prune.js';

/** Computes the statistics of every column of a batch now (one pass over each column). */
export function blockStats(batch: RecordBatch): FixedBlockStats {
  return fixedBlockStats(batch.numRows, batch.data.children.map(columnStats));
}

function nullsOf(d: Data): number {
  return d.typeId === Type.Null ? d.length : d.nullCount;
}

/** Min, max and null count of one column (one pass over its values; a dictionary's used entries once). */
export function columnStats(d: Data): ColumnStats {
  const nullCount = nullsOf(d);
  if (nullCount >= d.length) return { nullCount };
  switch (d.typeId) {
    case Type.Int: case Type.Float: case Type.Date: case Type.Timestamp: {
      const mm = numericMinMax(d, nullCount > 0);
      if (mm === undefined) return { nullCount };
      const conv = d.typeId === Type.Timestamp ? (v: number | bigint) => Number(v) : (v: number | bigint) => v;
      return { nullCount, min: conv(mm[0]), max: conv(mm[1]) };
    }
    case Type.Bool: return { nullCount, ...boolMinMax(d, nullCount > 0) };
    case Type.Utf8: case Type.Dictionary: return { nullCount, ...stringMinMax(d) };
    default: return { nullCount };
  }
}

function valid(bm: Uint8Array, offset: number, i: number): boolean {
  const b = offset + i;
  return ((bm[b >> 3]! >> (b & 7)) & 1) === 1;
}

/** Min and max of a numeric column (undefined when a NaN makes the order unclear). */
function numericMinMax(d: Data, nullable: boolean): [number | bigint, number | bigint] | undefined {
  const v = d.values as ArrayLike<number | bigint>;
  const n = d.length;
  const bm = d.nullBitmap;
  if (!nullable || !bm || bm.length === 0) {
    // No NULLs: one monomorphic loop per array kind (the shared loop below sees number and bigint elements alike).
    if (v instanceof Float64Array) return floatMinMax(v, n);
    if (v instanceof Int32Array) return int32MinMax(v, n);
    if (v instanceof BigInt64Array) return bigMinMax(v, n);
  }
  let min: number | bigint | undefined;
  let max: number | bigint | undefined;
  if (!nullable || !bm || bm.length === 0) {
    // Other array kinds without NULLs: the plain loop.
    min = v[0]!; max = v[0]!;
    for (let i = 1; i < n; i++) { const x = v[i]!; if (x < min) min = x; else if (x > max) max = x; }
  } else {
    for (let i = 0; i < n; i++) {
      if (!valid(bm, d.offset, i)) continue;
      const x = v[i]!;
      if (min === undefined || x < min) min = x;
      if (max === undefined || x > max) max = x;
    }
  }
  if (min === undefined || max === undefined) return undefined;
  if (typeof min === 'number' && (Number.isNaN(min) || Number.isNaN(max as number) || hasNaN(v, n))) return undefined;
  return [min, max];
}

/** DOUBLE without NULLs; a NaN anywhere makes the bounds unknown (Math.min/max propagate it). */
function floatMinMax(v: Float64Array, n: number): [number, number] | undefined {
  let min = v[0]!;
  let max = min;
  for (let i = 1; i < n; i++) { const x = v[i]!; min = Math.min(min, x); max = Math.max(max, x); }
  return min !== min ? undefined : [min, max];
}

/** BIGINT and TIMESTAMP without NULLs. */
function bigMinMax(v: BigInt64Array, n: number): [bigint, bigint] {
  let min = v[0]!;
  let max = min;
  for (let i = 1; i < n; i++) { const x = v[i]!; if (x < min) min = x; else if (x > max) max = x; }
  return [min, max];
}

function hasNaN(v: ArrayLike<number | bigint>, n: number): boolean {
  if (!(v instanceof Float64Array) && !(v instanceof Float32Array)) return false;
  for (let i = 0; i < n; i++) if (v[i] !== v[i]) return true;
  return false;
}

function boolMinMax(d: Data, nullable: boolean): { min?: boolean; max?: boolean } {
  const bits = d.values as Uint8Array;
  const bm = d.nullBitmap;
  let anyTrue = false;
  let anyFalse = false;
  for (let i = 0; i < d.length && !(anyTrue && anyFalse); i++) {
    if (nullable && bm && bm.length > 0 && !valid(bm, d.offset, i)) continue;
    const b = d.offset + i;
    if ((bits[b >> 3]! >> (b & 7)) & 1) anyTrue = true; else anyFalse = true;
  }
  if (!anyTrue && !anyFalse) return {};
  return { min: !anyFalse, max: anyTrue };
}

/** Min and max by UTF-8 bytes; for a dictionary column, over the entries its rows use. */
function stringMinMax(d: Data): { min?: string; max?: string } {
  const s = strView(d);
  const { offsets, bytes } = s.entries;
  let lo = -1;
  let hi = -1;
  const consider = (k: number): void => {
    if (lo < 0) { lo = k; hi = k; return; }
    const s0 = offsets[k]!, e0 = offsets[k + 1]!;
    if (compareBytes(bytes, s0, e0, bytes, offsets[lo]!, offsets[lo + 1]!) < 0) lo = k;
    else if (compareBytes(bytes, s0, e0, bytes, offsets[hi]!, offsets[hi + 1]!) > 0) hi = k;
  };
  const rowValid = s.valid;
  if (s.codes === null) {
    for (let i = 0; i < s.n; i++) if (rowValid === null || ((rowValid[i >> 3]! >> (i & 7)) & 1)) consider(i);
  } else {
    // Each used dictionary entry once; the scan stops once every entry was seen (a small
    // dictionary such as TPC-H's flags and segments is complete after a few dozen rows, so a
    // block's four such columns no longer cost a pass over all their codes: ~40 of ~85 ms for
    // the suite's `j`, bench/cache-build.ts).
    const count = s.entries.count;
    const seen = new Uint8Array(count);
    const codes = s.codes;
    let left = count;
    for (let i = 0; i < s.n && left > 0; i++) {
      if (rowValid !== null && !((rowValid[i >> 3]! >> (i & 7)) & 1)) continue;
      const c = codes[i]!;
      if (seen[c] === 0) { seen[c] = 1; left--; consider(c); }
    }
  }
  if (lo < 0) return {};
  return { min: decodeUtf8(bytes, offsets[lo]!, offsets[lo + 1]!), max: decodeUtf8(bytes, offsets[hi]!, offsets[hi + 1]!) };
}


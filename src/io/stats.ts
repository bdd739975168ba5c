/**
 * Table statistics for cardinality estimation: a row count and, per column, min, max, null count
 * and a distinct count (HyperLogLog). A source exposes them through `TableSource.statistics()`;
 * every table version is its own source object, so statistics cached on the source are cached per
 * version and an INSERT or a replaced table never sees old numbers.
 *
 * In-memory data: each column is computed lazily on its first request, in one pass over the
 * batches reading the typed arrays directly (a query that estimates two join keys pays for two
 * columns, not for every comment string of lineitem). Files (Parquet) report what their metadata
 * has; a column without a figure leaves it undefined and the estimator uses its defaults.
 */
import * as arrow from 'apache-arrow';
import { HyperLogLog, hash32, hashBytes, hashNumber } from '../exec/kernels/hyperloglog.js';

/** What is known about one column; every figure is optional. min/max are numbers (DATE: days, TIMESTAMP: ms) or strings. */
export interface ColumnStatistics {
  readonly min?: number | string;
  readonly max?: number | string;
  readonly nullCount?: number;
  /** Estimated number of distinct non-NULL values. */
  readonly distinct?: number;
}

/** Statistics of one table version. */
export interface TableStatistics {
  readonly rowCount: number;
  /** Statistics of column `i` of the source schema (computed on first request for in-memory data). */
  column(i: number): ColumnStatistics;
}

/** Statistics over in-memory batches, each column computed once on first request. */
export function batchStatistics(batches: readonly arrow.RecordBatch[]): TableStatistics {
  const rowCount = batches.reduce((n, b) => n + b.numRows, 0);
  const cache = new Map<number, ColumnStatistics>();
  return {
    rowCount,
    column(i) {
      let s = cache.get(i);
      if (s === undefined) {
        s = columnStatistics(batches.map((b) => b.data.children[i]!).filter((d) => d !== undefined));
        cache.set(i, s);
      }
      return s;
    },
  };
}

/** Statistics from fixed figures (file metadata). */
export function fixedStatistics(rowCount: number, columns: readonly ColumnStatistics[]): TableStatistics {
  return { rowCount, column: (i) => columns[i] ?? {} };
}

function isValid(bitmap: Uint8Array | null | undefined, i: number): boolean {
  return bitmap == null || (bitmap[i >> 3]! & (1 << (i & 7))) !== 0;
}

/** One pass over a column's chunks: min, max, nulls, distinct sketch. */
export function columnStatistics(chunks: readonly arrow.Data[]): ColumnStatistics {
  const hll = new HyperLogLog();
  let nulls = 0;
  let min: number | string | undefined;
  let max: number | string | undefined;
  let sawBool = false;
  for (const d of chunks) {
    nulls += d.nullCount;
    const bm = d.nullCount > 0 ? d.nullBitmap : null;
    const t = d.type as arrow.DataType;
    if (arrow.DataType.isDictionary(t)) {
      const dict = (d as arrow.Data<arrow.Dictionary>).dictionary?.data[0] as arrow.Data | undefined;
      if (dict === undefined) continue;
      const ds = stringHashes(dict);
      const idx = d.values as Int32Array;
      const used = new Uint8Array(ds.hashes.length);
      for (let i = 0; i < d.length; i++) if (isValid(bm, d.offset + i)) used[idx[i]!] = 1;
      for (let k = 0; k < used.length; k++) {
        if (!used[k]) continue;
        hll.add(ds.hashes[k]!);
        const s = ds.text(k);
        if (min === undefined || s < (min as string)) min = s;
        if (max === undefined || s > (max as string)) max = s;
      }
    } else if (arrow.DataType.isUtf8(t)) {
      const offs = d.valueOffsets as Int32Array;
      const bytes = d.values as Uint8Array;
      let minI = -1, maxI = -1;
      for (let i = 0; i < d.length; i++) {
        if (!isValid(bm, d.offset + i)) continue;
        const a = offs[i]!, z = offs[i + 1]!;
        hll.add(hashBytes(bytes, a, z));
        if (minI < 0 || compareBytes(bytes, a, z, offs[minI]!, offs[minI + 1]!) < 0) minI = i;
        if (maxI < 0 || compareBytes(bytes, a, z, offs[maxI]!, offs[maxI + 1]!) > 0) maxI = i;
      }
      if (minI >= 0) {
        const dec = new TextDecoder();
        const lo = dec.decode(bytes.subarray(offs[minI]!, offs[minI + 1]!));
        const hi = dec.decode(bytes.subarray(offs[maxI]!, offs[maxI + 1]!));
        if (min === undefined || lo < (min as string)) min = lo;
        if (max === undefined || hi > (max as string)) max = hi;
      }
    } else if (arrow.DataType.isBool(t)) {
      sawBool = true;
    } else {
      const v = d.values as Int32Array | Float64Array | BigInt64Array | undefined;
      if (v === undefined) continue;
      let lo = Infinity, hi = -Infinity;
      const big = v instanceof BigInt64Array;
      const int = v instanceof Int32Array;
      for (let i = 0; i < d.length; i++) {
        if (bm !== null && !isValid(bm, d.offset + i)) continue;
        const x = big ? Number(v[i] as bigint) : (v[i] as number);
        if (Number.isNaN(x)) continue;
        hll.add(int ? hash32(x) : hashNumber(x));
        if (x < lo) lo = x;
        if (x > hi) hi = x;
      }
      if (lo <= hi) {
        if (min === undefined || lo < (min as number)) min = lo;
        if (max === undefined || hi > (max as number)) max = hi;
      }
    }
  }
  const rows = chunks.reduce((n, d) => n + d.length, 0);
  const distinct = sawBool ? Math.min(2, rows - nulls) : Math.min(Math.round(hll.estimate()), rows - nulls);
  return { nullCount: nulls, distinct, ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) };
}

function compareBytes(b: Uint8Array, a0: number, a1: number, c0: number, c1: number): number {
  const n = Math.min(a1 - a0, c1 - c0);
  for (let i = 0; i < n; i++) {
    const d = b[a0 + i]! - b[c0 + i]!;
    if (d !== 0) return d;
  }
  return (a1 - a0) - (c1 - c0);
}

/** Hashes of a Utf8 dictionary's entries, and their text on demand. */
function stringHashes(dict: arrow.Data): { hashes: Uint32Array; text: (k: number) => string } {
  const offs = dict.valueOffsets as Int32Array;
  const bytes = dict.values as Uint8Array;
  const hashes = new Uint32Array(dict.length);
  for (let k = 0; k < dict.length; k++) hashes[k] = hashBytes(bytes, offs[k]!, offs[k + 1]!);
  const dec = new TextDecoder();
  return { hashes, text: (k) => dec.decode(bytes.subarray(offs[k]!, offs[k + 1]!)) };
}

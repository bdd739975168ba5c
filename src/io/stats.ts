/**
 * Table statistics for cardinality estimation: a row count and, per column, min, max, null count
 * and a distinct count (HyperLogLog). A source exposes them through `TableSource.statistics()`;
 * every table version is its own source object, so statistics cached on the source are cached per
 * version and an INSERT or a replaced table never sees old numbers.
 *
 * In-memory data: each column is computed lazily on its first request, in one pass over the
 * batches reading the typed arrays directly (a query that estimates two join keys pays for two
 * columns, not for every comment string of lineitem); each chunk's share is remembered per Arrow
 * Data object, so the same batches registered in another environment cost no second pass. Files (Parquet) report what their metadata
 * has; a column without a figure leaves it undefined and the estimator uses its defaults.
 */
import * as arrow from 'apache-arrow';
import { HLL_M, hash32, hashBytes, hashNumber, hllAdd, hllEstimate } from '../exec/kernels/hyperloglog.js';
import { columnIsUnique } from './unique.js';

/** What is known about one column; every figure is optional. min/max are numbers (DATE: days, TIMESTAMP: ms) or strings. */
export interface ColumnStatistics {
  readonly min?: number | string;
  readonly max?: number | string;
  readonly nullCount?: number;
  /** Estimated number of distinct non-NULL values. */
  readonly distinct?: number;
  /**
   * Mean bytes (UTF-8) of a row's value, for a VARCHAR column stored as plain strings (not a dictionary):
   * what a string pattern scans per row (planner/ship-cost.ts). From the offsets, no pass over the values.
   */
  readonly avgBytes?: number;
}

/** Statistics of one table version. */
export interface TableStatistics {
  readonly rowCount: number;
  /** Statistics of column `i` of the source schema (computed on first request for in-memory data). */
  column(i: number): ColumnStatistics;
  /**
   * True only when column `i` is proven to hold no NULL and no value twice (exact, not a sketch: the
   * planner drops GROUP BY keys such a column determines, planner/functional-deps.ts). Undefined or
   * false when unknown; computed on first request (unique.ts).
   */
  unique?(i: number): boolean;
}

/**
 * Up to this many rows a table's column statistics are exact, from its values, without a sketch:
 * a sketch's 2 KiB of registers per chunk, their merge and the estimate's pass over them cost more
 * than a few rows (a worker stage's result of 1–12 rows at parallelism 2 paid ~0.3 ms per TPC-H Q1
 * run for 8 columns, and deoptimized the sketch's pass with its mix of column types).
 */
export const EXACT_STATISTICS_ROWS = 64;

/** Statistics over in-memory batches, each column computed once on first request. */
export function batchStatistics(batches: readonly arrow.RecordBatch[]): TableStatistics {
  const rowCount = batches.reduce((n, b) => n + b.numRows, 0);
  const cache = new Map<number, ColumnStatistics>();
  const uniques = new Map<number, boolean>();
  const stats: TableStatistics = {
    rowCount,
    column(i) {
      let s = cache.get(i);
      if (s === undefined) {
        const chunks = batches.map((b) => b.data.children[i]!).filter((d) => d !== undefined);
        s = rowCount <= EXACT_STATISTICS_ROWS ? exactStatistics(chunks) : columnStatistics(chunks);
        cache.set(i, s);
      }
      return s;
    },
    unique(i) {
      let u = uniques.get(i);
      if (u === undefined) {
        u = columnIsUnique(batches.map((b) => b.data.children[i]!).filter((d) => d !== undefined), rowCount, stats.column(i));
        uniques.set(i, u);
      }
      return u;
    },
  };
  return stats;
}

/** A few rows' statistics from their values: min, max and nulls as the sketch's pass finds them, the distinct count exact. */
export function exactStatistics(chunks: readonly arrow.Data[]): ColumnStatistics {
  let nulls = 0;
  let min: number | string | undefined;
  let max: number | string | undefined;
  const seen = new Set<number | string>();
  let bool = false;
  for (const d of chunks) {
    nulls += d.nullCount;
    const bm = d.nullCount > 0 ? d.nullBitmap : null;
    const t = d.type as arrow.DataType;
    if (arrow.DataType.isBool(t)) { bool = true; continue; }
    const value = valueReader(d, t);
    if (value === undefined) continue;
    for (let i = 0; i < d.length; i++) {
      if (bm !== null && !isValid(bm, d.offset + i)) continue;
      const x = value(i);
      if (x !== x) continue; // NaN, as the sketch's pass skips it
      seen.add(x);
      if (min === undefined || x < min) min = x;
      if (max === undefined || x > max) max = x;
    }
  }
  const rows = chunks.reduce((n, d) => n + d.length, 0);
  const distinct = bool ? Math.min(2, rows - nulls) : seen.size;
  return { nullCount: nulls, distinct, ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}), ...avgBytesOf(chunks, rows) };
}

/** `{ avgBytes }` over plain-string chunks (rows 0 … length − 1 of each: offsets, not values), or nothing for other columns. */
function avgBytesOf(chunks: readonly arrow.Data[], rows: number): { avgBytes?: number } {
  if (rows === 0 || chunks.length === 0 || !chunks.every((d) => arrow.DataType.isUtf8(d.type as arrow.DataType))) return {};
  let bytes = 0;
  for (const d of chunks) {
    const offs = d.valueOffsets as Int32Array;
    bytes += offs[d.length]! - offs[0]!;
  }
  return { avgBytes: bytes / rows };
}

/** Row i's value of a chunk as the statistics compare it (numbers, strings), or undefined for a type without figures. */
function valueReader(d: arrow.Data, t: arrow.DataType): ((i: number) => number | string) | undefined {
  if (arrow.DataType.isDictionary(t)) {
    const dict = (d as arrow.Data<arrow.Dictionary>).dictionary?.data[0] as arrow.Data | undefined;
    if (dict === undefined) return undefined;
    const text = stringHashes(dict).text;
    const idx = d.values as Int32Array;
    return (i) => text(idx[i]!);
  }
  if (arrow.DataType.isUtf8(t)) {
    const offs = d.valueOffsets as Int32Array;
    const bytes = d.values as Uint8Array;
    const dec = new TextDecoder();
    // JavaScript's string order is UTF-8's byte order but for characters past U+FFFF against U+E000–U+FFFF.
    return (i) => dec.decode(bytes.subarray(offs[i]!, offs[i + 1]!));
  }
  const v = d.values as Int32Array | Float64Array | BigInt64Array | undefined;
  if (v === undefined) return undefined;
  return v instanceof BigInt64Array ? (i) => Number(v[i]!) : (i) => v[i]!;
}

/** Statistics from fixed figures (file metadata). */
export function fixedStatistics(rowCount: number, columns: readonly ColumnStatistics[]): TableStatistics {
  return { rowCount, column: (i) => columns[i] ?? {} };
}

function isValid(bitmap: Uint8Array | null | undefined, i: number): boolean {
  return bitmap == null || (bitmap[i >> 3]! & (1 << (i & 7))) !== 0;
}

/** One pass over a column's chunks: min, max, nulls, distinct sketch (each chunk's part remembered, see chunkStatistics). */
export function columnStatistics(chunks: readonly arrow.Data[]): ColumnStatistics {
  const registers = new Uint8Array(HLL_M);
  let nulls = 0;
  let min: number | string | undefined;
  let max: number | string | undefined;
  let sawBool = false;
  for (const d of chunks) {
    const c = chunkStatistics(d);
    nulls += c.nulls;
    sawBool ||= c.bool;
    if (c.registers !== undefined) for (let k = 0; k < HLL_M; k++) if (c.registers[k]! > registers[k]!) registers[k] = c.registers[k]!;
    if (c.min !== undefined && (min === undefined || c.min < min)) min = c.min;
    if (c.max !== undefined && (max === undefined || c.max > max)) max = c.max;
  }
  const rows = chunks.reduce((n, d) => n + d.length, 0);
  const distinct = sawBool ? Math.min(2, rows - nulls) : Math.min(Math.round(hllEstimate(registers)), rows - nulls);
  return { nullCount: nulls, distinct, ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}), ...avgBytesOf(chunks, rows) };
}

/** One chunk's share of a column's statistics: its sketch registers (none when it has no values), min, max, nulls. */
interface ChunkStatistics {
  readonly registers: Uint8Array | undefined;
  readonly nulls: number;
  readonly min: number | string | undefined;
  readonly max: number | string | undefined;
  readonly bool: boolean;
}

/**
 * Each chunk's statistics, remembered per Arrow Data object (immutable in eddy): a table registered
 * in several environments (the benchmark's engines, tests, a new TableEnvironment per request)
 * pays for the pass once per process, not once per environment — the pass over lineitem's
 * columns was most of a cold TPC-H Q1's planning. 2 KiB of registers per chunk and column.
 */
const chunkMemo = new WeakMap<arrow.Data, ChunkStatistics>();

/** Chunk passes run so far (tests: a second environment over the same batches runs none). */
export const statisticsPasses = { chunks: 0 };

function chunkStatistics(d: arrow.Data): ChunkStatistics {
  let c = chunkMemo.get(d);
  if (c === undefined) {
    statisticsPasses.chunks++;
    c = computeChunk(d);
    chunkMemo.set(d, c);
  }
  return c;
}

function computeChunk(d: arrow.Data): ChunkStatistics {
  const nulls = d.nullCount;
  const bm = nulls > 0 ? d.nullBitmap : null;
  const t = d.type as arrow.DataType;
  const none: ChunkStatistics = { registers: undefined, nulls, min: undefined, max: undefined, bool: false };
  if (arrow.DataType.isBool(t)) return { ...none, bool: true };
  const registers = new Uint8Array(HLL_M);
  if (arrow.DataType.isDictionary(t)) {
    const dict = (d as arrow.Data<arrow.Dictionary>).dictionary?.data[0] as arrow.Data | undefined;
    if (dict === undefined) return none;
    const ds = stringHashes(dict);
    const idx = d.values as Int32Array;
    const used = new Uint8Array(ds.hashes.length);
    for (let i = 0; i < d.length; i++) if (isValid(bm, d.offset + i)) used[idx[i]!] = 1;
    let min: string | undefined;
    let max: string | undefined;
    for (let k = 0; k < used.length; k++) {
      if (!used[k]) continue;
      hllAdd(registers, ds.hashes[k]!);
      const s = ds.text(k);
      if (min === undefined || s < min) min = s;
      if (max === undefined || s > max) max = s;
    }
    return { registers, nulls, min, max, bool: false };
  }
  if (arrow.DataType.isUtf8(t)) {
    const offs = d.valueOffsets as Int32Array;
    const bytes = d.values as Uint8Array;
    // min/max compare whole strings only when the first byte ties (-1 stands for the empty string).
    let minI = -1, maxI = -1, minFirst = 256, maxFirst = -2;
    for (let i = 0; i < d.length; i++) {
      if (bm !== null && !isValid(bm, d.offset + i)) continue;
      const a = offs[i]!, z = offs[i + 1]!;
      hllAdd(registers, hashBytes(bytes, a, z));
      const f = z > a ? bytes[a]! : -1;
      if (f < minFirst || (f === minFirst && compareBytes(bytes, a, z, offs[minI]!, offs[minI + 1]!) < 0)) { minI = i; minFirst = f; }
      if (f > maxFirst || (f === maxFirst && compareBytes(bytes, a, z, offs[maxI]!, offs[maxI + 1]!) > 0)) { maxI = i; maxFirst = f; }
    }
    if (minI < 0) return { ...none, registers };
    const dec = new TextDecoder();
    return { registers, nulls, min: dec.decode(bytes.subarray(offs[minI]!, offs[minI + 1]!)), max: dec.decode(bytes.subarray(offs[maxI]!, offs[maxI + 1]!)), bool: false };
  }
  const v = d.values as Int32Array | Float64Array | BigInt64Array | undefined;
  if (v === undefined) return none;
  // One loop per array type: a per-row type test kept the generic loop several times slower.
  const r = v instanceof Int32Array ? int32Range(v, d.length, bm, d.offset, registers)
    : v instanceof Float64Array ? float64Range(v, d.length, bm, d.offset, registers)
    : bigRange(v as BigInt64Array, d.length, bm, d.offset, registers);
  return r.lo <= r.hi ? { registers, nulls, min: r.lo, max: r.hi, bool: false } : { ...none, registers };
}

function int32Range(v: Int32Array, n: number, bm: Uint8Array | null, offset: number, registers: Uint8Array): { lo: number; hi: number } {
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < n; i++) {
    if (bm !== null && !isValid(bm, offset + i)) continue;
    const x = v[i]!;
    hllAdd(registers, hash32(x));
    if (x < lo) lo = x;
    if (x > hi) hi = x;
  }
  return { lo, hi };
}

function float64Range(v: Float64Array, n: number, bm: Uint8Array | null, offset: number, registers: Uint8Array): { lo: number; hi: number } {
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < n; i++) {
    if (bm !== null && !isValid(bm, offset + i)) continue;
    const x = v[i]!;
    if (x !== x) continue;
    hllAdd(registers, hashNumber(x));
    if (x < lo) lo = x;
    if (x > hi) hi = x;
  }
  return { lo, hi };
}

function bigRange(v: BigInt64Array, n: number, bm: Uint8Array | null, offset: number, registers: Uint8Array): { lo: number; hi: number } {
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < n; i++) {
    if (bm !== null && !isValid(bm, offset + i)) continue;
    const x = Number(v[i]!);
    hllAdd(registers, hashNumber(x));
    if (x < lo) lo = x;
    if (x > hi) hi = x;
  }
  return { lo, hi };
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
  // A dictionary shared by every chunk of a column is hashed once, not once per chunk.
  let h = dictionaryMemo.get(dict);
  if (h === undefined) { h = hashDictionary(dict); dictionaryMemo.set(dict, h); }
  return h;
}

const dictionaryMemo = new WeakMap<arrow.Data, { hashes: Uint32Array; text: (k: number) => string }>();

function hashDictionary(dict: arrow.Data): { hashes: Uint32Array; text: (k: number) => string } {
  const offs = dict.valueOffsets as Int32Array;
  const bytes = dict.values as Uint8Array;
  const hashes = new Uint32Array(dict.length);
  for (let k = 0; k < dict.length; k++) hashes[k] = hashBytes(bytes, offs[k]!, offs[k + 1]!);
  const dec = new TextDecoder();
  return { hashes, text: (k) => dec.decode(bytes.subarray(offs[k]!, offs[k + 1]!)) };
}

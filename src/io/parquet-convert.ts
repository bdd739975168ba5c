/**
 * Which flat Parquet columns parquet-pages.ts decodes itself, and how their physical values become
 * eddy's canonical Arrow values — the same values hyparquet's `convert` plus parquet.ts's `fill`
 * produced before (DESIGN.md "Data model"): INT32 -> Int32 / Date32; INT64 -> Int64; INT64
 * timestamps -> Timestamp(ms) floored; DOUBLE and FLOAT -> Float64; DECIMAL on INT32 / INT64 ->
 * Float64 as unscaled / 10^scale (one correctly rounded division); BOOLEAN -> Bool; BYTE_ARRAY
 * text -> Utf8, bytes as stored. Anything else (INT96, FIXED_LEN_BYTE_ARRAY, unsigned 32/64-bit,
 * TIME, BSON, ...) returns no plan and keeps hyparquet's generic path in parquet.ts.
 *
 * Conversions write output "words" (Int32Array; two per 8-byte value) so the sinks move int64s
 * and doubles without BigInts; an int64 is split into its two 32-bit halves and rebuilt as a
 * double only when it is a safe integer (exact), else through BigInt.
 */
import * as arrow from 'apache-arrow';
import type { SchemaElement } from 'hyparquet';
import type { SqlType } from '../relnode/types.js';
import { floorDiv } from './canonical.js';
import { BoolSink, FixedSink, Utf8Sink, type ColumnSink } from './parquet-sinks.js';

/** How one physical type converts to a fixed-width output (see FixedSink). */
export interface PhysicalConversion {
  /** Bytes per PLAIN-encoded value. */
  readonly physicalWidth: number;
  /** Whether PLAIN bytes are already the output's layout (a byte copy). */
  readonly identity: boolean;
  /** Dense physical values (typed array or JS array) as dense output words. */
  toWords(values: ArrayLike<unknown>): Int32Array;
  /** `n` PLAIN values at bytes[pos, ...) as dense output words. */
  plainToWords(bytes: Uint8Array, pos: number, n: number): Int32Array;
}

/** The column facts a plan needs (parquet.ts's ParquetColumn has them). */
export interface FlatColumn {
  readonly type: SqlType;
  readonly decimalScale: number;
  readonly timeUnitMs: number;
}

/** Makes the sink of one column chunk: `rows` rows, `byteEstimate` = the chunk's uncompressed size. */
export type SinkFactory = (rows: number, byteEstimate: number) => ColumnSink;

const TWO_32 = 4294967296;
const SAFE_HI = 1 << 21; // |hi| < 2^21: hi * 2^32 + lo is a safe integer

/** `n` values of `width` bytes at bytes[pos, ...), copied when not aligned to 4 bytes, as words. */
function alignedWords(bytes: Uint8Array, pos: number, n: number, width: number): Int32Array {
  const at = bytes.byteOffset + pos;
  if (at % 4 === 0) return new Int32Array(bytes.buffer, at, (n * width) / 4);
  return new Int32Array(bytes.slice(pos, pos + n * width).buffer);
}

function int32Words(values: ArrayLike<unknown>): Int32Array {
  return values instanceof Int32Array ? values : Int32Array.from(values as ArrayLike<number>);
}

function int64Words(values: ArrayLike<unknown>): Int32Array {
  const b = values instanceof BigInt64Array ? values : BigInt64Array.from(values as ArrayLike<bigint>);
  return new Int32Array(b.buffer, b.byteOffset, 2 * b.length);
}

function doubleWords(values: ArrayLike<unknown>): Int32Array {
  const f = values instanceof Float64Array ? values : Float64Array.from(values as ArrayLike<number>);
  return new Int32Array(f.buffer, f.byteOffset, 2 * f.length);
}

const INT32: PhysicalConversion = { physicalWidth: 4, identity: true, toWords: int32Words, plainToWords: (b, p, n) => alignedWords(b, p, n, 4) };
const INT64: PhysicalConversion = { physicalWidth: 8, identity: true, toWords: int64Words, plainToWords: (b, p, n) => alignedWords(b, p, n, 8) };
const DOUBLE: PhysicalConversion = { physicalWidth: 8, identity: true, toWords: doubleWords, plainToWords: (b, p, n) => alignedWords(b, p, n, 8) };

const FLOAT: PhysicalConversion = {
  physicalWidth: 4,
  identity: false,
  toWords: (v) => doubleWords(Float64Array.from(v as ArrayLike<number>)),
  plainToWords: (b, p, n) => { const w = alignedWords(b, p, n, 4); return doubleWords(Float64Array.from(new Float32Array(w.buffer, w.byteOffset, n))); },
};

/**
 * Maps int64 words (into new words: the input may be the page itself) through `safe` (the value
 * as a number, when it is a safe integer) or `big` (as a bigint); the output is int64 or double words.
 */
function mapInt64(w: Int32Array, safe: (v: number) => number, big: (v: bigint) => number | bigint, outInt: boolean): Int32Array {
  const n = w.length >> 1;
  const out = new Int32Array(2 * n);
  const outF = outInt ? null : new Float64Array(out.buffer);
  const outB = outInt ? new BigInt64Array(out.buffer) : null;
  let bigView: BigInt64Array | null = null;
  for (let i = 0; i < n; i++) {
    const lo = w[2 * i]! >>> 0, hi = w[2 * i + 1]!;
    let r: number | bigint;
    if (hi < SAFE_HI && hi >= -SAFE_HI) r = safe(hi * TWO_32 + lo);
    else {
      bigView ??= w.byteOffset % 8 === 0 ? new BigInt64Array(w.buffer, w.byteOffset, n) : new BigInt64Array(w.slice().buffer);
      r = big(bigView[i]!);
    }
    if (outF !== null) outF[i] = Number(r);
    else if (typeof r === 'bigint') outB![i] = r;
    else if (Number.isSafeInteger(r)) { const h = Math.floor(r / TWO_32); out[2 * i] = (r - h * TWO_32) | 0; out[2 * i + 1] = h; }
    else outB![i] = BigInt(r);
  }
  return out;
}

function decimalConversion(physical: 'INT32' | 'INT64', scale: number): PhysicalConversion {
  const p = 10 ** scale, factor = 10 ** -scale;
  if (physical === 'INT32') {
    const toWords = (v: ArrayLike<unknown>): Int32Array => {
      const f = new Float64Array(v.length);
      for (let i = 0; i < v.length; i++) f[i] = Number(v[i]) / p;
      return doubleWords(f);
    };
    return { physicalWidth: 4, identity: false, toWords, plainToWords: (b, pos, n) => toWords(alignedWords(b, pos, n, 4)) };
  }
  // Unscaled values beyond 2^53 keep what hyparquet computed before (Number(u) * 10^-scale).
  const conv = (w: Int32Array): Int32Array => mapInt64(w, (u) => u / p, (u) => Number(u) * factor, false);
  return { physicalWidth: 8, identity: false, toWords: (v) => conv(int64Words(v)), plainToWords: (b, pos, n) => conv(alignedWords(b, pos, n, 8)) };
}

/** INT64 timestamps in a finer unit, floored to milliseconds (exact: remainder-corrected division). */
function timestampConversion(divisor: number): PhysicalConversion {
  const big = BigInt(divisor);
  const safe = (v: number): number => {
    let q = Math.floor(v / divisor);
    const r = v - q * divisor;
    if (r < 0) q--; else if (r >= divisor) q++;
    return q;
  };
  const bigDiv = (v: bigint): bigint => floorDiv(v, big);
  const conv = (w: Int32Array): Int32Array => mapInt64(w, safe, bigDiv, true);
  return { physicalWidth: 8, identity: false, toWords: (v) => conv(int64Words(v)), plainToWords: (b, pos, n) => conv(alignedWords(b, pos, n, 8)) };
}

const MICROS = timestampConversion(1000);
const NANOS = timestampConversion(1_000_000);

function fixed(type: arrow.DataType, stride: 1 | 2, conv: PhysicalConversion): SinkFactory {
  return (rows) => new FixedSink(type, stride, rows, conv);
}

/** The timestamp unit of an INT64 column, the way hyparquet's `convert` picks it (converted type first). */
function timestampUnit(e: SchemaElement): 'MILLIS' | 'MICROS' | 'NANOS' | undefined {
  if (e.converted_type === 'TIMESTAMP_MILLIS') return 'MILLIS';
  if (e.converted_type === 'TIMESTAMP_MICROS') return 'MICROS';
  return e.logical_type?.type === 'TIMESTAMP' ? e.logical_type.unit : undefined;
}

const TEXT_CONVERTED = new Set([undefined, 'UTF8', 'JSON', 'ENUM']);
const TEXT_LOGICAL = new Set([undefined, 'STRING', 'JSON', 'ENUM']);

/**
 * The sink factory of a flat (top-level, non-repeated, primitive) column that parquet-pages.ts
 * can decode, or undefined for hyparquet's generic path.
 */
export function flatPlan(col: FlatColumn, e: SchemaElement): SinkFactory | undefined {
  if (col.timeUnitMs > 0) return undefined;
  if (col.decimalScale >= 0) {
    return e.type === 'INT32' || e.type === 'INT64' ? fixed(new arrow.Float64(), 2, decimalConversion(e.type, col.decimalScale)) : undefined;
  }
  const lt = e.logical_type;
  switch (col.type) {
    case 'INTEGER': return e.type === 'INT32' ? fixed(new arrow.Int32(), 1, INT32) : undefined;
    case 'DATE': return e.type === 'INT32' ? fixed(new arrow.DateDay(), 1, INT32) : undefined;
    case 'BIGINT': {
      const unsigned = e.converted_type === 'UINT_64' || (lt?.type === 'INTEGER' && !lt.isSigned);
      return e.type === 'INT64' && !unsigned ? fixed(new arrow.Int64(), 2, INT64) : undefined;
    }
    case 'TIMESTAMP': {
      if (e.type !== 'INT64') return undefined;
      const unit = timestampUnit(e);
      const conv = unit === 'MILLIS' ? INT64 : unit === 'MICROS' ? MICROS : unit === 'NANOS' ? NANOS : undefined;
      return conv && fixed(new arrow.TimestampMillisecond(), 2, conv);
    }
    case 'DOUBLE':
      return e.type === 'DOUBLE' ? fixed(new arrow.Float64(), 2, DOUBLE) : e.type === 'FLOAT' ? fixed(new arrow.Float64(), 2, FLOAT) : undefined;
    case 'BOOLEAN': return e.type === 'BOOLEAN' ? (rows) => new BoolSink(rows) : undefined;
    case 'VARCHAR':
      return e.type === 'BYTE_ARRAY' && TEXT_CONVERTED.has(e.converted_type) && TEXT_LOGICAL.has(lt?.type) ? (rows, bytes) => new Utf8Sink(rows, bytes) : undefined;
    default: return undefined;
  }
}

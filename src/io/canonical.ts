/**
 * Normalizes arbitrary Arrow columns to eddy's canonical physical types
 * (conventions.md), so operators only ever see Bool, Int32, Int64, Float64,
 * Utf8 / Dictionary<Utf8, Int32>, DateDay and TimestampMillisecond.
 *
 * Canonical columns pass through untouched (zero-copy); a timezone-tagged
 * millisecond timestamp is re-typed without copying; everything else is
 * converted into fresh typed arrays once.
 */
import * as arrow from 'apache-arrow';
import { dictionaryData, fixedData, nullTypeData, utf8Data } from '../exec/arrow-build.js';
import { packedMap } from '../exec/packed.js';
import { ExecutionError, ValidationError } from '../relnode/errors.js';
import { field, MAX_TIMESTAMP_MS, schemaOf, toArrowType, type Schema, type SqlType } from '../relnode/types.js';
import { makeBatch, makeBuilder, type ColumnBuilder, Float64Builder, Int32Builder, Int64Builder, Utf8Builder } from './columns.js';
import { checkTimestampRange, timestampRangeError } from './timestamp-range.js';

const T = arrow.Type;

/** The SqlType an Arrow type is read as, or undefined when eddy cannot read it. */
export function sqlTypeOfArrow(t: arrow.DataType): SqlType | undefined {
  if (arrow.DataType.isDictionary(t)) return sqlTypeOfArrow(t.dictionary);
  switch (t.typeId) {
    case T.Bool: return 'BOOLEAN';
    case T.Int: {
      const it = t as arrow.Int;
      return it.bitWidth === 64 || (it.bitWidth === 32 && !it.isSigned) ? 'BIGINT' : 'INTEGER';
    }
    case T.Float: case T.Decimal: return 'DOUBLE';
    case T.Utf8: case T.LargeUtf8: case T.Utf8View: return 'VARCHAR';
    case T.Date: return 'DATE';
    case T.Timestamp: return 'TIMESTAMP';
    case T.Null: return 'NULL';
    default: return undefined;
  }
}

/** True when `t` is already a canonical physical type. */
export function isCanonical(t: arrow.DataType): boolean {
  switch (t.typeId) {
    case T.Bool: case T.Utf8: case T.Null: return true;
    case T.Int: { const it = t as arrow.Int; return it.isSigned && (it.bitWidth === 32 || it.bitWidth === 64); }
    case T.Float: return (t as arrow.Float).precision === arrow.Precision.DOUBLE;
    case T.Date: return (t as arrow.Date_).unit === arrow.DateUnit.DAY;
    case T.Timestamp: { const ts = t as arrow.Timestamp; return ts.unit === arrow.TimeUnit.MILLISECOND && !ts.timezone; }
    case T.Dictionary: {
      const d = t as arrow.Dictionary;
      return d.dictionary.typeId === T.Utf8 && d.indices.bitWidth === 32 && d.indices.isSigned;
    }
    default: return false;
  }
}

/** The eddy schema and canonical Arrow schema of an Arrow schema; throws ValidationError naming an unreadable column. */
export function canonicalSchema(s: arrow.Schema, what: string): { schema: Schema; arrowSchema: arrow.Schema } {
  const fields = s.fields.map((f) => {
    const t = sqlTypeOfArrow(f.type);
    if (t === undefined) {
      throw new ValidationError(`${what}: column ${JSON.stringify(f.name)} has Arrow type ${String(f.type)}, which eddy cannot read; supported are booleans, integers, floats, decimals, strings, dates and timestamps`);
    }
    return field(f.name, t, f.nullable);
  });
  const arrowFields = s.fields.map((f, i) => (isCanonical(f.type) ? f : new arrow.Field(f.name, canonicalType(f.type, fields[i]!.type), f.nullable, f.metadata)));
  return { schema: schemaOf(fields), arrowSchema: new arrow.Schema(arrowFields, s.metadata) };
}

function canonicalType(t: arrow.DataType, sql: SqlType): arrow.DataType {
  if (arrow.DataType.isDictionary(t) && sqlTypeOfArrow(t.dictionary) === 'VARCHAR') {
    return new arrow.Dictionary(new arrow.Utf8(), new arrow.Int32(), t.id, t.isOrdered);
  }
  return toArrowType(sql);
}

/**
 * Arrow JS slice semantics: after `Data.slice`, fixed-width `values`, dictionary
 * codes and `valueOffsets` are already sliced (index them by i), while the
 * validity bitmap and Bool value bits are shared and start at bit `offset`.
 */
function sliceBits(bits: Uint8Array, start: number, length: number): Uint8Array {
  if ((start & 7) === 0) return bits.subarray(start >> 3, (start + length + 7) >> 3);
  const out = new Uint8Array((length + 7) >> 3);
  for (let i = 0; i < length; i++) {
    const j = start + i;
    if (bits[j >> 3]! & (1 << (j & 7))) out[i >> 3]! |= 1 << (i & 7);
  }
  return out;
}

function countNulls(bits: Uint8Array, length: number): number {
  let valid = 0;
  for (let i = 0; i < length; i++) if (bits[i >> 3]! & (1 << (i & 7))) valid++;
  return length - valid;
}

/**
 * Rows [start, start + length) of a canonical column as Data with offset 0,
 * sharing memory (typed-array views) except for bitmaps at a non-byte-aligned start.
 * Sources emit only offset-0 columns, so `values[i]` and `values[offset + i]` agree.
 */
export function sliceData(d: arrow.Data, start: number, length: number): arrow.Data {
  const bitStart = d.offset + start;
  let nullBitmap: Uint8Array | undefined;
  let nullCount = 0;
  if (d.nullCount !== 0 && d.nullBitmap !== undefined && d.nullBitmap.length > 0) {
    nullBitmap = sliceBits(d.nullBitmap, bitStart, length);
    nullCount = countNulls(nullBitmap, length);
    if (nullCount === 0) nullBitmap = undefined;
  }
  const t = d.type;
  if (arrow.DataType.isDictionary(t)) {
    return dictionaryData(t, length, nullCount, nullBitmap, (d.values as Int32Array).subarray(start, start + length), d.dictionary!);
  }
  switch (t.typeId) {
    case T.Null: return nullTypeData(t as arrow.Null, length);
    case T.Bool: return fixedData(t, length, nullCount, nullBitmap, sliceBits(d.values as Uint8Array, bitStart, length));
    case T.Utf8: return utf8Data(t as arrow.Utf8, length, nullCount, nullBitmap, (d.valueOffsets as Int32Array).subarray(start, start + length + 1), d.values as Uint8Array);
    default: return fixedData(t, length, nullCount, nullBitmap, (d.values as Int32Array).subarray(start, start + length));
  }
}

/** Rows [start, end) of a batch of canonical columns, every column offset 0 (see sliceData). */
export function sliceBatch(b: arrow.RecordBatch, start: number, end: number): arrow.RecordBatch {
  // packedMap, not `.map`: one elements kind for the columns array whether or not the caller is optimized (a
  // `.map` array is HOLEY in optimized code, and batchOf/structData deopted "wrong map" on it: bench/deopt-runs.ts --why).
  return makeBatch(b.schema, packedMap(b.data.children, (d) => sliceData(d, start, end - start)), end - start);
}

/** Scans (in-memory tables, shipped tables) split a batch longer than this multiple of the batch size. */
export const SPLIT_FACTOR = 4;

/** `batch` as it is when it has at most SPLIT_FACTOR × `size` rows, else in slices of `size` rows. */
export function* batchesOfSize(batch: arrow.RecordBatch, size: number): Generator<arrow.RecordBatch, void, undefined> {
  if (batch.numRows <= SPLIT_FACTOR * size) { yield batch; return; }
  for (let s = 0; s < batch.numRows; s += size) yield sliceBatch(batch, s, Math.min(batch.numRows, s + size));
}

/** `batch` with every column canonical under `arrowSchema` (from canonicalSchema); canonical columns are shared. */
export function canonicalBatch(batch: arrow.RecordBatch, arrowSchema: arrow.Schema, what: string): arrow.RecordBatch {
  const children = batch.data.children;
  let changed = batch.schema !== arrowSchema;
  const out = children.map((d, i) => {
    const c = canonicalData(d, `${what}, column ${JSON.stringify(arrowSchema.fields[i]!.name)}`);
    if (c !== d) changed = true;
    return c;
  });
  return changed ? makeBatch(arrowSchema, out, batch.numRows) : batch;
}

/** One column converted to its canonical physical type (the same Data when already canonical). */
export function canonicalData(d: arrow.Data, what: string): arrow.Data {
  const t = d.type;
  // Millisecond timestamps pass through (or are re-typed) after the range check (timestamp-range.ts); other units are checked as converted.
  if (t.typeId === T.Timestamp && (t as arrow.Timestamp).unit === arrow.TimeUnit.MILLISECOND) checkTimestampRange(d, what);
  if (isCanonical(t)) return d.offset === 0 ? d : sliceData(d, 0, d.length);
  switch (t.typeId) {
    case T.Timestamp: {
      const ts = t as arrow.Timestamp;
      if (ts.unit === arrow.TimeUnit.MILLISECOND) return sliceData(retype(d, new arrow.TimestampMillisecond()), 0, d.length);
      return convertTimestamp(d, ts.unit, what);
    }
    case T.Dictionary: return canonicalDictionary(d as arrow.Data<arrow.Dictionary>, what);
    case T.Int: return convertInt(d as arrow.Data<arrow.Int>, what);
    case T.Float:
      if ((t as arrow.Float).precision === arrow.Precision.SINGLE) return convertInts(d, new Float64Builder(d.length), (v) => v);
      return convertSlow(d, what);
    case T.Date: return convertInts(d, new Int32Builder(new arrow.DateDay(), d.length), (v) => Math.floor(Number(v) / 86_400_000));
    default: return convertSlow(d, what);
  }
}

function retype(d: arrow.Data, type: arrow.DataType): arrow.Data {
  return arrow.makeData({ type: type as arrow.TimestampMillisecond, offset: d.offset, length: d.length, nullCount: d.nullCount, nullBitmap: d.nullBitmap, data: d.values as BigInt64Array });
}

function isValid(d: arrow.Data, i: number): boolean {
  if (d.nullCount === 0 || !d.nullBitmap || d.nullBitmap.length === 0) return true;
  const j = d.offset + i;
  return (d.nullBitmap[j >> 3]! & (1 << (j & 7))) !== 0;
}

/** Element-wise conversion of a numeric column read from its typed array. */
function convertInts<B extends Int32Builder | Int64Builder | Float64Builder>(d: arrow.Data, b: B, f: (v: number | bigint) => number | bigint): arrow.Data {
  const vals = d.values as ArrayLike<number | bigint>;
  for (let i = 0; i < d.length; i++) {
    if (!isValid(d, i)) { b.appendNull(); continue; }
    const v = f(vals[i]!);
    if (b instanceof Int64Builder) {
      if (typeof v === 'bigint') b.appendBigInt(v); else b.appendNumber(v);
    } else (b as Int32Builder | Float64Builder).append(Number(v));
  }
  return b.finish();
}

const INT64_MAX = 2n ** 63n - 1n;

function convertInt(d: arrow.Data<arrow.Int>, what: string): arrow.Data {
  const t = d.type;
  if (t.bitWidth <= 16) return convertInts(d, new Int32Builder(new arrow.Int32(), d.length), (v) => v);
  if (t.bitWidth === 32) return convertInts(d, new Int64Builder(new arrow.Int64(), d.length), (v) => v);
  // Uint64: reinterpret, refusing values that do not fit int64.
  return convertInts(d, new Int64Builder(new arrow.Int64(), d.length), (v) => {
    if ((v as bigint) > INT64_MAX) throw new ExecutionError(`${what}: unsigned value ${v} does not fit BIGINT (at most ${INT64_MAX})`);
    return v;
  });
}

const MAX_MS = BigInt(MAX_TIMESTAMP_MS);

function convertTimestamp(d: arrow.Data, unit: arrow.TimeUnit, what: string): arrow.Data {
  const b = new Int64Builder(new arrow.TimestampMillisecond(), d.length);
  const vals = d.values as BigInt64Array;
  for (let i = 0; i < d.length; i++) {
    if (!isValid(d, i)) { b.appendNull(); continue; }
    const v = vals[i]!;
    const ms = unit === arrow.TimeUnit.SECOND ? v * 1000n : unit === arrow.TimeUnit.MICROSECOND ? floorDiv(v, 1000n) : floorDiv(v, 1_000_000n);
    // Seconds times 1000 can pass int64 too: checked before it is stored (a BigInt64Array would wrap it).
    if (ms > MAX_MS || ms < -MAX_MS) throw timestampRangeError(what, ms);
    b.appendBigInt(ms);
  }
  return b.finish();
}

/** Floor division of bigints (rounds toward negative infinity, unlike `/`). */
export function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q;
}

function canonicalDictionary(d: arrow.Data<arrow.Dictionary>, what: string): arrow.Data {
  const t = d.type;
  const dict = d.dictionary;
  if (dict === undefined || sqlTypeOfArrow(t.dictionary) !== 'VARCHAR') return convertSlow(d, what);
  let values: arrow.Vector = dict;
  if (t.dictionary.typeId !== T.Utf8) {
    values = new arrow.Vector(dict.data.map((x) => canonicalData(x, what)));
  }
  const codes = new Int32Array(d.length);
  const src = d.values as ArrayLike<number | bigint>;
  for (let i = 0; i < d.length; i++) codes[i] = Number(src[i]!);
  const type = new arrow.Dictionary(new arrow.Utf8(), new arrow.Int32(), t.id, t.isOrdered);
  return arrow.makeData({ type, length: d.length, nullCount: d.nullCount, nullBitmap: copyBitmap(d), data: codes, dictionary: values as arrow.Vector<arrow.Utf8> });
}

function copyBitmap(d: arrow.Data): Uint8Array | undefined {
  if (d.nullCount === 0) return undefined;
  const out = new Uint8Array((d.length + 7) >> 3);
  for (let i = 0; i < d.length; i++) if (isValid(d, i)) out[i >> 3]! |= 1 << (i & 7);
  return out;
}

/**
 * Value-at-a-time conversion through `Vector.get` for the rare types without a
 * typed-array path (Float16/32, Decimal, LargeUtf8, Utf8View, non-string
 * dictionaries). Runs once per column at load, not in operators.
 */
function convertSlow(d: arrow.Data, what: string): arrow.Data {
  const sql = sqlTypeOfArrow(d.type);
  if (sql === undefined || sql === 'NULL') throw new ValidationError(`${what}: Arrow type ${String(d.type)} cannot be read by eddy`);
  const vec = new arrow.Vector([d]);
  const b = makeBuilder(sql, d.length);
  const decimalScale = d.type.typeId === T.Decimal ? (d.type as arrow.Decimal).scale : -1;
  for (let i = 0; i < d.length; i++) {
    const v = vec.get(i);
    if (v === null || v === undefined) { b.appendNull(); continue; }
    appendAny(b, decimalScale >= 0 ? decimalToNumber(v, decimalScale) : v, sql);
  }
  return b.finish();
}

function appendAny(b: ColumnBuilder, v: unknown, sql: SqlType): void {
  if (b instanceof Utf8Builder) b.appendString(String(v));
  else if (b instanceof Float64Builder) b.append(Number(v));
  else if (b instanceof Int32Builder) b.append(sql === 'DATE' && v instanceof Date ? Math.floor(v.getTime() / 86_400_000) : Number(v));
  else if (b instanceof Int64Builder) {
    if (typeof v === 'bigint') b.appendBigInt(v); else b.appendNumber(v instanceof Date ? v.getTime() : Number(v));
  } else b.append(Boolean(v));
}

/** A Decimal vector value (little-endian 32-bit words, two's complement) divided by 10^scale. */
function decimalToNumber(v: unknown, scale: number): number {
  const words = v as Uint32Array;
  let big = 0n;
  for (let k = words.length - 1; k >= 0; k--) big = (big << 32n) | BigInt(words[k]!);
  const bits = BigInt(words.length * 32);
  if (words[words.length - 1]! & 0x80000000) big -= 1n << bits;
  return Number(big) / 10 ** scale;
}

/**
 * Batch utilities on canonical physical data (docs/dev/conventions.md): take
 * rows by an Int32Array selection, slice, and build batches from columns
 * (concatenation lives in batch-concat.ts, which builds on this file). Every
 * loop reads the typed arrays under an Arrow `Data` directly.
 *
 * Indexing rule (what Arrow JS's own `Data.slice` and getters do): `values`,
 * `valueOffsets` and dictionary codes are pre-sliced and indexed from 0; only
 * bit-packed buffers (the validity bitmap, Bool values) are indexed at
 * `data.offset + i`.
 *
 * A selection index < 0 in `takeData`/`takeBatch` produces a NULL row, which
 * is how outer joins pad the side without a match.
 */
import {
  DataType, Field, Null, RecordBatch, Schema as ArrowSchema, Struct, Type, Utf8, makeVector,
  type Data, type Dictionary,
} from 'apache-arrow';
import { InternalError } from '../relnode/errors.js';
import { toArrowType, type Schema } from '../relnode/types.js';
import { assembleBatch, dictionaryData, fixedData, nullTypeData, structData, utf8Data } from './arrow-build.js';

/** Is row `i` of `data` valid (non-null)? For cold paths; hot loops inline the bit test. */
export function isValidAt(data: Data, i: number): boolean {
  if (data.nullCount === 0) return data.typeId !== Type.Null;
  const bm = data.nullBitmap;
  if (!bm || bm.length === 0) return data.typeId !== Type.Null;
  const b = data.offset + i;
  return ((bm[b >> 3]! >> (b & 7)) & 1) === 1;
}

/** The validity of rows `sel[0..n)` of `data` (index < 0 → NULL); no bitmap when every row is valid. */
export function takeValidity(data: Data, sel: Int32Array, n: number, hasNeg: boolean): { bitmap: Uint8Array | undefined; nulls: number } {
  const srcNulls = data.typeId === Type.Null ? data.length : data.nullCount;
  if (srcNulls === 0 && !hasNeg) return { bitmap: undefined, nulls: 0 };
  const out = new Uint8Array((n + 7) >> 3);
  const bm = data.nullBitmap;
  const off = data.offset;
  const allNull = data.typeId === Type.Null || (srcNulls > 0 && (!bm || bm.length === 0));
  let valid = 0;
  if (srcNulls === 0 || allNull) {
    // Only negative indexes (or an all-null source) produce NULLs.
    if (!allNull) {
      for (let i = 0; i < n; i++) if (sel[i]! >= 0) { out[i >> 3]! |= 1 << (i & 7); valid++; }
    }
  } else {
    for (let i = 0; i < n; i++) {
      const j = sel[i]!;
      if (j < 0) continue;
      const b = off + j;
      if ((bm![b >> 3]! >> (b & 7)) & 1) { out[i >> 3]! |= 1 << (i & 7); valid++; }
    }
  }
  return { bitmap: out, nulls: n - valid };
}

/** Is sel[0..n) a run of consecutive row indexes (first, first + 1, ...)? Then a take is a slice. */
export function isRun(sel: Int32Array, n: number): boolean {
  if (n === 0 || sel[0]! < 0 || sel[n - 1]! - sel[0]! !== n - 1) return false;
  const first = sel[0]!;
  for (let i = 1; i < n; i++) if (sel[i] !== first + i) return false;
  return true;
}

function anyNegative(sel: Int32Array, n: number): boolean {
  for (let i = 0; i < n; i++) if (sel[i]! < 0) return true;
  return false;
}

/**
 * Gathers rows `sel[0..n)` of a column (index < 0 → NULL). Keeps the
 * physical type: Dictionary columns keep their dictionary and gather codes.
 */
export function takeData(data: Data, sel: Int32Array, n: number = sel.length, hasNeg: boolean = anyNegative(sel, n)): Data {
  const { bitmap, nulls } = takeValidity(data, sel, n, hasNeg);
  const type = data.type as DataType;
  const off = data.offset;
  switch (data.typeId) {
    case Type.Null:
      return nullTypeData(type as Null, n);
    case Type.Bool: {
      const src = data.values as Uint8Array;
      const out = new Uint8Array((n + 7) >> 3);
      for (let i = 0; i < n; i++) {
        const j = sel[i]!;
        if (j < 0) continue;
        const b = off + j;
        if ((src[b >> 3]! >> (b & 7)) & 1) out[i >> 3]! |= 1 << (i & 7);
      }
      return fixedData(type, n, nulls, bitmap, out);
    }
    case Type.Utf8: return takeUtf8(data as Data<Utf8>, sel, n, bitmap, nulls);
    case Type.Dictionary: {
      const codes = takeFixed(data.values as Int32Array, 1, sel, n, hasNeg);
      return dictionaryData(type as Dictionary, n, nulls, bitmap, codes, data.dictionary!);
    }
    default: {
      if (data.children.length > 0 || data.valueOffsets) throw new InternalError(`takeData: unsupported Arrow type ${String(type)}`);
      const out = takeFixed(data.values as unknown as Int32Array, data.stride, sel, n, hasNeg);
      return fixedData(type, n, nulls, bitmap, out);
    }
  }
}

/**
 * Gathers a fixed-width typed array (stride values per row); negative indexes
 * leave a zero. The common element types get their own monomorphic loops: one
 * loop shared by Int32Array, Float64Array and BigInt64Array is megamorphic and
 * measured several times slower.
 */
function takeFixed<T extends Int32Array>(src: T, stride: number, sel: Int32Array, n: number, hasNeg: boolean): T {
  if (stride === 1 && !hasNeg) {
    if (src instanceof Float64Array) return gatherF64(src, sel, n) as unknown as T;
    if (src instanceof Int32Array) return gatherI32(src, sel, n) as T;
    if ((src as unknown) instanceof BigInt64Array) return gatherI64(src as unknown as BigInt64Array, sel, n) as unknown as T;
  }
  const Ctor = src.constructor as new (n: number) => T;
  const out = new Ctor(n * stride);
  if (stride === 1) {
    for (let i = 0; i < n; i++) { const j = sel[i]!; if (j >= 0) out[i] = src[j]!; }
  } else {
    for (let i = 0; i < n; i++) {
      const j = sel[i]!;
      if (j < 0) continue;
      const s = j * stride;
      for (let k = 0; k < stride; k++) out[i * stride + k] = src[s + k]!;
    }
  }
  return out;
}

function gatherF64(src: Float64Array, sel: Int32Array, n: number): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = src[sel[i]!]!;
  return out;
}

function gatherI32(src: Int32Array, sel: Int32Array, n: number): Int32Array {
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) out[i] = src[sel[i]!]!;
  return out;
}

function gatherI64(src: BigInt64Array, sel: Int32Array, n: number): BigInt64Array {
  const out = new BigInt64Array(n);
  for (let i = 0; i < n; i++) out[i] = src[sel[i]!]!;
  return out;
}

function takeUtf8(data: Data<Utf8>, sel: Int32Array, n: number, bitmap: Uint8Array | undefined, nulls: number): Data<Utf8> {
  const offs = data.valueOffsets;
  const bytes = data.values;
  const outOffs = new Int32Array(n + 1);
  // One pass into a buffer as large as the source's bytes when most rows are taken (a filter's
  // dense selection: Q1's flags); two passes (exact size first) otherwise.
  const srcBytes = offs[data.length]! - offs[0]!;
  // (A selection with repeated rows may need more: then the two-pass path.)
  if (2 * n >= data.length && srcBytes <= 4 * n + 1024) {
    const out = new Uint8Array(srcBytes);
    let p = 0;
    let i = 0;
    for (; i < n; i++) {
      const j = sel[i]!;
      if (j >= 0) {
        const s = offs[j]!;
        const e = offs[j + 1]!;
        if (p + (e - s) > srcBytes) break;
        if (e - s > 24) { out.set(bytes.subarray(s, e), p); p += e - s; }
        else for (let k = s; k < e; k++) out[p++] = bytes[k]!;
      }
      outOffs[i + 1] = p;
    }
    if (i === n) return utf8Data(data.type, n, nulls, bitmap, outOffs, out.subarray(0, p));
  }
  let total = 0;
  for (let i = 0; i < n; i++) {
    const j = sel[i]!;
    if (j >= 0) total += offs[j + 1]! - offs[j]!;
    outOffs[i + 1] = total;
  }
  const out = new Uint8Array(total);
  for (let i = 0; i < n; i++) {
    const j = sel[i]!;
    if (j < 0) continue;
    const s = offs[j]!;
    const e = offs[j + 1]!;
    let p = outOffs[i]!;
    if (e - s > 24) out.set(bytes.subarray(s, e), p);
    else for (let k = s; k < e; k++) out[p++] = bytes[k]!;
  }
  return utf8Data(data.type, n, nulls, bitmap, outOffs, out);
}

/** The Arrow schema and struct type of one column list, reused while the column types stay the same objects. */
interface Shape { readonly types: readonly DataType[]; readonly schema: ArrowSchema; readonly struct: Struct }
const shapes = new WeakMap<object, Shape>();

/**
 * A new shape for `names` and the columns' types (once per output shape: kept out of the per-batch function).
 * Plain loops, no closures: a closure made here per call is a new function per shape, whose optimized code
 * V8 holds only through a feedback vector some major GCs drop (TPC-H Q3 and Q18 recompiled `(c, i) => new
 * Field(...)` in timed runs: bench/deopt-runs.ts); the loops' arrays are PACKED (packed.ts).
 */
function newShape(names: Schema | ArrowSchema | readonly string[], columns: readonly Data[]): Shape {
  const nameList: readonly string[] = Array.isArray(names) ? names as readonly string[] : fieldNames((names as Schema | ArrowSchema).fields);
  if (nameList.length !== columns.length) throw new InternalError(`batchFromColumns: ${nameList.length} names for ${columns.length} columns`);
  const fields: Field[] = [];
  const types: DataType[] = [];
  for (let i = 0; i < columns.length; i++) {
    const type = columns[i]!.type as DataType;
    fields.push(new Field(nameList[i]!, type, true));
    types.push(type);
  }
  const shape = { types, schema: new ArrowSchema(fields), struct: new Struct(fields) };
  shapes.set(names, shape);
  return shape;
}

/** The names of `fields`, in a PACKED array. */
function fieldNames(fields: readonly { readonly name: string }[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < fields.length; i++) out.push(fields[i]!.name);
  return out;
}

/**
 * Builds a record batch from columns, named after `schema` (or the given
 * Arrow schema's names) and typed by the column data.
 *
 * Hot path (every operator emits through it): the Arrow schema and struct
 * type are cached per names object while the column types are the same
 * objects as last time (takeData and slices keep their source's type objects),
 * and the batch is assembled directly (arrow-build.ts): Arrow's RecordBatch
 * constructor would rebuild the struct Data through its visitor, clone the
 * schema (merging its metadata maps) and check every column's length on each
 * call — about 3% of TPC-H Q9's CPU. Columns of another length than `length`
 * take that constructor (it pads them with NULLs).
 */
export function batchFromColumns(names: Schema | ArrowSchema | readonly string[], columns: readonly Data[], length?: number): RecordBatch {
  const n = length ?? (columns.length > 0 ? columns[0]!.length : 0);
  const cached = shapes.get(names);
  // One loop here checks the types and the lengths (not a helper per check): V8 counts the bytecodes a
  // function runs itself, loops included, toward its TurboFan tier-up, so a per-batch function whose
  // per-column work is its own reaches TurboFan after fewer batches (bench/deopt-runs.ts --suite).
  const types = cached !== undefined && cached.types.length === columns.length ? cached.types : null;
  let same = types !== null;
  let padded = false;
  for (let i = 0; i < columns.length; i++) {
    const c = columns[i]!;
    if (same && types![i] !== c.type) same = false;
    if (c.length !== n) padded = true;
  }
  const shape = same ? cached! : newShape(names, columns);
  // structData copies the columns into a PACKED array (packed.ts): every reader of `data.children`
  // downstream then sees one map whatever the caller built.
  const data = structData(shape.struct, n, columns);
  return padded ? new RecordBatch(shape.schema, data) : assembleBatch(shape.schema, data);
}

/**
 * Gathers rows of a batch (index < 0 → an all-NULL row). A loop, not a closure per call over
 * `sel` (its optimized code would be dropped and compiled again: see newShape).
 */
export function takeBatch(batch: RecordBatch, sel: Int32Array, n: number = sel.length): RecordBatch {
  const neg = anyNegative(sel, n); // once per batch, not per column
  const children = batch.data.children;
  const cols: Data[] = [];
  for (let i = 0; i < children.length; i++) cols.push(takeData(children[i]!, sel, n, neg));
  return batchFromColumns(batch.schema, cols, n);
}

/** Rows [start, end) of a batch, without copying. */
export function sliceBatch(batch: RecordBatch, start: number, end: number): RecordBatch {
  if (start === 0 && end === batch.numRows) return batch;
  const children = batch.data.children;
  const cols: Data[] = [];
  for (let i = 0; i < children.length; i++) cols.push(children[i]!.slice(start, end - start));
  return batchFromColumns(batch.schema, cols, end - start);
}

/** An all-NULL column of an Arrow type (Dictionary columns get an empty dictionary). */
export function nullData(type: DataType, length: number): Data {
  const bitmap = new Uint8Array((length + 7) >> 3);
  switch (type.typeId) {
    case Type.Null: return nullTypeData(type as Null, length);
    case Type.Utf8: return utf8Data(type as Utf8, length, length, bitmap, new Int32Array(length + 1), new Uint8Array(0));
    case Type.Bool: return fixedData(type, length, length, bitmap, new Uint8Array((length + 7) >> 3));
    case Type.Dictionary: {
      const dict = makeVector(utf8Data(new Utf8(), 0, 0, null, new Int32Array(1), new Uint8Array(0)));
      return dictionaryData(type as Dictionary, length, length, bitmap, new Int32Array(length), dict);
    }
    default: {
      const Ctor = type.ArrayType as new (n: number) => ArrayBufferView;
      return fixedData(type, length, length, bitmap, new Ctor(length * fixedStride(type)));
    }
  }
}

/** Values per row of a fixed-width type's data buffer (1 for every canonical type). */
function fixedStride(type: DataType): number {
  if (type.typeId === Type.Decimal) return (type as unknown as { bitWidth: number }).bitWidth / 32;
  if (type.typeId === Type.FixedSizeBinary) return (type as unknown as { byteWidth: number }).byteWidth;
  return 1;
}


const ENCODER = new TextEncoder();

/** A Utf8 column from JS strings (null → NULL). For small data: dictionaries, results, tests. */
export function utf8FromStrings(values: readonly (string | null)[]): Data<Utf8> {
  const n = values.length;
  const encoded = values.map((v) => (v === null ? null : ENCODER.encode(v)));
  const offs = new Int32Array(n + 1);
  let nulls = 0;
  const bitmap = new Uint8Array((n + 7) >> 3);
  for (let i = 0; i < n; i++) {
    const e = encoded[i];
    if (e === null || e === undefined) nulls++;
    else bitmap[i >> 3]! |= 1 << (i & 7);
    offs[i + 1] = offs[i]! + (e ? e.length : 0);
  }
  const bytes = new Uint8Array(offs[n]!);
  for (let i = 0; i < n; i++) { const e = encoded[i]; if (e) bytes.set(e, offs[i]!); }
  return utf8Data(new Utf8(), n, nulls, nulls > 0 ? bitmap : undefined, offs, bytes);
}


/** A 0-row batch of a schema, in canonical types (internal use: operators never emit it). */
export function emptyBatch(schema: Schema): RecordBatch {
  return batchFromColumns(schema, schema.fields.map((f) => nullData(toArrowType(f.type), 0)), 0);
}

/** Splits a batch into slices of at most `size` rows and hands each to `emit`. */
export function emitInSlices(batch: RecordBatch, size: number, emit: (b: RecordBatch) => void): void {
  const n = batch.numRows;
  if (n === 0) return;
  const step = Math.max(1, size);
  for (let s = 0; s < n; s += step) emit(sliceBatch(batch, s, Math.min(n, s + step)));
}

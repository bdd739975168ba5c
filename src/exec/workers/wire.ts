/**
 * Record batches across threads without structured-clone copies (DESIGN.md "Multi-core").
 *
 * Decision: a batch crosses a thread boundary as a small tree of plain objects (`WireBatch`)
 * whose leaves are the Arrow buffers themselves. Buffers that live in SharedArrayBuffers are
 * shared as they are (a clone of a SharedArrayBuffer view is a view of the same memory); every
 * other buffer is *transferred* (moved: the sender's view is detached), never copied. Table data
 * that many queries and every worker read is copied once into SharedArrayBuffers (shared-data.ts).
 * Only eddy's canonical column types cross (src/io/canonical.ts); anything else is refused, and
 * the caller runs the query on its own thread.
 */
import * as arrow from 'apache-arrow';
import { batchOf, dictionaryData, fixedData, nullTypeData, utf8Data } from '../arrow-build.js';
import { dictionaryValues } from '../batch-concat.js';
import { toShared } from './shared-data.js';

/** The canonical Arrow types by a short code. */
export type WireType = 'bool' | 'utf8' | 'null' | 'i32' | 'i64' | 'f64' | 'date' | 'ts' | 'dict';

type Buf = Uint8Array | Int32Array | BigInt64Array | Float64Array;

/** One column (an Arrow Data) as plain data over its buffers. */
export interface WireData {
  readonly t: WireType;
  readonly length: number;
  readonly offset: number;
  readonly nullCount: number;
  readonly values?: Buf;
  readonly offsets?: Int32Array;
  readonly nulls?: Uint8Array;
  /** A dictionary column's values (Utf8); one object per dictionary, shared by the batches using it. */
  readonly dict?: WireData;
}

/** A record batch as plain data: field names, nullability, and columns. */
export interface WireBatch {
  readonly names: readonly string[];
  readonly nullable: readonly boolean[];
  readonly length: number;
  readonly columns: readonly WireData[];
}

/** A value that cannot cross to a worker (a non-canonical column type); the query runs on its own thread. */
export class NotShippableError extends Error {}

const T = arrow.Type;

function typeCode(t: arrow.DataType): WireType {
  switch (t.typeId) {
    case T.Bool: return 'bool';
    case T.Utf8: return 'utf8';
    case T.Null: return 'null';
    case T.Int: {
      const it = t as arrow.Int;
      if (it.isSigned && it.bitWidth === 32) return 'i32';
      if (it.isSigned && it.bitWidth === 64) return 'i64';
      break;
    }
    case T.Float: if ((t as arrow.Float).precision === arrow.Precision.DOUBLE) return 'f64'; break;
    case T.Date: if ((t as arrow.Date_).unit === arrow.DateUnit.DAY) return 'date'; break;
    case T.Timestamp: { const ts = t as arrow.Timestamp; if (ts.unit === arrow.TimeUnit.MILLISECOND && !ts.timezone) return 'ts'; break; }
    case T.Dictionary: {
      const d = t as arrow.Dictionary;
      if (d.dictionary.typeId === T.Utf8 && d.indices.bitWidth === 32 && d.indices.isSigned) return 'dict';
      break;
    }
    default: break;
  }
  throw new NotShippableError(`column type ${String(t)} cannot be shipped to a worker`);
}

const TYPES: Record<Exclude<WireType, 'dict'>, arrow.DataType> = {
  bool: new arrow.Bool(), utf8: new arrow.Utf8(), null: new arrow.Null(), i32: new arrow.Int32(), i64: new arrow.Int64(),
  f64: new arrow.Float64(), date: new arrow.DateDay(), ts: new arrow.TimestampMillisecond(),
};

/** The Arrow type of a code (each dictionary column gets its own Dictionary type object, as the sources make them). */
function arrowType(t: WireType): arrow.DataType {
  return t === 'dict' ? new arrow.Dictionary(new arrow.Utf8(), new arrow.Int32()) : TYPES[t];
}

/** A column as wire data (its buffers as they are; `share` copies the ones not yet shared). */
export function toWireData(d: arrow.Data, dicts: Map<unknown, WireData> = new Map(), share = false): WireData {
  const t = typeCode(d.type);
  const buf = <B extends Buf>(b: B | undefined): B | undefined => (b === undefined || b.length === 0 ? undefined : share ? toShared(b) : b);
  const hasNulls = d.nullCount !== 0 && d.nullBitmap !== undefined && d.nullBitmap.length > 0;
  const base = { t, length: d.length, offset: d.offset, nullCount: hasNulls ? d.nullCount : 0, ...(hasNulls ? { nulls: buf(d.nullBitmap)! } : {}) };
  if (t === 'null') return { t, length: d.length, offset: 0, nullCount: d.length };
  if (t === 'dict') {
    const dv = d.dictionary;
    let dict = dicts.get(dv);
    if (dict === undefined) { dict = toWireData(dictionaryValues(d), dicts, share); dicts.set(dv, dict); }
    return { ...base, values: buf(d.values as Int32Array) ?? new Int32Array(0), dict };
  }
  if (t === 'utf8') return { ...base, values: buf(d.values as Uint8Array) ?? new Uint8Array(0), offsets: buf(d.valueOffsets as Int32Array) ?? new Int32Array(1) };
  return { ...base, values: buf(d.values as Buf) ?? emptyOf(t) };
}

function emptyOf(t: WireType): Buf {
  switch (t) {
    case 'i64': case 'ts': return new BigInt64Array(0);
    case 'f64': return new Float64Array(0);
    case 'bool': return new Uint8Array(0);
    default: return new Int32Array(0);
  }
}

/** A batch as wire data; `share` copies its buffers into SharedArrayBuffers (table data read by every worker). */
export function toWireBatch(b: arrow.RecordBatch, dicts: Map<unknown, WireData> = new Map(), share = false): WireBatch {
  return {
    names: b.schema.fields.map((f) => f.name),
    nullable: b.schema.fields.map((f) => f.nullable),
    length: b.numRows,
    columns: b.data.children.map((c) => toWireData(c, dicts, share)),
  };
}

/** Rebuilds a column; `dicts` keeps one Arrow dictionary per wire dictionary (batches of one source share it). */
export function fromWireData(w: WireData, dicts: Map<WireData, arrow.Vector> = new Map()): arrow.Data {
  const type = arrowType(w.t);
  const nulls = w.nullCount > 0 ? w.nulls : undefined;
  switch (w.t) {
    case 'null': return nullTypeData(type as arrow.Null, w.length);
    case 'dict': {
      let dv = dicts.get(w.dict!);
      if (dv === undefined) { dv = sameDictionary(w.dict!, dicts) ?? arrow.makeVector(fromWireData(w.dict!, dicts)); dicts.set(w.dict!, dv); }
      return dictionaryData(type as arrow.Dictionary, w.length, w.nullCount, nulls, w.values!, dv, w.offset);
    }
    case 'utf8': return utf8Data(type as arrow.Utf8, w.length, w.nullCount, nulls, w.offsets! as Int32Array, w.values as Uint8Array, w.offset);
    default: return fixedData(type, w.length, w.nullCount, nulls, w.values!, w.offset);
  }
}

/** Dictionaries compared by content at most, per new one (each comparison is cheap or rejects at once). */
const MAX_DICTIONARY_COMPARES = 16;

/**
 * An already rebuilt dictionary with the same strings as `w`. Each message arrives with its own
 * copies of the wire objects, so the replies of two workers (or two parts of one reply) carry the
 * same source dictionary as different objects; reusing one Arrow dictionary for them lets a later
 * concatenation (a hash join's build side) keep the codes instead of merging dictionaries string
 * by string (batch-concat.ts).
 */
function sameDictionary(w: WireData, dicts: Map<WireData, arrow.Vector>): arrow.Vector | undefined {
  let compares = 0;
  for (const [k, v] of dicts) {
    if (k.t !== 'utf8' || k.length !== w.length || k.nullCount !== w.nullCount || w.nullCount !== 0) continue;
    if (++compares > MAX_DICTIONARY_COMPARES) return undefined;
    if (sameUtf8(k, w)) return v;
  }
  return undefined;
}

/** Whether two NULL-free Utf8 wire columns hold the same strings (offsets as Arrow keeps them: from the column's first row). */
function sameUtf8(a: WireData, b: WireData): boolean {
  const ao = a.offsets!;
  const bo = b.offsets!;
  const n = a.length;
  const a0 = ao[0]!;
  const b0 = bo[0]!;
  for (let i = 1; i <= n; i++) if (ao[i]! - a0 !== bo[i]! - b0) return false;
  const av = a.values as Uint8Array;
  const bv = b.values as Uint8Array;
  const len = ao[n]! - a0;
  for (let i = 0; i < len; i++) if (av[a0 + i] !== bv[b0 + i]) return false;
  return true;
}

/** Rebuilds a record batch. */
export function fromWireBatch(w: WireBatch, dicts: Map<WireData, arrow.Vector> = new Map()): arrow.RecordBatch {
  const columns = w.columns.map((c) => fromWireData(c, dicts));
  const schema = new arrow.Schema(columns.map((c, i) => new arrow.Field(w.names[i]!, c.type, w.nullable[i]!)));
  return batchOf(schema, columns, w.length);
}

/** The non-shared ArrayBuffers under some wire batches: the transfer list of a message carrying them. */
export function transferables(batches: Iterable<WireBatch>): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  const seen = new Set<WireData>();
  const add = (b: Buf | undefined): void => { if (b !== undefined && !(b.buffer instanceof SharedArrayBuffer) && b.buffer.byteLength > 0) out.add(b.buffer as ArrayBuffer); };
  const walk = (d: WireData): void => {
    if (seen.has(d)) return;
    seen.add(d);
    add(d.values); add(d.offsets); add(d.nulls);
    if (d.dict) walk(d.dict);
  };
  for (const b of batches) for (const c of b.columns) walk(c);
  return [...out];
}

/**
 * Structural validation of Arrow IPC record batches, on read. apache-arrow
 * trusts a message's metadata: a buffer that runs past the body is silently
 * cut short, a null count of 0 makes it ignore the validity bitmap, offsets
 * are never looked at — so a damaged file reads as different rows without an
 * error. Every record batch and dictionary batch is checked against its
 * schema and body before it is loaded (field-node and buffer counts, buffer
 * bounds and order, node lengths, null counts recounted from the bitmap,
 * buffer sizes), and the loaded columns after (offsets monotonic and inside
 * the data, strings valid UTF-8 per value, dictionary codes known).
 *
 * Value bytes themselves cannot be checked: Arrow IPC carries no checksum, so
 * a flipped digit in an int column stays undetected (spill files add their own
 * checksum). The checks are linear and cheap next to reading the bytes.
 *
 * `guardIpcReader` installs the checks on an apache-arrow RecordBatchReader;
 * the cache's spill reader can use it the same way as the Arrow file source.
 */
import { isUtf8 } from 'node:buffer';
import * as arrow from 'apache-arrow';
import { ExecutionError } from '../relnode/errors.js';

/** A corrupt or inconsistent Arrow IPC file: the message names the file and what is wrong. */
export class CorruptIpcError extends ExecutionError {
  override name = 'CorruptIpcError';
}

/** A field node of a record batch message (as apache-arrow decodes it). */
export interface FieldNodeLike { readonly length: number; readonly nullCount: number }
/** A buffer region of a record batch message, relative to the body. */
export interface BufferRegionLike { readonly offset: number; readonly length: number }
/** The header of a record batch message. */
export interface BatchHeaderLike {
  readonly length: number;
  readonly nodes: readonly FieldNodeLike[];
  readonly buffers: readonly BufferRegionLike[];
  readonly compression?: unknown;
  readonly variadicBufferCounts?: readonly number[];
}
/** The header of a dictionary batch message. */
export interface DictionaryHeaderLike { readonly id: number; readonly isDelta: boolean; readonly data: BatchHeaderLike }

const T = arrow.Type;

function fail(what: string, detail: string): never {
  throw new CorruptIpcError(`${what}: corrupt Arrow IPC data: ${detail}`);
}

/**
 * Bytes per value of a fixed-width type, 0 for Bool (bits), undefined when eddy
 * cannot read the type; NaN when a parameter is outside the spec (a damaged schema).
 */
function valueWidth(t: arrow.DataType): number | undefined {
  switch (t.typeId) {
    case T.Bool: return 0;
    case T.Int: { const w = (t as arrow.Int).bitWidth; return [8, 16, 32, 64].includes(w) ? w / 8 : NaN; }
    case T.Float: return [2, 4, 8][(t as arrow.Float).precision] ?? NaN;
    case T.Decimal: { const w = (t as arrow.Decimal).bitWidth; return [32, 64, 128, 256].includes(w) ? w / 8 : NaN; }
    case T.Date: return [4, 8][(t as arrow.Date_).unit] ?? NaN;
    case T.Timestamp: return (t as arrow.Timestamp).unit >= 0 && (t as arrow.Timestamp).unit <= 3 ? 8 : NaN;
    default: return undefined;
  }
}

/**
 * Checks a schema read from an IPC file: type parameters inside the spec and
 * column names that are text (a damaged name reads as empty, or with NUL or
 * U+FFFD replacement characters). Types eddy cannot read are left to the source.
 */
export function checkIpcSchema(schema: arrow.Schema, what: string): void {
  for (const f of schema.fields) {
    if (f.name === '' || /[\u0000-\u001f\ufffd]/u.test(f.name)) fail(what, `a column name ${JSON.stringify(f.name)} is not readable text`);
    const t = arrow.DataType.isDictionary(f.type) ? f.type.dictionary : f.type;
    const bad = Number.isNaN(valueWidth(t)) || (arrow.DataType.isDictionary(f.type) && Number.isNaN(valueWidth(f.type.indices)));
    if (bad) fail(what, `column ${JSON.stringify(f.name)} has an invalid Arrow type (${String(f.type)})`);
  }
}

/** True when every column type has a layout this module knows (the types eddy reads). */
function knownLayout(t: arrow.DataType): boolean {
  if (arrow.DataType.isDictionary(t)) return knownLayout(t.dictionary) && valueWidth(t.indices) !== undefined;
  switch (t.typeId) {
    case T.Null: case T.Utf8: case T.LargeUtf8: case T.Utf8View: return true;
    default: return valueWidth(t) !== undefined;
  }
}

/** The number of 0 bits among the first `n` bits of `bits`. */
function zeroBits(bits: Uint8Array, n: number): number {
  let ones = 0;
  const full = n >> 3;
  for (let i = 0; i < full; i++) {
    let b = bits[i]!;
    b = b - ((b >> 1) & 0x55);
    b = (b & 0x33) + ((b >> 2) & 0x33);
    ones += (b + (b >> 4)) & 0x0f;
  }
  for (let i = full << 3; i < n; i++) ones += (bits[i >> 3]! >> (i & 7)) & 1;
  return n - ones;
}

/**
 * Checks a record batch message (or a dictionary batch's data, with one field)
 * against the schema fields and the body bytes, before apache-arrow loads it.
 */
export function checkBatchMessage(fields: readonly arrow.Field[], header: BatchHeaderLike, body: Uint8Array, what: string): void {
  if (!fields.every((f) => knownLayout(f.type))) return; // the source rejects such a schema with its own error
  const { length, nodes, buffers } = header;
  if (!Number.isSafeInteger(length) || length < 0) fail(what, `record batch length ${length} is not a row count`);
  if (header.compression != null) fail(what, 'the record batch is compressed, which eddy cannot read; write the file uncompressed');
  let end = 0;
  for (let i = 0; i < buffers.length; i++) {
    const b = buffers[i]!;
    if (!Number.isSafeInteger(b.offset) || !Number.isSafeInteger(b.length) || b.offset < 0 || b.length < 0 || b.offset + b.length > body.byteLength) {
      fail(what, `buffer ${i} (offset ${b.offset}, length ${b.length}) lies outside the ${body.byteLength}-byte message body`);
    }
    if (b.length > 0) {
      if (b.offset < end) fail(what, `buffer ${i} (offset ${b.offset}) overlaps the buffer before it (which ends at ${end})`);
      end = b.offset + b.length;
    }
  }
  let ni = 0, bi = 0, vi = 0;
  const nextBuffer = (col: string, role: string): BufferRegionLike => {
    const b = buffers[bi++];
    if (b === undefined) fail(what, `the record batch has ${buffers.length} buffers, too few for the schema (missing the ${role} of column ${col})`);
    return b;
  };
  for (const f of fields) {
    const col = JSON.stringify(f.name);
    const node = nodes[ni++];
    if (node === undefined) fail(what, `the record batch has ${nodes.length} field nodes, but the schema has ${fields.length} columns`);
    if (node.length !== length) fail(what, `column ${col} has ${node.length} values in a record batch of ${length} rows`);
    if (!Number.isSafeInteger(node.nullCount) || node.nullCount < 0 || node.nullCount > node.length) {
      fail(what, `column ${col} has null count ${node.nullCount} for ${node.length} values`);
    }
    const t = f.type;
    if (t.typeId === T.Null) continue;
    const validity = nextBuffer(col, 'validity bitmap');
    const bitmapBytes = (length + 7) >> 3;
    if (node.nullCount > 0 || validity.length > 0) {
      if (validity.length < bitmapBytes) fail(what, `column ${col}: validity bitmap of ${validity.length} bytes for ${length} rows`);
      const zeros = zeroBits(body.subarray(validity.offset, validity.offset + bitmapBytes), length);
      if (zeros !== node.nullCount) fail(what, `column ${col}: null count ${node.nullCount} but its validity bitmap marks ${zeros} nulls`);
    }
    // Writers record a buffer's exact size or pad it to 8 or 64 bytes; one much larger than its rows need
    // is a damaged type or length (e.g. DOUBLE read as HALF), not padding.
    const need = (b: BufferRegionLike, bytes: number, role: string): void => {
      if (b.length < bytes) fail(what, `column ${col}: ${role} buffer of ${b.length} bytes, ${length} rows need ${bytes}`);
      if (b.length > ((bytes + 63) & ~63) + 64) fail(what, `column ${col}: ${role} buffer of ${b.length} bytes, far more than the ${bytes} its ${length} rows need`);
    };
    const vt = arrow.DataType.isDictionary(t) ? t.indices : t;
    switch (vt.typeId) {
      case T.Utf8: case T.LargeUtf8: {
        need(nextBuffer(col, 'offsets'), length === 0 ? 0 : (length + 1) * (vt.typeId === T.Utf8 ? 4 : 8), 'offsets');
        nextBuffer(col, 'data');
        break;
      }
      case T.Utf8View: {
        need(nextBuffer(col, 'views'), length * 16, 'views');
        const count = header.variadicBufferCounts?.[vi++] ?? 0;
        if (!Number.isSafeInteger(count) || count < 0 || bi + count > buffers.length) fail(what, `column ${col}: ${count} variadic string buffers, more than the batch holds`);
        bi += count;
        break;
      }
      default: {
        const w = valueWidth(vt)!;
        if (Number.isNaN(w)) fail(what, `column ${col} has an invalid Arrow type (${String(t)})`);
        need(nextBuffer(col, 'values'), w === 0 ? bitmapBytes : length * w, 'values');
      }
    }
  }
  if (ni !== nodes.length) fail(what, `the record batch has ${nodes.length} field nodes, but the schema has ${fields.length} columns`);
  if (bi !== buffers.length) fail(what, `the record batch has ${buffers.length} buffers, the schema's columns use ${bi}`);
}

/** Checks a dictionary batch message: its id must belong to a column of the schema. */
export function checkDictionaryMessage(schema: arrow.Schema, header: DictionaryHeaderLike, body: Uint8Array, what: string): void {
  const type = schema.dictionaries.get(header.id);
  if (type === undefined) fail(what, `a dictionary batch has id ${header.id}, which no column of the schema uses`);
  checkBatchMessage([new arrow.Field('dictionary', type, true)], header.data, body, `${what} (dictionary ${header.id})`);
}

function isValid(d: arrow.Data, i: number): boolean {
  const bits = d.nullBitmap;
  if (d.nullCount === 0 || bits === undefined || bits.length === 0) return true;
  const j = d.offset + i;
  return ((bits[j >> 3]! >> (j & 7)) & 1) === 1;
}

function checkOffsets(d: arrow.Data, col: string, what: string): void {
  const offs = d.valueOffsets as Int32Array | BigInt64Array;
  const bytes = d.values as Uint8Array;
  if (d.length === 0) return;
  const large = offs instanceof BigInt64Array;
  const at = (i: number): number => (large ? Number(offs[i]) : (offs[i] as number));
  let prev = at(0);
  if (prev < 0 || prev > bytes.length) fail(what, `column ${col}: first string offset ${prev} is outside its ${bytes.length}-byte data`);
  const start = prev;
  for (let i = 1; i <= d.length; i++) {
    const o = at(i);
    if (o < prev) fail(what, `column ${col}: string offsets decrease at row ${i - 1} (${prev} then ${o})`);
    prev = o;
  }
  if (prev > bytes.length) fail(what, `column ${col}: string offsets run to ${prev}, past its ${bytes.length}-byte data`);
  if (!isUtf8(bytes.subarray(start, prev))) fail(what, `column ${col}: string data is not valid UTF-8`);
  // The whole run is valid UTF-8; each value is too when no offset splits a character.
  for (let i = 1; i < d.length; i++) {
    const o = at(i);
    if (o < prev && (bytes[o]! & 0xc0) === 0x80) fail(what, `column ${col}: string at row ${i} starts inside a UTF-8 character`);
  }
}

function checkViews(d: arrow.Data, col: string, what: string): void {
  const views = d.values as Uint8Array;
  const dv = new DataView(views.buffer, views.byteOffset, views.byteLength);
  const bufs = d.variadicBuffers;
  for (let i = 0; i < d.length; i++) {
    const at = (d.offset + i) * 16;
    const len = dv.getInt32(at, true);
    if (len < 0) fail(what, `column ${col}: string view at row ${i} has length ${len}`);
    if (len <= 12) {
      if (!isUtf8(views.subarray(at + 4, at + 4 + len))) fail(what, `column ${col}: string at row ${i} is not valid UTF-8`);
      continue;
    }
    const buf = bufs[dv.getInt32(at + 8, true)];
    const off = dv.getInt32(at + 12, true);
    if (buf === undefined || off < 0 || off + len > buf.length) fail(what, `column ${col}: string view at row ${i} points outside its data buffers`);
    if (!isUtf8(buf.subarray(off, off + len))) fail(what, `column ${col}: string at row ${i} is not valid UTF-8`);
  }
}

function checkColumn(d: arrow.Data, col: string, what: string, checkedDictionaries: WeakSet<object>): void {
  const t = d.type;
  if (arrow.DataType.isDictionary(t)) {
    const dict = d.dictionary;
    if (dict === undefined) fail(what, `column ${col}: its dictionary (id ${t.id}) is missing from the file`);
    if (!checkedDictionaries.has(dict)) {
      for (const chunk of dict.data) checkColumn(chunk, `${col} (dictionary)`, what, checkedDictionaries);
      checkedDictionaries.add(dict);
    }
    const codes = d.values as ArrayLike<number | bigint>;
    const n = dict.length;
    for (let i = 0; i < d.length; i++) {
      const c = Number(codes[i]!);
      if ((c < 0 || c >= n) && isValid(d, i)) fail(what, `column ${col}: dictionary code ${c} at row ${i}, but the dictionary has ${n} values`);
    }
    return;
  }
  if (t.typeId === T.Utf8 || t.typeId === T.LargeUtf8) checkOffsets(d, col, what);
  else if (t.typeId === T.Utf8View) checkViews(d, col, what);
}

/** Checks the loaded columns of a record batch (offsets, UTF-8, dictionary codes). */
export function checkLoadedBatch(batch: arrow.RecordBatch, what: string, checkedDictionaries: WeakSet<object> = new WeakSet()): void {
  const fields = batch.schema.fields;
  if (!fields.every((f) => knownLayout(f.type))) return;
  batch.data.children.forEach((d, i) => checkColumn(d, JSON.stringify(fields[i]!.name), what, checkedDictionaries));
}

interface LoaderImpl {
  schema: arrow.Schema;
  _loadRecordBatch(header: BatchHeaderLike, body: Uint8Array, meta: unknown): arrow.RecordBatch;
  _loadDictionaryBatch(header: DictionaryHeaderLike, body: Uint8Array): arrow.Vector;
}

/**
 * Installs the checks on an apache-arrow reader before it is opened: every
 * record batch and dictionary batch it loads is validated (throwing
 * CorruptIpcError naming `what`). Relies on the reader's two load methods;
 * if apache-arrow renames them this throws at once rather than reading unchecked.
 */
export function guardIpcReader(reader: arrow.RecordBatchReader | arrow.AsyncRecordBatchFileReader | arrow.AsyncRecordBatchStreamReader, what: string): void {
  const impl = (reader as unknown as { _impl?: LoaderImpl })._impl;
  if (impl === undefined || typeof impl._loadRecordBatch !== 'function' || typeof impl._loadDictionaryBatch !== 'function') {
    throw new ExecutionError(`${what}: this apache-arrow version's reader cannot be validated (no record batch loader found); eddy needs apache-arrow 21`);
  }
  const loadBatch = impl._loadRecordBatch.bind(impl);
  const loadDictionary = impl._loadDictionaryBatch.bind(impl);
  const checked = new WeakSet<object>();
  impl._loadRecordBatch = (header, body, meta) => {
    checkBatchMessage(impl.schema.fields, header, body, what);
    const batch = loadBatch(header, body, meta);
    checkLoadedBatch(batch, what, checked);
    return batch;
  };
  impl._loadDictionaryBatch = (header, body) => {
    checkDictionaryMessage(impl.schema, header, body, what);
    return loadDictionary(header, body);
  };
}

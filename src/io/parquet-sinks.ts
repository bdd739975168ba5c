/**
 * Where parquet-pages.ts writes a flat column's values: the column chunk's final Arrow buffers,
 * preallocated from the row group's row count, filled page by page at the page's first row.
 * A page arrives as its definition levels (`defs`, one byte per row, or null when the page has
 * no NULL) and its dense values (one per present row): plain bytes of the page, dictionary
 * indices, or values another decoder produced. With no NULL the values land in one copy; with
 * NULLs they are scattered to the rows whose level is 1 (NULL slots keep 0 / an empty string).
 *
 * Fixed-width columns are moved as 32-bit words (two per 8-byte value), so doubles and int64s
 * are copied bit for bit (no NaN canonicalisation, no BigInt per value).
 */
import * as arrow from 'apache-arrow';
import { ExecutionError } from '../relnode/errors.js';
import type { PhysicalConversion } from './parquet-convert.js';

/** Dense values of one page in a fixed-width sink's output representation. */
type Words = Int32Array;

/** The sink of a fixed-width column (Int32 / Date32: 1 word a value; Float64 / Int64 / Timestamp: 2). */
export class FixedSink {
  readonly words: Int32Array;
  private dict: Words | null = null;
  constructor(readonly type: arrow.DataType, readonly stride: 1 | 2, rows: number, readonly conv: PhysicalConversion) {
    this.words = new Int32Array(rows * stride);
  }

  /** Sets the chunk's dictionary (physical values, converted once). */
  setDictionary(physical: ArrayLike<unknown>): void {
    this.dict = this.conv.toWords(physical);
  }

  /** Writes dense values already in output words (count rows from `row`, per defs). */
  writeWords(dense: Words, row: number, count: number, defs: Uint8Array | null): void {
    const out = this.words, s = this.stride;
    if (defs === null) { out.set(dense.subarray(0, count * s), row * s); return; }
    let k = 0;
    if (s === 1) {
      for (let i = 0; i < count; i++) if (defs[i] === 1) out[row + i] = dense[k++]!;
    } else {
      for (let i = 0; i < count; i++) {
        if (defs[i] === 1) { const o = 2 * (row + i); out[o] = dense[k]!; out[o + 1] = dense[k + 1]!; k += 2; }
      }
    }
  }

  /** Writes the plain-encoded values at bytes[pos, ...): `present` values. */
  writePlain(bytes: Uint8Array, pos: number, present: number, row: number, count: number, defs: Uint8Array | null): void {
    const width = this.conv.physicalWidth;
    if (pos + present * width > bytes.length) throw new ExecutionError(`parquet: a plain page holds fewer values than its header says; the file may be corrupt`);
    if (this.conv.identity && defs === null) {
      // Bit-identical layout: one byte copy into the output.
      new Uint8Array(this.words.buffer, row * this.stride * 4, present * width).set(bytes.subarray(pos, pos + present * width));
      return;
    }
    this.writeWords(this.conv.plainToWords(bytes, pos, present), row, count, defs);
  }

  /** Writes `present` dictionary indices (from `idx`, none above `maxIndex`) as the dictionary's values. */
  writeIndices(idx: Int32Array, maxIndex: number, present: number, row: number, count: number, defs: Uint8Array | null): void {
    const dict = this.dict;
    if (dict === null) throw new ExecutionError('parquet: a dictionary-encoded page comes before its dictionary page; the file may be corrupt');
    if (present > 0) checkIndex(maxIndex, dict.length / this.stride);
    const out = this.words;
    if (this.stride === 1) {
      if (defs === null) { for (let i = 0; i < count; i++) out[row + i] = dict[idx[i]!]!; return; }
      let k = 0;
      for (let i = 0; i < count; i++) if (defs[i] === 1) out[row + i] = dict[idx[k++]!]!;
    } else if (defs === null) {
      for (let i = 0, o = 2 * row; i < count; i++, o += 2) { const d = 2 * idx[i]!; out[o] = dict[d]!; out[o + 1] = dict[d + 1]!; }
    } else {
      let k = 0;
      for (let i = 0; i < count; i++) {
        if (defs[i] !== 1) continue;
        const d = 2 * idx[k++]!, o = 2 * (row + i);
        out[o] = dict[d]!; out[o + 1] = dict[d + 1]!;
      }
    }
  }

  /** Writes dense physical values another decoder produced (typed array or JS array). */
  writeValues(values: ArrayLike<unknown>, row: number, count: number, defs: Uint8Array | null): void {
    this.writeWords(this.conv.toWords(values), row, count, defs);
  }

  finish(rows: number, nullCount: number, nullBitmap: Uint8Array | undefined): arrow.Data {
    const data = this.stride === 1 ? this.words : this.type.typeId === arrow.Type.Float ? new Float64Array(this.words.buffer, 0, rows) : new BigInt64Array(this.words.buffer, 0, rows);
    return arrow.makeData({ type: this.type as arrow.Int32, length: rows, nullCount, nullBitmap, data: data as Int32Array });
  }
}

const MAX_BYTES = 0x7fffffff;
/** A dictionary page's text is reserved as present x longest entry up to this size, else summed exactly. */
const BOUND_RESERVE = 1 << 24;

function checkIndex(maxIndex: number, size: number): void {
  if (!(maxIndex >= 0 && maxIndex < size)) throw new ExecutionError(`parquet: dictionary index ${maxIndex} out of range (${size} entries); the file may be corrupt`);
}
/** Strings up to this many bytes are copied by copyShort: cheaper than a subarray object and a set(). */
const SHORT = 64;

/**
 * Copies len bytes between DataViews, 4 at a time (unaligned 32-bit loads and stores are cheap
 * in optimized code): ~30 ns per 27-byte string against ~55 byte by byte (l_comment, one page).
 */
function copyShort(src: DataView, from: number, out: DataView, to: number, len: number): void {
  let j = 0;
  for (; j + 4 <= len; j += 4) out.setUint32(to + j, src.getUint32(from + j, true), true);
  for (; j < len; j++) out.setUint8(to + j, src.getUint8(from + j));
}

/** The sink of a VARCHAR column: Int32 offsets and a growing UTF-8 byte buffer (bytes copied as stored). */
export class Utf8Sink {
  readonly offsets: Int32Array;
  private bytes: Uint8Array;
  private used = 0;
  private view: DataView;
  private dictBytes: Uint8Array | null = null;
  private dictView: DataView | null = null;
  private dictMaxLength = 0;
  private dictOffsets: Int32Array | null = null;
  /** Whether the dictionary's entries are distinct (grouping by code needs it; a file may repeat one). */
  private dictDistinct = false;
  /**
   * What the pages wrote so far: nothing, dictionary codes (`codes`, NULL rows in `nullRows`), or
   * strings (`bytes`/`offsets`). A chunk whose every page is dictionary-encoded over distinct
   * entries stays a Dictionary<Utf8> column (finish); the first plain page turns the codes so far
   * into strings (a writer falls back to plain when its dictionary grows too big).
   */
  private mode: 'empty' | 'codes' | 'strings' = 'empty';
  private codes: Int32Array | null = null;
  private nullRows: Uint8Array | null = null;

  constructor(rows: number, byteEstimate: number) {
    this.offsets = new Int32Array(rows + 1);
    this.bytes = new Uint8Array(Math.max(64, Math.min(byteEstimate, MAX_BYTES)));
    this.view = new DataView(this.bytes.buffer);
  }

  private reserve(more: number): void {
    const min = this.used + more;
    if (min <= this.bytes.length) return;
    if (min > MAX_BYTES) throw new ExecutionError('parquet: a string column chunk needs more than 2 GiB');
    let cap = this.bytes.length * 2;
    while (cap < min) cap *= 2;
    const b = new Uint8Array(Math.min(cap, MAX_BYTES));
    b.set(this.bytes.subarray(0, this.used));
    this.bytes = b;
    this.view = new DataView(b.buffer);
  }

  /** Sets the chunk's dictionary: BYTE_ARRAY values (Uint8Array each), concatenated once. */
  setDictionary(values: ArrayLike<unknown>): void {
    const n = values.length;
    const offs = new Int32Array(n + 1);
    let total = 0;
    let longest = 0;
    for (let i = 0; i < n; i++) { const len = (values[i] as Uint8Array).length; total += len; offs[i + 1] = total; if (len > longest) longest = len; }
    this.dictMaxLength = longest;
    const b = new Uint8Array(total);
    for (let i = 0; i < n; i++) b.set(values[i] as Uint8Array, offs[i]!);
    this.dictBytes = b;
    this.dictView = new DataView(b.buffer);
    this.dictOffsets = offs;
    const seen = new Set<string>();
    const text = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
    for (let i = 0; i < n; i++) seen.add(text.toString('latin1', offs[i]!, offs[i + 1]!)); // latin1: one char per byte, so equal strings are equal bytes
    this.dictDistinct = n > 0 && seen.size === n;
  }

  /** Before strings are written: the codes written so far become strings. */
  private toStrings(): void {
    if (this.mode === 'codes') {
      const codes = this.codes!;
      const rows = this.codesRows;
      const db = this.dictBytes!, dof = this.dictOffsets!, nulls = this.nullRows;
      let need = 0;
      for (let r = 0; r < rows; r++) if (nulls === null || nulls[r] === 0) need += dof[codes[r]! + 1]! - dof[codes[r]!]!;
      this.reserve(need);
      const out = this.bytes, offsets = this.offsets, ov = this.view, dv = this.dictView!;
      let at = this.used;
      for (let r = 0; r < rows; r++) {
        if (nulls === null || nulls[r] === 0) {
          // As writeIndices copies: short strings word by word, no subarray per row.
          const c = codes[r]!, s = dof[c]!, e = dof[c + 1]!;
          if (e - s <= SHORT) copyShort(dv, s, ov, at, e - s); else out.set(db.subarray(s, e), at);
          at += e - s;
        }
        offsets[r + 1] = at;
      }
      this.used = at;
      this.codes = null;
      this.nullRows = null;
    } else if (this.mode === 'empty' && this.dictOffsets !== null) {
      // The chunk's uncompressed size says little about a dictionary column's text: size it by the average entry.
      const n = this.dictOffsets.length - 1;
      if (n > 0) this.reserve(Math.ceil(((this.offsets.length - 1) * this.dictBytes!.length) / n));
    }
    this.mode = 'strings';
  }

  /** Rows written as codes (the next row of codes mode). */
  private codesRows = 0;

  /** Writes `present` dictionary indices as codes (codes mode): `count` rows from `row`. */
  private writeCodes(idx: Int32Array, row: number, count: number, defs: Uint8Array | null): void {
    const rows = this.offsets.length - 1;
    const codes = (this.codes ??= new Int32Array(rows));
    if (defs === null) codes.set(idx.subarray(0, count), row);
    else {
      const nulls = (this.nullRows ??= new Uint8Array(rows));
      let k = 0;
      for (let i = 0; i < count; i++) {
        if (defs[i] === 1) codes[row + i] = idx[k++]!;
        else nulls[row + i] = 1; // the code stays 0: an entry of the dictionary, as every code must be
      }
    }
    this.codesRows = row + count;
    this.mode = 'codes';
  }

  /** Writes the plain BYTE_ARRAY values (4-byte length, then the bytes) from bytes[pos, end), one per present row. */
  writePlain(src: Uint8Array, pos: number, end: number, row: number, count: number, defs: Uint8Array | null): void {
    if (this.mode !== 'strings') this.toStrings();
    this.reserve(end - pos);
    const out = this.bytes, offsets = this.offsets, ov = this.view;
    const sv = new DataView(src.buffer, src.byteOffset, src.byteLength);
    let at = this.used;
    for (let i = 0; i < count; i++) {
      if (defs === null || defs[i] === 1) {
        if (pos + 4 > end) throw new ExecutionError('parquet: a plain string page ends early; the file may be corrupt');
        const len = (src[pos]! | (src[pos + 1]! << 8) | (src[pos + 2]! << 16) | (src[pos + 3]! << 24)) >>> 0;
        pos += 4;
        if (pos + len > end) throw new ExecutionError('parquet: a plain string runs past its page; the file may be corrupt');
        if (len <= SHORT) copyShort(sv, pos, ov, at, len); else out.set(src.subarray(pos, pos + len), at);
        at += len;
        pos += len;
      }
      offsets[row + i + 1] = at;
    }
    this.used = at;
  }

  /** Writes `present` dictionary indices (none above `maxIndex`) as copies of the dictionary's strings. */
  writeIndices(idx: Int32Array, maxIndex: number, present: number, row: number, count: number, defs: Uint8Array | null): void {
    const db = this.dictBytes, dof = this.dictOffsets;
    if (db === null || dof === null) throw new ExecutionError('parquet: a dictionary-encoded page comes before its dictionary page; the file may be corrupt');
    if (present > 0) checkIndex(maxIndex, dof.length - 1);
    if (this.mode !== 'strings' && this.dictDistinct && (this.mode === 'codes' ? this.codesRows === row : row === 0)) {
      this.writeCodes(idx, row, count, defs);
      return;
    }
    if (this.mode !== 'strings') this.toStrings();
    const bound = present * this.dictMaxLength;
    if (bound <= BOUND_RESERVE) this.reserve(bound);
    else {
      let need = 0;
      for (let i = 0; i < present; i++) { const d = idx[i]!; need += dof[d + 1]! - dof[d]!; }
      this.reserve(need);
    }
    const out = this.bytes, offsets = this.offsets, ov = this.view, dv = this.dictView!;
    let at = this.used, k = 0;
    for (let i = 0; i < count; i++) {
      if (defs === null || defs[i] === 1) {
        const d = idx[k++]!;
        const s = dof[d]!, e = dof[d + 1]!;
        if (e - s <= SHORT) copyShort(dv, s, ov, at, e - s); else out.set(db.subarray(s, e), at);
        at += e - s;
      }
      offsets[row + i + 1] = at;
    }
    this.used = at;
  }

  /** Writes dense BYTE_ARRAY values another decoder produced (a Uint8Array each). */
  writeValues(values: ArrayLike<unknown>, row: number, count: number, defs: Uint8Array | null): void {
    if (this.mode !== 'strings') this.toStrings();
    let need = 0;
    for (let i = 0; i < values.length; i++) need += (values[i] as Uint8Array).length;
    this.reserve(need);
    const out = this.bytes, offsets = this.offsets;
    let at = this.used, k = 0;
    for (let i = 0; i < count; i++) {
      if (defs === null || defs[i] === 1) { const v = values[k++] as Uint8Array; out.set(v, at); at += v.length; }
      offsets[row + i + 1] = at;
    }
    this.used = at;
  }

  finish(rows: number, nullCount: number, nullBitmap: Uint8Array | undefined): arrow.Data {
    if (this.mode === 'codes' && this.codesRows === rows) {
      const dof = this.dictOffsets!;
      const n = dof.length - 1;
      const dictionary = arrow.makeVector(arrow.makeData({ type: new arrow.Utf8(), length: n, nullCount: 0, valueOffsets: dof, data: this.dictBytes! }));
      return arrow.makeData({ type: new arrow.Dictionary(new arrow.Utf8(), new arrow.Int32()), length: rows, nullCount, nullBitmap, data: this.codes!, dictionary });
    }
    if (this.mode !== 'strings') this.toStrings();
    return arrow.makeData({ type: new arrow.Utf8(), length: rows, nullCount, nullBitmap, valueOffsets: this.offsets, data: this.bytes.subarray(0, this.used) });
  }
}

/** The sink of a BOOLEAN column: an Arrow bitmap (PLAIN pages are bit-packed the same way). */
export class BoolSink {
  readonly bits: Uint8Array;
  constructor(rows: number) {
    this.bits = new Uint8Array((rows + 7) >> 3);
  }

  setDictionary(): void {
    throw new ExecutionError('parquet: a BOOLEAN column with a dictionary page; the file may be corrupt');
  }

  writePlain(src: Uint8Array, pos: number, present: number, row: number, count: number, defs: Uint8Array | null): void {
    if (pos + ((present + 7) >> 3) > src.length) throw new ExecutionError('parquet: a plain BOOLEAN page ends early; the file may be corrupt');
    const out = this.bits;
    let k = 0;
    for (let i = 0; i < count; i++) {
      if (defs !== null && defs[i] !== 1) continue;
      if ((src[pos + (k >> 3)]! >> (k & 7)) & 1) { const r = row + i; out[r >> 3]! |= 1 << (r & 7); }
      k++;
    }
  }

  writeValues(values: ArrayLike<unknown>, row: number, count: number, defs: Uint8Array | null): void {
    const out = this.bits;
    let k = 0;
    for (let i = 0; i < count; i++) {
      if (defs !== null && defs[i] !== 1) continue;
      if (values[k++]) { const r = row + i; out[r >> 3]! |= 1 << (r & 7); }
    }
  }

  finish(rows: number, nullCount: number, nullBitmap: Uint8Array | undefined): arrow.Data {
    return arrow.makeData({ type: new arrow.Bool(), length: rows, nullCount, nullBitmap, data: this.bits });
  }
}

/** Any flat-column sink. */
export type ColumnSink = FixedSink | Utf8Sink | BoolSink;

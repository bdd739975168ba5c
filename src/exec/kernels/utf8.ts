/**
 * VARCHAR columns at the byte level: a row-addressable view over Utf8 and
 * Dictionary<Utf8, Int32> Data, UTF-8 decode/encode, and a builder for Utf8
 * results. Byte-wise comparison of UTF-8 is code-point order (DuckDB's order).
 */
import * as arrow from 'apache-arrow';
import { InternalError } from '../../relnode/errors.js';
import { andValidity, byteLength, newBits, validityOf } from './bitmap.js';
import { isNullType, makeUtf8 } from './column.js';

/** A flat list of strings: entry k is bytes[offsets[k] .. offsets[k + 1]). */
export interface Utf8Entries {
  readonly offsets: Int32Array;
  readonly bytes: Uint8Array;
  /** Entry validity (row-0-aligned) or null when every entry is valid. */
  readonly valid: Uint8Array | null;
  readonly count: number;
}

/**
 * A VARCHAR column of one batch: for Utf8, `entries` are the rows and `codes` is null;
 * for a dictionary, `entries` are the dictionary values and row i is entry `codes[i]`.
 */
export interface StrView {
  readonly entries: Utf8Entries;
  readonly codes: Int32Array | null;
  /** Row validity (row-0-aligned), including NULL dictionary entries; null when no row is NULL. */
  readonly valid: Uint8Array | null;
  /** The dictionary Vector (identity key for per-dictionary caches), or null. */
  readonly dictKey: object | null;
  readonly n: number;
}

const EMPTY_OFFSETS = new Int32Array(1);
const EMPTY_BYTES = new Uint8Array(0);
const flatDicts = new WeakMap<object, Utf8Entries>();

function entriesOfUtf8(d: arrow.Data): Utf8Entries {
  if (isNullType(d)) return { offsets: new Int32Array(d.length + 1), bytes: EMPTY_BYTES, valid: newBits(d.length), count: d.length };
  if (d.typeId !== arrow.Type.Utf8) throw new InternalError(`expected Utf8 data, got ${String(d.type)}`);
  return { offsets: d.valueOffsets ?? EMPTY_OFFSETS, bytes: (d.values as Uint8Array | undefined) ?? EMPTY_BYTES, valid: validityOf(d), count: d.length };
}

/** The entries of a dictionary Vector, flattened once per Vector identity. */
export function dictionaryEntries(dict: arrow.Vector): Utf8Entries {
  let e = flatDicts.get(dict);
  if (e !== undefined) return e;
  const chunks = dict.data as arrow.Data[];
  if (chunks.length === 1) e = entriesOfUtf8(chunks[0]!);
  else {
    const b = new Utf8Builder(dict.length);
    for (const c of chunks) {
      const ce = entriesOfUtf8(c);
      for (let k = 0; k < ce.count; k++) {
        if (ce.valid !== null && ((ce.valid[k >> 3]! >> (k & 7)) & 1) === 0) b.appendNull();
        else b.appendBytes(ce.bytes, ce.offsets[k]!, ce.offsets[k + 1]!);
      }
    }
    e = entriesOfUtf8(b.finish());
  }
  flatDicts.set(dict, e);
  return e;
}

/** A byte-level view of a VARCHAR Data (Utf8, Dictionary<Utf8> or Null). */
export function strView(d: arrow.Data): StrView {
  const n = d.length;
  if (d.typeId === arrow.Type.Dictionary) {
    const dict = d.dictionary as arrow.Vector | undefined;
    if (dict === undefined) throw new InternalError('dictionary Data without a dictionary');
    const entries = dictionaryEntries(dict);
    const codes = d.values as Int32Array;
    let valid = validityOf(d);
    if (entries.valid !== null) {
      // NULL dictionary entries make their rows NULL.
      const ev = entries.valid;
      const dv = new Uint8Array(byteLength(n));
      for (let i = 0; i < n; i++) { const c = codes[i]!; if ((ev[c >> 3]! >> (c & 7)) & 1) dv[i >> 3]! |= 1 << (i & 7); }
      valid = andValidity(valid, dv, n);
    }
    return { entries, codes, valid, dictKey: dict, n };
  }
  const entries = entriesOfUtf8(d);
  return { entries, codes: null, valid: entries.valid, dictKey: null, n };
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** Decodes bytes[start, end) (ASCII inline, else TextDecoder). */
export function decodeUtf8(bytes: Uint8Array, start: number, end: number): string {
  if (end - start <= 24) {
    let s = '';
    for (let p = start; p < end; p++) {
      const c = bytes[p]!;
      if (c >= 0x80) return decoder.decode(bytes.subarray(start, end));
      s += String.fromCharCode(c);
    }
    return s;
  }
  return decoder.decode(bytes.subarray(start, end));
}

/** The UTF-8 bytes of a string. */
export function encodeUtf8(s: string): Uint8Array {
  return encoder.encode(s);
}

/** True when every byte in bytes[start, end) is ASCII. */
export function isAscii(bytes: Uint8Array, start: number, end: number): boolean {
  let acc = 0;
  for (let p = start; p < end; p++) acc |= bytes[p]!;
  return acc < 0x80;
}

/** Compares two byte ranges (UTF-8 code-point order): negative, 0 or positive. */
export function compareBytes(a: Uint8Array, as: number, ae: number, b: Uint8Array, bs: number, be: number): number {
  const la = ae - as;
  const lb = be - bs;
  const m = la < lb ? la : lb;
  for (let k = 0; k < m; k++) {
    const d = a[as + k]! - b[bs + k]!;
    if (d !== 0) return d;
  }
  return la - lb;
}

/** Builds a Utf8 Data row by row (append in row order). */
export class Utf8Builder {
  private offsets: Int32Array;
  private bytes: Uint8Array;
  private valid: Uint8Array | null = null;
  private pos = 0;
  private row = 0;

  constructor(private readonly n: number, byteHint = n * 8) {
    this.offsets = new Int32Array(n + 1);
    this.bytes = new Uint8Array(Math.max(16, byteHint));
  }

  private grow(extra: number): void {
    let cap = this.bytes.length * 2;
    while (cap < this.pos + extra) cap *= 2;
    const nb = new Uint8Array(cap);
    nb.set(this.bytes.subarray(0, this.pos));
    this.bytes = nb;
  }

  /** Appends src[start, end) as the next row. */
  appendBytes(src: Uint8Array, start: number, end: number): void {
    const len = end - start;
    if (this.pos + len > this.bytes.length) this.grow(len);
    const out = this.bytes;
    let p = this.pos;
    if (len > 32) out.set(src.subarray(start, end), p);
    else for (let k = start; k < end; k++) out[p++] = src[k]!;
    this.pos += len;
    this.offsets[++this.row] = this.pos;
  }

  /** Appends bytes to the current row without ending it (for concat). */
  pushBytes(src: Uint8Array, start: number, end: number): void {
    const len = end - start;
    if (this.pos + len > this.bytes.length) this.grow(len);
    const out = this.bytes;
    let p = this.pos;
    for (let k = start; k < end; k++) out[p++] = src[k]!;
    this.pos = p;
  }

  /** Appends src[start, end) mapped byte by byte through `table` (256 entries) as the next row. */
  appendMapped(src: Uint8Array, start: number, end: number, table: Uint8Array): void {
    const len = end - start;
    if (this.pos + len > this.bytes.length) this.grow(len);
    const out = this.bytes;
    let p = this.pos;
    for (let k = start; k < end; k++) out[p++] = table[src[k]!]!;
    this.pos = p;
    this.offsets[++this.row] = p;
  }

  /** Ends the current row (after pushBytes). */
  endRow(): void {
    this.offsets[++this.row] = this.pos;
  }

  /** Appends a JS string as the next row. */
  appendString(s: string): void {
    const len = s.length;
    if (this.pos + len * 3 > this.bytes.length) this.grow(len * 3);
    const out = this.bytes;
    let p = this.pos;
    let k = 0;
    for (; k < len; k++) {
      const c = s.charCodeAt(k);
      if (c >= 0x80) break;
      out[p++] = c;
    }
    if (k < len) p += encoder.encodeInto(s.slice(k), out.subarray(p)).written;
    this.pos = p;
    this.offsets[++this.row] = p;
  }

  /** Appends a NULL row. */
  appendNull(): void {
    if (this.valid === null) {
      this.valid = new Uint8Array(byteLength(this.n)).fill(0xff);
    }
    const i = this.row;
    this.valid[i >> 3]! &= ~(1 << (i & 7));
    this.offsets[++this.row] = this.pos;
  }

  /** The Utf8 Data of the n appended rows. */
  finish(): arrow.Data {
    if (this.row !== this.n) throw new InternalError(`Utf8Builder got ${this.row} rows, expected ${this.n}`);
    return makeUtf8(this.offsets, this.bytes.subarray(0, this.pos), this.valid, this.n);
  }
}

/**
 * String functions on UTF-8 bytes: upper, lower, trim, length, substring,
 * concat and `||`. Characters are code points (DuckDB's length/substring).
 * A dictionary column is transformed once per entry (cached per dictionary
 * identity) and expanded by code; results are plain Utf8.
 */
import type * as arrow from 'apache-arrow';
import type { Call } from '../../relnode/rex.js';
import { makeColumn } from './column.js';
import type { CompileContext, Kernel } from './context.js';
import { decodeUtf8, isAscii, strView, Utf8Builder, type StrView, type Utf8Entries } from './utf8.js';

/** Appends the transformed string bytes[s, e) to the builder as one row. */
export type StrFn = (bytes: Uint8Array, s: number, e: number, out: Utf8Builder) => void;

/** A string → string kernel; `fn` runs once per row, or once per dictionary entry. */
export function mapStrings(arg: Kernel, fn: StrFn): Kernel {
  const cache = new WeakMap<object, Utf8Entries>();
  return (batch) => {
    const n = batch.numRows;
    const v = strView(arg(batch));
    let src = v.entries;
    if (v.codes !== null) {
      const cached = cache.get(v.dictKey!);
      if (cached !== undefined) src = cached;
      else {
        const b = new Utf8Builder(src.count);
        for (let k = 0; k < src.count; k++) fn(src.bytes, src.offsets[k]!, src.offsets[k + 1]!, b);
        const d = b.finish();
        src = { offsets: d.valueOffsets, bytes: d.values as Uint8Array, valid: null, count: src.count };
        cache.set(v.dictKey!, src);
      }
      return expand(v, src, n);
    }
    const b = new Utf8Builder(n, src.offsets[n]! - src.offsets[0]!);
    const valid = v.valid;
    for (let i = 0; i < n; i++) {
      if (valid !== null && ((valid[i >> 3]! >> (i & 7)) & 1) === 0) b.appendNull();
      else fn(src.bytes, src.offsets[i]!, src.offsets[i + 1]!, b);
    }
    return b.finish();
  };
}

/** Rows of a dictionary column, with entries replaced by `src`, as plain Utf8. */
function expand(v: StrView, src: Utf8Entries, n: number): arrow.Data {
  const codes = v.codes!;
  const b = new Utf8Builder(n);
  const valid = v.valid;
  for (let i = 0; i < n; i++) {
    if (valid !== null && ((valid[i >> 3]! >> (i & 7)) & 1) === 0) { b.appendNull(); continue; }
    const c = codes[i]!;
    b.appendBytes(src.bytes, src.offsets[c]!, src.offsets[c + 1]!);
  }
  return b.finish();
}

const upperMap = new Map<number, string>();
const lowerMap = new Map<number, string>();

/** Per-code-point case mapping, like DuckDB's utf8proc: mappings that expand to several code points are not applied (ß uppercases to ẞ, İ lowercases to i). */
function caseMap(s: string, upper: boolean): string {
  const cache = upper ? upperMap : lowerMap;
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    let m = cache.get(c);
    if (m === undefined) {
      const t = upper ? ch.toUpperCase() : ch.toLowerCase();
      if ([...t].length === 1) m = t;
      else if (c === 0xdf) m = '\u1e9e';
      else if (c === 0x130) m = 'i';
      else m = ch;
      cache.set(c, m);
    }
    out += m;
  }
  return out;
}

function asciiTable(upper: boolean): Uint8Array {
  const t = new Uint8Array(256);
  for (let c = 0; c < 256; c++) t[c] = c;
  for (let c = 0x61; c <= 0x7a; c++) if (upper) t[c] = c - 0x20; else t[c - 0x20] = c;
  return t;
}

function caseFn(upper: boolean): StrFn {
  const table = asciiTable(upper);
  return (bytes, s, e, out) => {
    if (isAscii(bytes, s, e)) out.appendMapped(bytes, s, e, table);
    else out.appendString(caseMap(decodeUtf8(bytes, s, e), upper));
  };
}

/** trim: removes leading and trailing spaces (only U+0020, as DuckDB). */
const trimFn: StrFn = (bytes, s, e, out) => {
  while (s < e && bytes[s] === 0x20) s++;
  while (e > s && bytes[e - 1] === 0x20) e--;
  out.appendBytes(bytes, s, e);
};

/** Code points in bytes[s, e). */
function charLength(bytes: Uint8Array, s: number, e: number): number {
  let c = 0;
  for (let p = s; p < e; p++) if ((bytes[p]! & 0xc0) !== 0x80) c++;
  return c;
}

/** Byte position of the code point at char index `ci` (clamped to e). */
function charPos(bytes: Uint8Array, s: number, e: number, ci: number): number {
  let p = s;
  for (let c = 0; c < ci && p < e; c++) {
    p++;
    while (p < e && (bytes[p]! & 0xc0) === 0x80) p++;
  }
  return p;
}

/** DuckDB substring bounds: char range [start, end) of a string of `size` chars, for 1-based `offset` and optional `len`. */
export function substringRange(size: number, offset: number, len: number | null): [number, number] {
  let start = offset > 0 ? offset - 1 : offset < 0 ? size + offset : -1;
  let end: number;
  if (len === null) end = size;
  else if (len >= 0) end = start + len;
  else { end = start; start += len; }
  start = Math.min(Math.max(start, 0), size);
  end = Math.min(Math.max(end, 0), size);
  return start < end ? [start, end] : [0, 0];
}

function appendSubstring(bytes: Uint8Array, s: number, e: number, offset: number, len: number | null, out: Utf8Builder): void {
  const ascii = isAscii(bytes, s, e);
  const size = ascii ? e - s : charLength(bytes, s, e);
  const [a, b] = substringRange(size, offset, len);
  if (a === b) { out.appendBytes(bytes, s, s); return; }
  if (ascii) { out.appendBytes(bytes, s + a, s + b); return; }
  const pa = charPos(bytes, s, e, a);
  out.appendBytes(bytes, pa, charPos(bytes, pa, e, b - a));
}

/** Compiles upper, lower, trim, length, substring, concat and concat_op. */
export function compileStringFn(e: Call, ctx: CompileContext): Kernel {
  const arg0 = ctx.compile(e.args[0]!);
  switch (e.op) {
    case 'upper': return mapStrings(arg0, caseFn(true));
    case 'lower': return mapStrings(arg0, caseFn(false));
    case 'trim': return mapStrings(arg0, trimFn);
    case 'length': return compileLength(arg0);
    case 'substring': return compileSubstring(e, arg0, ctx);
    case 'concat': case 'concat_op': return compileConcat(e, ctx);
    default: throw new Error(`not a string function: ${e.op}`);
  }
}

function compileLength(arg: Kernel): Kernel {
  const cache = new WeakMap<object, Int32Array>();
  return (batch) => {
    const n = batch.numRows;
    const v = strView(arg(batch));
    const { bytes, offsets } = v.entries;
    const out = new Int32Array(n);
    if (v.codes !== null) {
      let lens = cache.get(v.dictKey!);
      if (lens === undefined) {
        lens = new Int32Array(v.entries.count);
        for (let k = 0; k < lens.length; k++) lens[k] = charLength(bytes, offsets[k]!, offsets[k + 1]!);
        cache.set(v.dictKey!, lens);
      }
      const codes = v.codes;
      for (let i = 0; i < n; i++) out[i] = lens[codes[i]!]!;
    } else {
      for (let i = 0; i < n; i++) out[i] = charLength(bytes, offsets[i]!, offsets[i + 1]!);
    }
    return makeColumn('INTEGER', out, v.valid, n);
  };
}

function compileSubstring(e: Call, arg: Kernel, ctx: CompileContext): Kernel {
  const [, start, len] = e.args;
  const litInt = (x: typeof start): number | null | undefined => (x === undefined ? null : x.kind === 'Literal' && typeof x.value === 'number' ? x.value : undefined);
  const ls = litInt(start), ll = litInt(len);
  if (ls !== undefined && ls !== null && ll !== undefined) {
    return mapStrings(arg, (bytes, s, en, out) => appendSubstring(bytes, s, en, ls, ll, out));
  }
  // Start or length per row.
  const ks = ctx.compile(start!);
  const kl = len === undefined ? null : ctx.compile(len);
  return (batch) => {
    const n = batch.numRows;
    const v = strView(arg(batch));
    const ds = ks(batch), dl = kl === null ? null : kl(batch);
    const sv = ds.values as Int32Array, lv = dl === null ? null : (dl.values as Int32Array);
    const b = new Utf8Builder(n);
    const { bytes, offsets } = v.entries;
    for (let i = 0; i < n; i++) {
      if (!rowValid(v.valid, i) || !dataValid(ds, i) || (dl !== null && !dataValid(dl, i))) { b.appendNull(); continue; }
      const k = v.codes === null ? i : v.codes[i]!;
      appendSubstring(bytes, offsets[k]!, offsets[k + 1]!, sv[i]!, lv === null ? null : lv[i]!, b);
    }
    return b.finish();
  };
}

function rowValid(valid: Uint8Array | null, i: number): boolean {
  return valid === null || ((valid[i >> 3]! >> (i & 7)) & 1) !== 0;
}

function dataValid(d: arrow.Data, i: number): boolean {
  if (d.nullCount === 0) return true;
  const bm = d.nullBitmap;
  if (bm === undefined || bm.length === 0) return false;
  const j = d.offset + i;
  return ((bm[j >> 3]! >> (j & 7)) & 1) !== 0;
}

/** concat: NULL arguments count as ''; never NULL. concat_op (`||`): NULL if any argument is NULL. */
function compileConcat(e: Call, ctx: CompileContext): Kernel {
  const args = e.args.map((a) => ctx.compile(a));
  const nullIfAny = e.op === 'concat_op';
  return (batch) => {
    const n = batch.numRows;
    const views = args.map((k) => strView(k(batch)));
    const b = new Utf8Builder(n);
    for (let i = 0; i < n; i++) {
      if (nullIfAny && views.some((v) => !rowValid(v.valid, i))) { b.appendNull(); continue; }
      for (const v of views) {
        if (!rowValid(v.valid, i)) continue;
        const k = v.codes === null ? i : v.codes[i]!;
        b.pushBytes(v.entries.bytes, v.entries.offsets[k]!, v.entries.offsets[k + 1]!);
      }
      b.endRow();
    }
    return b.finish();
  };
}

/**
 * The vectorised regexp_* kernels for a constant pattern (and options /
 * replacement / group): the pattern is compiled once per kernel, and each
 * batch's Utf8 column is read straight from its offsets and bytes. A row of
 * only ASCII bytes is matched on the bytes themselves (byte = code point, so
 * match positions are byte offsets); other rows are decoded into one reused
 * code-point buffer. regexp_matches / regexp_full_match run the allocation-
 * free RegexTester (prefix skip, ASCII tables). regexp_replace and
 * regexp_extract first run the same cheap test: a row without a match keeps
 * its bytes (replace) or gives '' (extract) without any capture work; only
 * matching rows run the capturing VM (regex-exec.ts). A replacement of one
 * character class by plain text is a byte loop on ASCII rows. Other column encodings (dictionary)
 * fall back to the row-at-a-time kernel.
 */
import * as arrow from 'apache-arrow';
import type { LiteralValue } from '../../relnode/rex.js';
import { byteLength } from './bitmap.js';
import { makeColumn } from './column.js';
import type { Kernel } from './context.js';
import { compilePattern, extractFrom, fullMatchPattern, groupOf, parseOptions, replaceAll } from './regex-ops.js';
import { RegexMatcher } from './regex-exec.js';
import { RegexTester } from './regex-test.js';
import { Utf8Builder } from './utf8.js';

/** Code points of bytes[s, e) (valid UTF-8) into `out` (grown as needed); returns the buffer and the count. */
function decodeInto(bytes: Uint8Array, s: number, e: number, out: Int32Array): [Int32Array, number] {
  if (out.length < e - s) out = new Int32Array(Math.max(e - s, out.length * 2));
  let n = 0;
  for (let i = s; i < e;) {
    const b = bytes[i]!;
    let c: number;
    if (b < 0x80) { c = b; i++; }
    else if (b < 0xe0) { c = ((b & 0x1f) << 6) | (bytes[i + 1]! & 0x3f); i += 2; }
    else if (b < 0xf0) { c = ((b & 0x0f) << 12) | ((bytes[i + 1]! & 0x3f) << 6) | (bytes[i + 2]! & 0x3f); i += 3; }
    else { c = ((b & 0x07) << 18) | ((bytes[i + 1]! & 0x3f) << 12) | ((bytes[i + 2]! & 0x3f) << 6) | (bytes[i + 3]! & 0x3f); i += 4; }
    out[n++] = c;
  }
  return [out, n];
}

function isAscii(bytes: Uint8Array, s: number, e: number): boolean {
  for (let i = s; i < e; i++) if (bytes[i]! >= 0x80) return false;
  return true;
}

/** Per-row text access: the row as ASCII bytes or decoded code points (a view, valid until the next row). */
class Texts {
  private cps: Int32Array = new Int32Array(256);
  ascii = true;
  at(bytes: Uint8Array, s: number, e: number): ArrayLike<number> {
    this.ascii = isAscii(bytes, s, e);
    if (this.ascii) return bytes.subarray(s, e);
    const [buf, n] = decodeInto(bytes, s, e, this.cps);
    this.cps = buf;
    return buf.subarray(0, n);
  }
}

const validAt = (d: arrow.Data, i: number): boolean => {
  if (d.nullCount === 0) return true;
  const j = d.offset + i;
  return ((d.nullBitmap![j >> 3]! >> (j & 7)) & 1) === 1;
};

/** A batch kernel for `fn` with constant arguments `rest` after the text; `generic` handles other encodings. */
export function regexBatchKernel(fn: string, text: Kernel, rest: readonly LiteralValue[], generic: Kernel): Kernel {
  const texts = new Texts();
  const row = (f: (d: arrow.Data, bytes: Uint8Array, i: number, s: number, e: number) => void) => (batch: arrow.RecordBatch): arrow.Data | null => {
    const d = text(batch);
    if (d.typeId !== arrow.Type.Utf8) return null;
    const o = d.valueOffsets, bytes = d.values as Uint8Array;
    for (let i = 0; i < batch.numRows; i++) f(d, bytes, i, o[i]!, o[i + 1]!);
    return d;
  };
  if (fn === 'regexp_matches' || fn === 'regexp_full_match') {
    const full = fn === 'regexp_full_match';
    const re = compilePattern(full ? fullMatchPattern(String(rest[0])) : String(rest[0]), parseOptions(fn, rest[1]));
    const tester = new RegexTester(re);
    return (batch) => {
      const n = batch.numRows;
      const bits = new Uint8Array(byteLength(n));
      const valid = new Uint8Array(byteLength(n)).fill(0xff);
      let nulls = 0;
      const d = row((col, bytes, i, s, e) => {
        if (!validAt(col, i)) { valid[i >> 3]! &= ~(1 << (i & 7)); nulls++; return; }
        if (tester.test(texts.at(bytes, s, e), full)) bits[i >> 3]! |= 1 << (i & 7);
      })(batch);
      if (d === null) return generic(batch);
      return makeColumn('BOOLEAN', bits, nulls === 0 ? null : valid, n);
    };
  }
  const extract = fn === 'regexp_extract';
  const opts = parseOptions(fn, extract ? undefined : rest[2]);
  const re = compilePattern(String(rest[0]), opts);
  const tester = new RegexTester(re);
  const matcher = new RegexMatcher(re);
  const group = extract ? groupOf(rest[1], re) : 0;
  const repl = extract ? '' : String(rest[1]);
  // regexp_replace of one character class by a plain replacement (`[aeiou]` → '_'): a byte loop on ASCII rows, no VM.
  const p = re.prog;
  const oneChar = !extract && re.groups === 0 && p.length === 4 && p[1]!.op === 'char' && !repl.includes('\\') ? (p[1] as { ascii: Uint8Array }).ascii : null;
  const replBytes = Buffer.from(repl, 'utf8');
  return (batch) => {
    const out = new Utf8Builder(batch.numRows);
    const d = row((col, bytes, i, s, e) => {
      if (!validAt(col, i)) { out.appendNull(); return; }
      const t = texts.at(bytes, s, e);
      if (oneChar !== null && texts.ascii) {
        let from = s;
        for (let k = s; k < e; k++) {
          if (oneChar[bytes[k]!] !== 1) continue;
          out.pushBytes(bytes, from, k);
          out.pushBytes(replBytes, 0, replBytes.length);
          from = k + 1;
          if (!opts.global) break;
        }
        out.pushBytes(bytes, from, e);
        out.endRow();
        return;
      }
      if (!tester.test(t)) {
        if (extract) out.appendString('');
        else out.appendBytes(bytes, s, e);
        return;
      }
      out.appendString(extract ? extractFrom(matcher, t, group) : replaceAll(matcher, t, repl, opts.global));
    })(batch);
    return d === null ? generic(batch) : out.finish();
  };
}

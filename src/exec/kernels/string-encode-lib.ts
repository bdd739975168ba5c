/**
 * One string in, one string out, computed from the UTF-8 bytes: hashes
 * (md5, sha1, sha256 as lower-case hex, through node:crypto), hex / bin of
 * the bytes, to_base64, url_encode / url_decode (RFC 3986: only
 * A-Z a-z 0-9 - _ . ~ stay), strip_accents and nfc_normalize. Decision:
 * they go through string-fns.ts's mapStrings, so a dictionary-encoded column
 * computes each distinct entry once (a hash costs ~1 µs; a low-cardinality
 * column pays it per entry, not per row).
 */
import { createHash } from 'node:crypto';
import { ExecutionError } from '../../relnode/errors.js';
import type { Call } from '../../relnode/rex.js';
import type { CallCompiler } from './context.js';
import { mapStrings, type StrFn } from './string-fns.js';

const HEX = '0123456789ABCDEF';

const hash = (alg: string): StrFn => (bytes, s, e, out) => out.appendString(createHash(alg).update(bytes.subarray(s, e)).digest('hex'));

/** Two upper-case hex digits per byte (DuckDB's hex of a string). */
const hexBytes: StrFn = (bytes, s, e, out) => {
  let r = '';
  for (let p = s; p < e; p++) r += HEX[bytes[p]! >> 4]! + HEX[bytes[p]! & 15]!;
  out.appendString(r);
};

/** Eight binary digits per byte. */
const binBytes: StrFn = (bytes, s, e, out) => {
  let r = '';
  for (let p = s; p < e; p++) r += bytes[p]!.toString(2).padStart(8, '0');
  out.appendString(r);
};

const isUnreserved = (c: number): boolean =>
  (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x2d || c === 0x2e || c === 0x5f || c === 0x7e;

const urlEncode: StrFn = (bytes, s, e, out) => {
  let r = '';
  for (let p = s; p < e; p++) {
    const c = bytes[p]!;
    r += isUnreserved(c) ? String.fromCharCode(c) : '%' + HEX[c >> 4]! + HEX[c & 15]!;
  }
  out.appendString(r);
};

const hexValue = (c: number): number => (c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x41 && c <= 0x46 ? c - 0x37 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1);
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** %XX becomes the byte XX; a % not followed by two hex digits, and '+', stay as they are (DuckDB). */
const urlDecode: StrFn = (bytes, s, e, out) => {
  const r = new Uint8Array(e - s);
  let n = 0;
  for (let p = s; p < e; p++) {
    const hi = bytes[p] === 0x25 && p + 2 < e ? hexValue(bytes[p + 1]!) : -1;
    const lo = hi >= 0 ? hexValue(bytes[p + 2]!) : -1;
    if (lo >= 0) { r[n++] = hi * 16 + lo; p += 2; } else r[n++] = bytes[p]!;
  }
  let text: string;
  try { text = strictUtf8.decode(r.subarray(0, n)); } catch {
    throw new ExecutionError(`url_decode: the decoded bytes of "${new TextDecoder().decode(bytes.subarray(s, e))}" are not valid UTF-8`);
  }
  out.appendString(text);
};

const toBase64: StrFn = (bytes, s, e, out) => out.appendString(Buffer.from(bytes.buffer, bytes.byteOffset + s, e - s).toString('base64'));

const decoder = new TextDecoder();
const text = (f: (s: string) => string): StrFn => (bytes, s, e, out) => out.appendString(f(decoder.decode(bytes.subarray(s, e))));

/** Decomposes, drops combining marks (Unicode category M), recomposes: 'Ångström' → 'Angstrom'. */
const stripAccents = text((s) => s.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC'));

const FNS: Readonly<Record<string, StrFn>> = {
  md5: hash('md5'),
  sha1: hash('sha1'),
  sha256: hash('sha256'),
  to_base64: toBase64,
  url_encode: urlEncode,
  url_decode: urlDecode,
  strip_accents: stripAccents,
  nfc_normalize: text((s) => s.normalize('NFC')),
  hex: hexBytes,
  bin: binBytes,
};

/** The ids compiled here (hex and bin only with a VARCHAR argument: int-lib.ts compiles them for integers). */
export const STRING_ENCODE_IDS: readonly string[] = Object.keys(FNS).filter((k) => k !== 'hex' && k !== 'bin');

/** Compiles one of STRING_ENCODE_IDS, or hex / bin of a VARCHAR. */
export const compileStringEncode: CallCompiler = (e: Call, ctx) => mapStrings(ctx.compile(e.args[0]!), FNS[e.op]!);

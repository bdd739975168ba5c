/**
 * The three spellings of a SQL string literal, matched as one token type
 * (StringLit) so that every place the grammar takes a string takes all three,
 * as in PostgreSQL and DuckDB:
 *   'text'            standard: `''` is a quote, a backslash is a backslash;
 *   E'text'           escape string: backslash escapes (PostgreSQL's set, below), `''` is still a quote;
 *   $$text$$, $tag$text$tag$   dollar-quoted: no escapes at all, may hold quotes and line breaks.
 * A tag is a letter or underscore then letters, digits and underscores (so `$1` stays a parameter), and is
 * case-sensitive. Escapes are PostgreSQL's, which DuckDB shares: \b \f \n \r \t, \o \oo \ooo (octal byte),
 * \xh \xhh (hex byte), \uXXXX and \UXXXXXXXX (code points, surrogate pairs joined), any other character
 * after a backslash stands for itself. Escaped bytes must spell UTF-8 text (PostgreSQL checks the same; DuckDB
 * answers "NOT IMPLEMENTED" for bytes ≥ 0x80, for \0 and for \u escapes, which eddy follows PostgreSQL on).
 * The lexer validates escape strings as it tokenizes (the error points at the bad escape); decoding cannot
 * fail afterwards.
 */
import { InternalError } from '../relnode/errors.js';

/** An invalid escape inside an E'...' literal: `offset`/`length` locate it within the token's text. */
export interface EscapeProblem {
  readonly offset: number;
  readonly length: number;
  readonly message: string;
}

const PLAIN = /'[^']*(?:''[^']*)*'/y;
const ESCAPE = /[eE]'(?:[^'\\]|''|\\[^])*'/y;
const DOLLAR_OPEN = /\$(?:[A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/y;

/** The first characters a string literal can start with (chevrotain's `start_chars_hint`). */
export const STRING_START_CHARS: readonly string[] = ["'", 'e', 'E', '$'];

/** chevrotain custom pattern: the string literal starting at `offset`, or null. */
export function matchStringLiteral(text: string, offset: number): RegExpExecArray | null {
  const c = text.charCodeAt(offset);
  if (c === 39 /* ' */) return sticky(PLAIN, text, offset);
  if (c === 36 /* $ */) {
    const open = sticky(DOLLAR_OPEN, text, offset);
    if (open === null) return null;
    const delim = open[0];
    const close = text.indexOf(delim, offset + delim.length);
    if (close < 0) return null;
    return execArray(text.slice(offset, close + delim.length));
  }
  return sticky(ESCAPE, text, offset);
}

function sticky(re: RegExp, text: string, offset: number): RegExpExecArray | null {
  re.lastIndex = offset;
  return re.exec(text);
}

function execArray(image: string): RegExpExecArray {
  return [image] as unknown as RegExpExecArray;
}

/** The value of a string literal token's text (any of the three spellings); escapes must be valid (`escapeProblem`). */
export function decodeStringLiteral(image: string): string {
  const c = image.charCodeAt(0);
  if (c === 39) return image.length === 2 ? '' : image.slice(1, -1).replace(/''/g, "'");
  if (c === 36) {
    const tagEnd = image.indexOf('$', 1) + 1;
    return image.slice(tagEnd, image.length - tagEnd);
  }
  const r = unescape(image);
  // The lexer rejected invalid escapes with a caret (escapeProblem): one here is an engine bug.
  if (typeof r !== 'string') throw new InternalError(`an escape string literal reached decoding with an invalid escape: ${image}: ${r.message}`);
  return r;
}

/** The first invalid escape of an E'...' literal's text, or undefined (always undefined for the other spellings). */
export function escapeProblem(image: string): EscapeProblem | undefined {
  const c = image.charCodeAt(0);
  if (c === 39 || c === 36 || !image.includes('\\')) return undefined;
  const r = unescape(image);
  return typeof r === 'string' ? undefined : r;
}

/** Decodes a run of escaped bytes; throws on bytes that are not UTF-8. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

const SIMPLE: Readonly<Record<string, string>> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const HEX = /[0-9A-Fa-f]/;

/** Decodes `E'...'` (the whole token text) or returns the first problem. */
function unescape(image: string): string | EscapeProblem {
  const end = image.length - 1; // the closing quote
  let out = '';
  let bytes: number[] = [];
  let bytesAt = 0;
  const flush = (at: number): EscapeProblem | undefined => {
    if (bytes.length === 0) return undefined;
    const run = image.slice(bytesAt, at);
    if (bytes.includes(0)) return { offset: bytesAt, length: at - bytesAt, message: `invalid escape "${run}": a string cannot hold the NUL character (code 0)` };
    try {
      out += UTF8.decode(Uint8Array.from(bytes));
    } catch {
      return { offset: bytesAt, length: at - bytesAt, message: `invalid byte sequence "${run}": escaped bytes (\\xHH, \\ooo) must spell UTF-8 characters; write a character as \\uXXXX` };
    }
    bytes = [];
    return undefined;
  };
  let i = 2;
  while (i < end) {
    const ch = image[i]!;
    if (ch === "'") { // '' inside (the pattern admits no lone quote)
      const p = flush(i);
      if (p !== undefined) return p;
      out += "'";
      i += 2;
      continue;
    }
    if (ch !== '\\') {
      const p = flush(i);
      if (p !== undefined) return p;
      out += ch;
      i++;
      continue;
    }
    const e = image[i + 1]!;
    if (e >= '0' && e <= '7') {
      let j = i + 2;
      while (j < i + 4 && j < end && image[j]! >= '0' && image[j]! <= '7') j++;
      if (bytes.length === 0) bytesAt = i;
      bytes.push(parseInt(image.slice(i + 1, j), 8) & 0xff);
      i = j;
      continue;
    }
    if (e === 'x' && HEX.test(image[i + 2] ?? '')) {
      const j = i + 3 < end && HEX.test(image[i + 3]!) ? i + 4 : i + 3;
      if (bytes.length === 0) bytesAt = i;
      bytes.push(parseInt(image.slice(i + 2, j), 16));
      i = j;
      continue;
    }
    const p = flush(i);
    if (p !== undefined) return p;
    if (e === 'u' || e === 'U') {
      const u = codePoint(image, i, end);
      if ('message' in u) return u;
      out += String.fromCodePoint(u.value);
      i = u.next;
      continue;
    }
    out += SIMPLE[e] ?? e;
    i += 2;
  }
  return flush(end) ?? out;
}

/** One `\uXXXX` / `\UXXXXXXXX` escape at `i` (a surrogate pair counts as one), or its problem. */
function codePoint(image: string, i: number, end: number): { value: number; next: number } | EscapeProblem {
  const one = (at: number): { value: number; next: number } | EscapeProblem => {
    const digits = image[at + 1] === 'u' ? 4 : 8;
    const hex = image.slice(at + 2, Math.min(at + 2 + digits, end));
    if (hex.length < digits || !/^[0-9A-Fa-f]+$/.test(hex)) {
      const len = 2 + (hex.match(/^[0-9A-Fa-f]*/)?.[0].length ?? 0);
      return { offset: at, length: len, message: `invalid Unicode escape "${image.slice(at, at + len)}": Unicode escapes must be \\uXXXX or \\UXXXXXXXX (4 or 8 hex digits)` };
    }
    return { value: parseInt(hex, 16), next: at + 2 + digits };
  };
  const first = one(i);
  if ('message' in first) return first;
  const text = image.slice(i, first.next);
  if (first.value >= 0xdc00 && first.value <= 0xdfff) return pairProblem(i, text);
  if (first.value >= 0xd800 && first.value <= 0xdbff) {
    if (image[first.next] !== '\\' || (image[first.next + 1] !== 'u' && image[first.next + 1] !== 'U')) return pairProblem(i, text);
    const second = one(first.next);
    if ('message' in second) return second;
    if (second.value < 0xdc00 || second.value > 0xdfff) return pairProblem(i, image.slice(i, second.next));
    return { value: 0x10000 + ((first.value - 0xd800) << 10) + (second.value - 0xdc00), next: second.next };
  }
  if (first.value === 0 || first.value > 0x10ffff) {
    return { offset: i, length: text.length, message: `invalid Unicode escape value "${text}": code points run from \\u0001 to \\U0010FFFF` };
  }
  return first;
}

function pairProblem(offset: number, text: string): EscapeProblem {
  return { offset, length: text.length, message: `invalid Unicode surrogate pair "${text}": a high surrogate \\uD800–\\uDBFF must be followed by a low one \\uDC00–\\uDFFF` };
}

/**
 * The function library's string functions (DuckDB semantics), row by row
 * through rowwise.ts. Characters are code points, as in eddy's length and
 * substring: `reverse`, `left`, `right`, `lpad`, `strpos` count and cut code
 * points (DuckDB reverses grapheme clusters; the two differ only on combining
 * sequences and emoji joiners; length_grapheme counts grapheme clusters).
 * strlen and bit_length count UTF-8 bytes; the edit distances are
 * string-distance.ts's; uuid() is a random version-4 UUID as text (eddy has
 * no UUID type).
 */
import { randomUUID } from 'node:crypto';
import { ExecutionError } from '../../relnode/errors.js';
import type { Call, LiteralValue } from '../../relnode/rex.js';
import type { CallCompiler, Kernel } from './context.js';
import { rowKernel, type RowFn } from './rowwise.js';
import { DISTANCE_FNS } from './string-distance.js';

const chars = (s: string): string[] => Array.from(s);

/**
 * The longest text a function here builds (V8's limit on a string's length, in UTF-16 code units).
 * Past it, `String.repeat` throws a RangeError (an engine failure naming the operator): the length is
 * checked before anything is built.
 */
export const MAX_TEXT_LENGTH = 536_870_888;

/** An error for `fn` building a text of `length` code units, past MAX_TEXT_LENGTH. */
function tooLong(fn: string, length: number): ExecutionError {
  return new ExecutionError(`${fn}: the result would be ${length} characters long, more than the ${MAX_TEXT_LENGTH} a text value can hold`);
}

function pad(left: boolean): RowFn {
  return ([s, n, p]) => {
    const cs = chars(s as string);
    const len = Number(n);
    if (len <= 0) return '';
    if (cs.length >= len) return cs.slice(0, len).join('');
    const ps = chars(p as string);
    if (ps.length === 0) throw new ExecutionError(`insufficient padding in ${left ? 'LPAD' : 'RPAD'}: the padding string is empty`);
    // Whole copies of the padding, then its first characters: no array of one entry per character.
    const k = len - cs.length;
    const whole = Math.floor(k / ps.length);
    const tail = ps.slice(0, k % ps.length).join('');
    const length = (s as string).length + whole * (p as string).length + tail.length;
    if (length > MAX_TEXT_LENGTH) throw tooLong(left ? 'lpad' : 'rpad', length);
    const fill = (p as string).repeat(whole) + tail;
    return left ? fill + (s as string) : (s as string) + fill;
  };
}

function trimSet(s: string, set: string | null, leading: boolean, trailing: boolean): string {
  const cs = chars(s);
  const drop = (c: string): boolean => (set === null ? c === ' ' : set.includes(c));
  let a = 0, b = cs.length;
  if (leading) while (a < b && drop(cs[a]!)) a++;
  if (trailing) while (b > a && drop(cs[b - 1]!)) b--;
  return cs.slice(a, b).join('');
}

/** split_part(s, sep, i): the i-th part (1-based; negative counts from the end); '' when out of range. An empty separator splits into characters. */
export function splitPart(s: string, sep: string, i: number): string {
  const parts = sep === '' ? chars(s) : s.split(sep);
  if (sep === '' && s === '') parts.push('');
  const k = i > 0 ? i - 1 : i < 0 ? parts.length + i : -1;
  return k >= 0 && k < parts.length ? parts[k]! : '';
}

/** translate(s, from, to): each character of `from` becomes the character of `to` at its (first) position, or is removed when `to` is shorter. */
function translate(s: string, from: string, to: string): string {
  const f = chars(from), t = chars(to);
  let out = '';
  for (const c of s) {
    const k = f.indexOf(c);
    out += k < 0 ? c : k < t.length ? t[k]! : '';
  }
  return out;
}

const utf8 = new TextEncoder();
let graphemes: Intl.Segmenter | undefined;

/** concat_ws(sep, ...): the non-NULL arguments joined by `sep`; NULL when `sep` is. */
const concatWs: RowFn = ([sep, ...rest]) => (sep === null ? null : rest.filter((v) => v !== null).join(sep as string));

const FNS: Readonly<Record<string, RowFn>> = {
  replace: ([s, f, t]) => ((f as string) === '' ? s : (s as string).split(f as string).join(t as string)),
  split_part: ([s, sep, i]) => splitPart(s as string, sep as string, Number(i)),
  starts_with: ([s, p]) => (s as string).startsWith(p as string),
  ends_with: ([s, p]) => (s as string).endsWith(p as string),
  contains: ([s, p]) => (s as string).includes(p as string),
  lpad: pad(true),
  rpad: pad(false),
  repeat: ([s, n]) => {
    const count = Number(n);
    if (count <= 0) return '';
    const length = (s as string).length * count;
    if (length > MAX_TEXT_LENGTH) throw tooLong('repeat', length);
    return (s as string).repeat(count);
  },
  reverse: ([s]) => chars(s as string).reverse().join(''),
  strpos: ([s, sub]) => {
    const at = (s as string).indexOf(sub as string);
    return BigInt(at < 0 ? 0 : chars((s as string).slice(0, at)).length + 1);
  },
  left: ([s, n]) => { const cs = chars(s as string); const k = Number(n); return (k >= 0 ? cs.slice(0, k) : cs.slice(0, Math.max(0, cs.length + k))).join(''); },
  right: ([s, n]) => { const cs = chars(s as string); const k = Number(n); return (k >= 0 ? cs.slice(Math.max(0, cs.length - k)) : cs.slice(Math.min(cs.length, -k))).join(''); },
  ltrim: ([s, set]) => trimSet(s as string, (set as string | undefined) ?? null, true, false),
  rtrim: ([s, set]) => trimSet(s as string, (set as string | undefined) ?? null, false, true),
  trim_chars: ([s, set]) => trimSet(s as string, set as string, true, true),
  ascii: ([s]) => (s as string).codePointAt(0) ?? 0,
  chr: ([n]) => {
    const c = Number(n);
    if (c < 0 || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) throw new ExecutionError(`chr(${c}): not a valid Unicode code point`);
    return String.fromCodePoint(c);
  },
  unicode: ([s]) => (s as string).codePointAt(0) ?? -1,
  translate: ([s, f, t]) => translate(s as string, f as string, t as string),
  concat_ws: concatWs,
  strlen: ([s]) => BigInt(utf8.encode(s as string).length),
  bit_length: ([s]) => BigInt(utf8.encode(s as string).length * 8),
  length_grapheme: ([s]) => {
    graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
    let n = 0;
    for (const _ of graphemes.segment(s as string)) n++;
    return BigInt(n);
  },
  uuid: () => randomUUID(),
  ...DISTANCE_FNS,
};

/** The ids compiled here. */
export const STRING_LIB_IDS: readonly string[] = Object.keys(FNS);

/** concat_ws sees NULL arguments (it skips them); every other function here is NULL on a NULL argument. */
export const STRING_NON_STRICT: readonly string[] = ['concat_ws'];

/** Compiles one of STRING_LIB_IDS. */
export const compileStringLib: CallCompiler = (e: Call, ctx) => {
  const fn = FNS[e.op]!;
  const args: Kernel[] = e.args.map((a) => ctx.compile(a));
  return rowKernel(args, e.type, fn as (a: LiteralValue[]) => LiteralValue, !STRING_NON_STRICT.includes(e.op));
};

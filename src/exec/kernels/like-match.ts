/**
 * LIKE matching without backtracking. A pattern is split at its unescaped `%`
 * into segments; a segment is a fixed number of characters (literals and `_`
 * wildcards), so where it matches from a start position is determined by that
 * position. The first segment is matched at the start, the last one backwards
 * from the end, and each middle one at its leftmost place after the previous
 * one: leftmost-first is optimal for `%`-separated fixed-width segments, so
 * no choice is ever revisited. Cost is O(n·m) in the worst case (n string
 * bytes, m pattern characters) and O(n) for the common forms (exact, prefix,
 * suffix, contains, literal segments), all on UTF-8 bytes: `_` steps over one
 * whole UTF-8 character, never one byte. No user pattern becomes a RegExp
 * (a backtracking regex is exponential on patterns like `%e%e%e%_#`).
 *
 * ILIKE folds the string and the pattern to lower case per code point first
 * (as DuckDB does); ASCII strings are folded byte by byte without decoding.
 * ESCAPE makes the next character literal; a pattern ending in the escape
 * character is an error, as in PostgreSQL (DuckDB matches nothing). Under
 * ILIKE the escape is found case-insensitively too (ESCAPE 'x' and 'X' both
 * escape at an x or an X): DuckDB folds the pattern before looking for the
 * escape, so a lower-case escape behaves the same there, but its upper-case
 * escape never matches the folded pattern and is silently ignored.
 */
import { ValidationError } from '../../relnode/errors.js';
import { decodeUtf8, encodeUtf8 } from './utf8.js';

/** A LIKE test on the UTF-8 bytes bytes[s, e). */
export type LikeMatcher = (bytes: Uint8Array, s: number, e: number) => boolean;

/** One run of literal bytes preceded by `skip` single-character wildcards. */
interface Piece {
  readonly skip: number;
  readonly lit: Uint8Array;
}

/** A `%`-free part of a pattern: pieces, then `trail` more wildcards. */
interface Segment {
  readonly pieces: readonly Piece[];
  readonly trail: number;
  /** No wildcard at all: one literal (possibly empty). */
  readonly literal: Uint8Array | null;
}

/** Options of one LIKE: case folding (ILIKE) and the escape character ('' for none). */
export interface LikeOptions {
  readonly caseInsensitive?: boolean;
  readonly escape?: string;
}

/** Position after the UTF-8 character starting at p (continuation bytes skipped). */
function nextChar(bytes: Uint8Array, p: number, end: number): number {
  p++;
  while (p < end && (bytes[p]! & 0xc0) === 0x80) p++;
  return p;
}

/** Start of the UTF-8 character ending just before p. */
function prevChar(bytes: Uint8Array, p: number, start: number): number {
  p--;
  while (p > start && (bytes[p]! & 0xc0) === 0x80) p--;
  return p;
}

function startsAt(bytes: Uint8Array, p: number, seg: Uint8Array): boolean {
  for (let k = 0; k < seg.length; k++) if (bytes[p + k] !== seg[k]) return false;
  return true;
}

/** Index of seg in bytes[from, to), or -1. */
function indexOf(bytes: Uint8Array, from: number, to: number, seg: Uint8Array): number {
  if (seg.length === 0) return from <= to ? from : -1;
  const last = to - seg.length;
  const first = seg[0]!;
  for (let p = from; p <= last; p++) if (bytes[p] === first && startsAt(bytes, p, seg)) return p;
  return -1;
}

/** Where `seg` ends when matched forwards from p within [p, end), or -1. */
function matchForward(bytes: Uint8Array, p: number, end: number, seg: Segment): number {
  for (const pc of seg.pieces) {
    for (let k = 0; k < pc.skip; k++) { if (p >= end) return -1; p = nextChar(bytes, p, end); }
    if (p + pc.lit.length > end || !startsAt(bytes, p, pc.lit)) return -1;
    p += pc.lit.length;
  }
  for (let k = 0; k < seg.trail; k++) { if (p >= end) return -1; p = nextChar(bytes, p, end); }
  return p;
}

/** Where `seg` starts when matched backwards so that it ends at e, not before `start`, or -1. */
function matchBackward(bytes: Uint8Array, start: number, e: number, seg: Segment): number {
  let p = e;
  for (let k = 0; k < seg.trail; k++) { if (p <= start) return -1; p = prevChar(bytes, p, start); }
  for (let i = seg.pieces.length - 1; i >= 0; i--) {
    const pc = seg.pieces[i]!;
    p -= pc.lit.length;
    if (p < start || !startsAt(bytes, p, pc.lit)) return -1;
    for (let k = 0; k < pc.skip; k++) { if (p <= start) return -1; p = prevChar(bytes, p, start); }
  }
  return p;
}

/** End of the leftmost match of `seg` starting in [from, end), or -1. */
function findForward(bytes: Uint8Array, from: number, end: number, seg: Segment): number {
  if (seg.literal !== null) {
    const at = indexOf(bytes, from, end, seg.literal);
    return at < 0 ? -1 : at + seg.literal.length;
  }
  const first = seg.pieces[0];
  const jump = first !== undefined && first.skip === 0 ? first.lit : null;
  for (let p = from; p < end; p = nextChar(bytes, p, end)) {
    if (jump !== null) {
      // The segment starts with a literal: jump to its next occurrence.
      p = indexOf(bytes, p, end, jump);
      if (p < 0) return -1;
    }
    const q = matchForward(bytes, p, end, seg);
    if (q >= 0) return q;
  }
  return -1;
}

/** Splits a pattern into segments; `fold` lower-cases the literal characters. */
function parsePattern(pattern: string, escape: string, fold: boolean): Segment[] {
  const segs: Segment[] = [];
  let pieces: Piece[] = [];
  let skip = 0;
  let lit = '';
  const flushLit = (): void => {
    if (lit.length > 0) { pieces.push({ skip, lit: encodeUtf8(lit) }); skip = 0; lit = ''; }
  };
  const endSegment = (): void => {
    flushLit();
    const literal = pieces.length === 0 && skip === 0 ? new Uint8Array(0)
      : pieces.length === 1 && pieces[0]!.skip === 0 && skip === 0 ? pieces[0]!.lit : null;
    segs.push({ pieces, trail: skip, literal });
    pieces = [];
    skip = 0;
  };
  const chars = Array.from(pattern);
  const esc = fold && escape !== '' ? lowerChar(escape) : escape;
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (esc !== '' && (fold ? lowerChar(ch) : ch) === esc) {
      i++;
      if (i >= chars.length) throw new ValidationError(`LIKE pattern must not end with the escape character ${JSON.stringify(escape)}: ${JSON.stringify(pattern)}`);
      lit += fold ? lowerChar(chars[i]!) : chars[i]!;
    } else if (ch === '%') endSegment();
    else if (ch === '_') { flushLit(); skip++; }
    else lit += fold ? lowerChar(ch) : ch;
  }
  endSegment();
  return segs;
}

const lowerCache = new Map<string, string>();

/** Simple (one code point to one code point) lower case, as DuckDB's: no context rules, İ → i. */
export function lowerChar(ch: string): string {
  if (ch.length === 1 && ch.charCodeAt(0) < 0x80) return ch >= 'A' && ch <= 'Z' ? String.fromCharCode(ch.charCodeAt(0) + 32) : ch;
  let l = lowerCache.get(ch);
  if (l === undefined) {
    const full = ch.toLowerCase();
    const cp = full.codePointAt(0)!;
    l = Array.from(full).length === 1 ? full : String.fromCodePoint(cp);
    if (lowerCache.size < 4096) lowerCache.set(ch, l);
  }
  return l;
}

/** Lower-cases bytes[s, e) into a fresh buffer: byte by byte for ASCII, per code point otherwise. */
function foldBytes(bytes: Uint8Array, s: number, e: number, scratch: { buf: Uint8Array }): Uint8Array {
  let ascii = true;
  for (let p = s; p < e; p++) if (bytes[p]! >= 0x80) { ascii = false; break; }
  if (!ascii) {
    let out = '';
    for (const ch of decodeUtf8(bytes, s, e)) out += lowerChar(ch);
    return encodeUtf8(out);
  }
  const n = e - s;
  if (scratch.buf.length < n) scratch.buf = new Uint8Array(Math.max(n, scratch.buf.length * 2));
  const buf = scratch.buf;
  for (let k = 0; k < n; k++) {
    const b = bytes[s + k]!;
    buf[k] = b >= 0x41 && b <= 0x5a ? b + 32 : b;
  }
  return buf;
}

/** Checks an ESCAPE argument: empty (no escape) or one character. */
export function checkEscape(escape: string): string {
  if (Array.from(escape).length > 1) throw new ValidationError(`invalid LIKE escape string ${JSON.stringify(escape)}: it must be empty or one character`);
  return escape;
}

/** Compiles a LIKE pattern into a test on UTF-8 bytes (linear for literal segments, O(n·m) at worst). */
export function likeMatcher(pattern: string, options: LikeOptions = {}): LikeMatcher {
  const escape = checkEscape(options.escape ?? '');
  const fold = options.caseInsensitive === true;
  const m = segmentsMatcher(parsePattern(pattern, escape, fold));
  if (!fold) return m;
  const scratch = { buf: new Uint8Array(64) };
  return (bytes, s, e) => {
    const f = foldBytes(bytes, s, e, scratch);
    return f === scratch.buf ? m(f, 0, e - s) : m(f, 0, f.length);
  };
}

/** A search for one literal in bytes[from, to): its first index, or -1. */
type Finder = (bytes: Uint8Array, from: number, to: number) => number;

/**
 * Boyer-Moore-Horspool for literals of 3+ bytes (each step skips up to the literal's length: TPC-H
 * Q13's `%special%requests%` reads about a sixth of o_comment's bytes), the first-byte scan for
 * shorter ones. On bytes: a UTF-8 literal can only occur at character boundaries.
 */
function finder(lit: Uint8Array): Finder {
  const m = lit.length;
  if (m < 3 || m > 255) return (bytes, from, to) => indexOf(bytes, from, to, lit);
  const shift = new Uint8Array(256).fill(m);
  for (let k = 0; k < m - 1; k++) shift[lit[k]!] = m - 1 - k;
  const lastByte = lit[m - 1]!;
  return (bytes, from, to) => {
    const end = to - m;
    for (let p = from; p <= end; ) {
      const b = bytes[p + m - 1]!;
      if (b === lastByte) {
        let k = 0;
        while (k < m - 1 && bytes[p + k] === lit[k]) k++;
        if (k === m - 1) return p;
      }
      p += shift[b]!;
    }
    return -1;
  };
}

/** `%a%b%...%`: each literal at its leftmost place after the previous one (optimal, see the header). */
function containsAll(lits: readonly Uint8Array[]): LikeMatcher {
  const finders = lits.map(finder);
  if (finders.length === 1) { const f = finders[0]!; return (bytes, s, e) => f(bytes, s, e) >= 0; }
  return (bytes, s, e) => {
    let p = s;
    for (let k = 0; k < finders.length; k++) {
      const at = finders[k]!(bytes, p, e);
      if (at < 0) return false;
      p = at + lits[k]!.length;
    }
    return true;
  };
}

function segmentsMatcher(segs: readonly Segment[]): LikeMatcher {
  if (segs.length === 1) {
    const only = segs[0]!;
    const lit = only.literal;
    if (lit !== null) return (bytes, s, e) => e - s === lit.length && startsAt(bytes, s, lit);
    return (bytes, s, e) => matchForward(bytes, s, e, only) === e;
  }
  const head = segs[0]!;
  const tail = segs[segs.length - 1]!;
  const middle = segs.slice(1, -1).filter((x) => x.literal === null || x.literal.length > 0);
  const hl = head.literal, tl = tail.literal;
  if (hl !== null && tl !== null) {
    // Fast paths on bytes: prefix / suffix / contains.
    const minLen = hl.length + tl.length;
    if (middle.length === 0) return (bytes, s, e) => e - s >= minLen && startsAt(bytes, s, hl) && startsAt(bytes, e - tl.length, tl);
    if (minLen === 0 && middle.every((x) => x.literal !== null)) return containsAll(middle.map((x) => x.literal!));
  }
  return (bytes, s, e) => {
    const from = matchForward(bytes, s, e, head);
    if (from < 0) return false;
    const to = matchBackward(bytes, from, e, tail);
    if (to < 0) return false;
    let p = from;
    for (const m of middle) {
      p = findForward(bytes, p, to, m);
      if (p < 0) return false;
    }
    return true;
  };
}

/**
 * String similarity and edit distances, as DuckDB computes them: on the
 * UTF-8 bytes of the strings, not on characters (DuckDB's levenshtein('é',
 * 'e') is 2: 'é' is two bytes). levenshtein, damerau_levenshtein (with
 * transpositions of any distance, the unrestricted distance: 'ca' → 'abc'
 * is 2), hamming (equal, non-zero lengths only), jaccard (of the sets of bytes),
 * jaro and jaro-winkler similarity.
 */
import { ExecutionError } from '../../relnode/errors.js';
import type { LiteralValue } from '../../relnode/rex.js';
import type { RowFn } from './rowwise.js';

const encoder = new TextEncoder();
const bytesOf = (v: LiteralValue): Uint8Array => encoder.encode(v as string);

/** Levenshtein distance over two rows of the DP table. */
export function levenshtein(a: Uint8Array, b: Uint8Array): number {
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let prev = new Int32Array(b.length + 1), cur = new Int32Array(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[b.length]!;
}

/** Damerau-Levenshtein distance with adjacent transpositions (Lowrance-Wagner: edits between the swapped bytes allowed). */
export function damerauLevenshtein(a: Uint8Array, b: Uint8Array): number {
  const n = a.length, m = b.length;
  const inf = n + m;
  const w = m + 2;
  const d = new Int32Array((n + 2) * w);
  const lastRow = new Int32Array(256);
  d[0] = inf;
  for (let i = 0; i <= n; i++) { d[(i + 1) * w] = inf; d[(i + 1) * w + 1] = i; }
  for (let j = 0; j <= m; j++) { d[j + 1] = inf; d[w + j + 1] = j; }
  for (let i = 1; i <= n; i++) {
    let lastCol = 0;
    for (let j = 1; j <= m; j++) {
      const i1 = lastRow[b[j - 1]!]!, j1 = lastCol;
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      if (cost === 0) lastCol = j;
      d[(i + 1) * w + j + 1] = Math.min(
        d[i * w + j]! + cost,
        d[(i + 1) * w + j]! + 1,
        d[i * w + j + 1]! + 1,
        d[i1 * w + j1]! + (i - i1 - 1) + 1 + (j - j1 - 1),
      );
    }
    lastRow[a[i - 1]!] = i;
  }
  return d[(n + 1) * w + m + 1]!;
}

/** Jaro similarity: matches within half the longer length less one, less half the transpositions. */
export function jaro(a: Uint8Array, b: Uint8Array): number {
  if (a.length === 0 || b.length === 0) return 0;
  const window = Math.max(0, Math.floor(Math.max(a.length, b.length) / 2) - 1);
  const matchedA = new Uint8Array(a.length), matchedB = new Uint8Array(b.length);
  let matches = 0;
  for (let i = 0; i < a.length; i++) {
    const lo = Math.max(0, i - window), hi = Math.min(b.length - 1, i + window);
    for (let j = lo; j <= hi; j++) {
      if (matchedB[j] === 0 && a[i] === b[j]) { matchedA[i] = 1; matchedB[j] = 1; matches++; break; }
    }
  }
  if (matches === 0) return 0;
  let t = 0;
  for (let i = 0, j = 0; i < a.length; i++) {
    if (matchedA[i] === 0) continue;
    while (matchedB[j] === 0) j++;
    if (a[i] !== b[j]) t++;
    j++;
  }
  // Half the out-of-order matches, rounded down (DuckDB's, from rapidfuzz: an odd count loses its half).
  return (matches / a.length + matches / b.length + (matches - Math.floor(t / 2)) / matches) / 3;
}

/** Jaro-Winkler: a similarity above 0.7 is raised by 0.1 per byte of common prefix (at most 4). */
export function jaroWinkler(a: Uint8Array, b: Uint8Array): number {
  const s = jaro(a, b);
  if (s <= 0.7) return s;
  let p = 0;
  while (p < 4 && p < a.length && p < b.length && a[p] === b[p]) p++;
  return s + p * 0.1 * (1 - s);
}

function jaccard(a: Uint8Array, b: Uint8Array): number {
  if (a.length === 0 || b.length === 0) throw new ExecutionError('jaccard: an argument is empty (the similarity of two sets of bytes needs both non-empty)');
  const inA = new Uint8Array(256), inB = new Uint8Array(256);
  for (const x of a) inA[x] = 1;
  for (const x of b) inB[x] = 1;
  let both = 0, either = 0;
  for (let k = 0; k < 256; k++) { both += inA[k]! & inB[k]!; either += inA[k]! | inB[k]!; }
  return both / either;
}

function hamming(a: Uint8Array, b: Uint8Array): number {
  if (a.length !== b.length) throw new ExecutionError(`hamming: the strings must have equal lengths in bytes (${a.length} and ${b.length})`);
  if (a.length === 0) throw new ExecutionError('hamming: the strings must not be empty');
  let d = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) d++;
  return d;
}

const pair = (f: (a: Uint8Array, b: Uint8Array) => number, big: boolean): RowFn => ([x, y]) => {
  const r = f(bytesOf(x), bytesOf(y));
  return big ? BigInt(r) : r;
};

/** The distance functions by Call id. */
export const DISTANCE_FNS: Readonly<Record<string, RowFn>> = {
  levenshtein: pair(levenshtein, true),
  damerau_levenshtein: pair(damerauLevenshtein, true),
  hamming: pair(hamming, true),
  jaccard: pair(jaccard, false),
  jaro_similarity: pair(jaro, false),
  jaro_winkler_similarity: pair(jaroWinkler, false),
};

/**
 * How a NULL key column encodes into a KeyTable's words (hash-encode.ts) when NULL equals NULL
 * (GROUP BY, DISTINCT, set operations): as a reserved "NULL word" of its column, so a key with
 * NULLs is hashed, probed and stored like any other key, in the same vectorized loops
 * (hash-probe.ts), and keeps its first-seen group order.
 *
 * Decision: a NULL word per column, not an extra NULL-flags word per key. A flags word would widen
 * every key by a word (one INTEGER key: W = 1 → 2, losing the zero-copy encode, the W = 1 loops and
 * a join's direct map) or, added when the first NULL arrives, change W under a live table. The
 * per-row path this replaces (a Map keyed by flags and words, hash-null-keys.ts) made GROUP BY over
 * a half-NULL VARCHAR key 3–4× slower than over a NULL-free one (bench/null-keys.ts).
 *
 * - VARCHAR: -1 (interned ids are ≥ 0): no value takes it.
 * - DOUBLE: the bits of a signalling NaN, 0x7ff00000_00000001: canonicalDouble makes every NaN the
 *   quiet NaN (float-order.ts), so no value takes it either.
 * - INTEGER, DATE, BOOLEAN: INT_MIN; BIGINT, TIMESTAMP: INT64_MIN. A value can take these, so
 *   once a column has held a NULL (`nullSeen`), a row whose value equals its NULL word is flagged
 *   FLAG_APART and goes to the per-row path (hash-null-keys.ts), which tells it from a NULL by
 *   the column's validity; such values are rare (a sentinel in real data), NULLs are not. When the
 *   first NULL of a column arrives and a group already holds that value, the column's NULL word
 *   becomes the next value no group holds (`freeNullWord`): a group in the slots never holds a
 *   value equal to its column's NULL word.
 *
 * A join (NULL never matches) does not fold NULLs: its NULL rows stay flagged FLAG_NULL.
 */
import { Type, type Data } from 'apache-arrow';
import type { KeyKind } from './hash-encode.js';

/** The NULL word of a VARCHAR key. */
export const STR_NULL = -1;
/** INT_MIN: the NULL word of a 32-bit key, and the high word of a 64-bit key's. */
export const INT_NULL = -0x80000000;

/** The initial NULL words of keys of these kinds, W words in all, at each column's word position. */
export function initialNullWords(kinds: readonly KeyKind[], W: number): Int32Array {
  const nw = new Int32Array(W);
  let pos = 0;
  for (const k of kinds) {
    switch (k) {
      case 'i32': nw[pos] = INT_NULL; break;
      case 'i64': nw[pos] = 0; nw[pos + 1] = INT_NULL; break;
      case 'f64': nw[pos] = 1; nw[pos + 1] = 0x7ff00000; break;
      case 'str': nw[pos] = STR_NULL; break;
    }
    pos += k === 'i64' || k === 'f64' ? 2 : 1;
  }
  return nw;
}

/** Whether no value of a key of this kind encodes to its NULL word (no row of it is ever flagged apart). */
export function nullWordExact(k: KeyKind): boolean {
  return k === 'str' || k === 'f64';
}

/** Whether column `d` may hold a NULL: a Null column, NULL rows, or (dictionary) a NULL entry. */
export function mayHoldNull(d: Data): boolean {
  if (d.typeId === Type.Null || d.nullCount > 0) return true;
  return d.typeId === Type.Dictionary && (d.dictionary?.nullCount ?? 0) > 0;
}

/**
 * Writes the NULL word(s) `a` (and `b` for two-word kinds) at word `pos` of each row i < n whose
 * column row rows[i] is NULL in `d`. With `check`, returns whether some non-NULL row's words equal
 * the NULL word (the caller then marks those rows apart, `markApart`); else false.
 *
 * The loop has no branch per row (a half-NULL column mispredicts one at every other row: ~10 ns a
 * row with branches, bench/null-keys.ts): the valid bit selects the word by masks, and `clz32(x) >>> 5`
 * is 1 exactly when x is 0.
 */
export function writeNullWords(d: Data, words: Int32Array, W: number, pos: number, two: boolean, a: number, b: number, n: number, rows: Int32Array, check: boolean): boolean {
  if (d.typeId === Type.Null || d.nullCount === d.length) {
    if (two) for (let i = 0; i < n; i++) { words[i * W + pos] = a; words[i * W + pos + 1] = b; }
    else for (let i = 0; i < n; i++) words[i * W + pos] = a;
    return false;
  }
  if (d.nullCount === 0) return false;
  const bm = d.nullBitmap!;
  const off = d.offset;
  let hit = 0;
  if (two) {
    for (let i = 0; i < n; i++) {
      const r = off + rows[i]!;
      const v = (bm[r >> 3]! >> (r & 7)) & 1;
      const j = i * W + pos;
      const w0 = words[j]!;
      const w1 = words[j + 1]!;
      hit |= v & (Math.clz32((w0 ^ a) | (w1 ^ b)) >>> 5);
      words[j] = (w0 & -v) | (a & (v - 1));
      words[j + 1] = (w1 & -v) | (b & (v - 1));
    }
  } else {
    for (let i = 0; i < n; i++) {
      const r = off + rows[i]!;
      const v = (bm[r >> 3]! >> (r & 7)) & 1;
      const j = i * W + pos;
      const w = words[j]!;
      hit |= v & (Math.clz32(w ^ a) >>> 5);
      words[j] = (w & -v) | (a & (v - 1));
    }
  }
  return check && hit !== 0;
}

/**
 * `writeNullWords` fused with reading the values of a 32-bit column (`v`, its Int32Array; with NULL
 * rows): one pass writes each row's value or NULL word (a column filled first and then overwritten
 * took two passes over the words: ~20% of GROUP BY over a half-NULL INTEGER key, bench/null-keys.ts
 * --kernel). Returns whether some non-NULL row holds the NULL word (for `check`).
 */
export function foldInt32(d: Data, v: Int32Array, words: Int32Array, W: number, pos: number, a: number, n: number, rows: Int32Array, check: boolean): boolean {
  const bm = d.nullBitmap!;
  const off = d.offset;
  let hit = 0;
  for (let i = 0; i < n; i++) {
    const r = rows[i]!;
    const b = off + r;
    const ok = (bm[b >> 3]! >> (b & 7)) & 1;
    const w = v[r]!;
    hit |= ok & (Math.clz32(w ^ a) >>> 5);
    words[i * W + pos] = (w & -ok) | (a & (ok - 1));
  }
  return check && hit !== 0;
}

/**
 * Sets `flag` in `flags` (made when first needed) for each row i < n whose words at `pos` equal
 * the NULL word (`a`, `b`) while its value (column row sel[i], or i) is not NULL; returns flags.
 */
export function markApart(d: Data, words: Int32Array, W: number, pos: number, two: boolean, a: number, b: number, n: number, sel: Int32Array | null, flags: Uint8Array | null, flag: number): Uint8Array | null {
  if (d.typeId === Type.Null || d.typeId === Type.Bool) return flags;
  const bm = d.nullCount > 0 ? d.nullBitmap! : null;
  for (let i = 0; i < n; i++) {
    if (words[i * W + pos] !== a || (two && words[i * W + pos + 1] !== b)) continue;
    if (bm !== null) {
      const r = d.offset + (sel === null ? i : sel[i]!);
      if (((bm[r >> 3]! >> (r & 7)) & 1) === 0) continue;
    }
    flags ??= new Uint8Array(n);
    flags[i]! |= flag;
  }
  return flags;
}

/**
 * The NULL word for a column at word `pos` whose current one is (`a`, `b`) that none of the
 * groups 0 … size − 1 (W words each in `gw`) holds: (a, b) itself, else the next free value above
 * it in the low word (at most `size` values are taken, so one pass over a set finds it).
 */
export function freeNullWord(gw: Int32Array, size: number, W: number, pos: number, two: boolean, a: number, b: number): number {
  const taken = new Set<number>();
  for (let g = 0; g < size; g++) {
    if (two && gw[g * W + pos + 1] !== b) continue;
    const lo = gw[g * W + pos]!;
    if (lo - a >= 0 && lo - a <= size) taken.add(lo);
  }
  let w = a;
  while (taken.has(w)) w++;
  return w;
}

/**
 * "Is the column at word `pos` NULL in group g": a group kept apart (`apart[g]` = 1) answers by its
 * own flags (`apartTest`), any other by holding the column's NULL word (`nullWords` at `pos`).
 */
export function nullWordTest(gw: Int32Array, W: number, pos: number, two: boolean, nullWords: Int32Array, apart: Uint8Array, apartTest: ((g: number) => boolean) | null): (g: number) => boolean {
  const a = nullWords[pos]!;
  const b = two ? nullWords[pos + 1]! : 0;
  return (g) => (apart[g] === 1 ? apartTest !== null && apartTest(g) : gw[g * W + pos] === a && (!two || gw[g * W + pos + 1] === b));
}

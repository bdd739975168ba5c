/**
 * The keys of a KeyTable (hash.ts) kept apart from its hashed slots: those holding a value equal to
 * its column's NULL word (hash-null-words.ts: INT_MIN in an INTEGER column once that column has held
 * a NULL, INT64_MIN in a BIGINT one), which the words alone cannot tell from a NULL. Such keys are
 * looked up by their words plus their per-column NULL flags. They are rare (NULLs themselves are
 * words like any value), but a column could be full of them, so a lookup allocates nothing: the
 * row's flags go into a scratch array, flags and words hash to a number, and the candidates of that
 * hash are compared word by word. Only a new group copies its flags and words.
 */
import type { Data } from 'apache-arrow';
import type { KeyEncoder } from './hash-encode.js';

/** A key not seen before: what `NullKeyGroups.add` records once its gid exists. */
export interface NewNullKey {
  readonly hash: number;
  readonly isNull: Uint8Array;
  /** The key's W encoded words. */
  readonly words: Int32Array;
}

/** The groups of a KeyTable kept apart from its slots. */
export class NullKeyGroups {
  /** hash of (flags, words) → the gid, or the gids, with that hash. */
  private byHash: Map<number, number | number[]> | null = null;
  /** gid → per-column NULL flags. */
  private flags: Map<number, Uint8Array> | null = null;
  /** gid → its encoded words. */
  private keyWords: Map<number, Int32Array> | null = null;
  /** The gid of the only such key when there is one key column (-1 until seen). */
  private gid1 = -1;
  /** The current row's flags (one per key column), reused across lookups. */
  private scratch = new Uint8Array(0);

  /** Groups kept apart. */
  get count(): number {
    return this.flags?.size ?? 0;
  }

  /** The gid of the key of column row `row` (encoded row `i` of `words`, W words per row), or the key to add. */
  lookup(encoder: KeyEncoder, cols: readonly Data[], words: Int32Array, W: number, i: number, row: number): number | NewNullKey {
    // One key column: the only key kept apart is the value equal to the NULL word.
    if (cols.length === 1 && this.gid1 >= 0) return this.gid1;
    const C = cols.length;
    if (this.scratch.length !== C) this.scratch = new Uint8Array(C);
    const isNull = this.scratch;
    let h = 0x2545f491;
    for (let c = 0; c < C; c++) {
      const n = encoder.isNullAt(cols, c, row) ? 1 : 0;
      isNull[c] = n;
      h = Math.imul(h ^ (n + c * 2), 0x9e3779b1);
    }
    const base = i * W;
    for (let w = 0; w < W; w++) h = Math.imul(h ^ words[base + w]!, 0x85ebca6b) ^ (h >>> 15);
    h |= 0;
    const hit = this.byHash?.get(h);
    if (hit !== undefined) {
      if (typeof hit === 'number') {
        if (this.same(hit, isNull, words, base, W)) return hit;
      } else {
        for (let k = 0; k < hit.length; k++) if (this.same(hit[k]!, isNull, words, base, W)) return hit[k]!;
      }
    }
    return { hash: h, isNull: isNull.slice(), words: words.slice(base, base + W) };
  }

  /** Whether group `gid` has these flags and words. */
  private same(gid: number, isNull: Uint8Array, words: Int32Array, base: number, W: number): boolean {
    const f = this.flags!.get(gid)!;
    for (let c = 0; c < isNull.length; c++) if (f[c] !== isNull[c]) return false;
    const kw = this.keyWords!.get(gid)!;
    for (let w = 0; w < W; w++) if (kw[w] !== words[base + w]!) return false;
    return true;
  }

  /** Records the new group `gid` of a key `lookup` returned. */
  add(k: NewNullKey, gid: number): void {
    const byHash = (this.byHash ??= new Map());
    const prev = byHash.get(k.hash);
    byHash.set(k.hash, prev === undefined ? gid : typeof prev === 'number' ? [prev, gid] : (prev.push(gid), prev));
    (this.flags ??= new Map()).set(gid, k.isNull);
    (this.keyWords ??= new Map()).set(gid, k.words);
    if (k.isNull.length === 1) this.gid1 = gid;
  }

  /** A test "is key column `c` NULL in group g" for groups kept apart, or null when there are none. */
  nullTest(c: number): ((g: number) => boolean) | null {
    const flags = this.flags;
    if (flags === null || flags.size === 0) return null;
    return (g) => flags.get(g)![c] === 1;
  }
}

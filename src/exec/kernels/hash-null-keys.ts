/**
 * Group-by keys containing a NULL, kept apart from a KeyTable's hashed slots (hash.ts): in a
 * GROUP BY, NULL equals NULL, but the encoded words of a NULL column are not a value, so such
 * keys are looked up by their words plus their per-column NULL mask in a Map. They are rare (one
 * per NULL pattern and value combination), so a string key and a small allocation per new group
 * cost nothing that matters; the hot loops only test the row's flag.
 */
import type { Data } from 'apache-arrow';
import type { KeyEncoder } from './hash-encode.js';

/** A key with a NULL not seen before: what `NullKeyGroups.add` records once its gid exists. */
export interface NewNullKey {
  readonly key: string;
  readonly isNull: Uint8Array;
}

/** The groups of a KeyTable whose key contains a NULL. */
export class NullKeyGroups {
  private byKey: Map<string, number> | null = null;
  /** gid → per-column NULL flags. */
  private flags: Map<number, Uint8Array> | null = null;
  /** The gid of the NULL key when there is one key column (-1 until seen). */
  private gid1 = -1;

  /** Groups whose key contains a NULL. */
  get count(): number {
    return this.flags?.size ?? 0;
  }

  /**
   * The gid of the key of column row `row` (encoded row `i` of `words`, W words per row; null
   * words: the dictionary path, whose only NULL key is all-NULL with words 0), or the key to add.
   */
  lookup(encoder: KeyEncoder, cols: readonly Data[], words: Int32Array | null, W: number, i: number, row: number): number | NewNullKey {
    // One key column: the only key with a NULL is NULL itself.
    if (cols.length === 1 && this.gid1 >= 0) return this.gid1;
    const C = cols.length;
    const isNull = new Uint8Array(C);
    let key = '';
    for (let c = 0; c < C; c++) {
      isNull[c] = encoder.isNullAt(cols, c, row) ? 1 : 0;
      key += isNull[c] ? 'n' : '-';
    }
    for (let w = 0; w < W; w++) key += ',' + (words === null ? 0 : words[i * W + w]!);
    return this.byKey?.get(key) ?? { key, isNull };
  }

  /** Records the new group `gid` of a key `lookup` returned. */
  add(k: NewNullKey, gid: number): void {
    (this.byKey ??= new Map()).set(k.key, gid);
    (this.flags ??= new Map()).set(gid, k.isNull);
    if (k.isNull.length === 1) this.gid1 = gid;
  }

  /** A test "is key column `c` NULL in group g" over groups flagged in `groupHasNull`, or null when no group has a NULL. */
  nullTest(c: number, groupHasNull: Uint8Array): ((g: number) => boolean) | null {
    const flags = this.flags;
    if (flags === null || flags.size === 0) return null;
    return (g) => groupHasNull[g] === 1 && flags.get(g)![c] === 1;
  }
}

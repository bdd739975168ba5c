/**
 * Group ids for one dictionary-encoded VARCHAR key column (KeyTable in
 * hash.ts): a per-dictionary table from code to gid, so a row costs one
 * array read and each distinct code is hashed once, when first seen.
 *
 * Decision: the tables are keyed by the dictionary object (a WeakMap, so a
 * dropped batch's dictionary frees its table) and filled lazily through the
 * KeyTable's own insert path (`resolve`), so both paths share one set of
 * groups and first-seen group order. A group/build table stays valid for
 * later batches of the same dictionary; a find table caches misses too, so
 * it is valid only while the KeyTable has not grown, and is remade after.
 */
import type { Data } from 'apache-arrow';

/** Not resolved yet. */
export const UNRESOLVED = -2;

/** One dictionary's code → gid table and the KeyTable size it was last brought up to date with. */
export interface DictGids {
  readonly gids: Int32Array;
  size: number;
}

/** The code → gid tables of one KeyTable, for inserting (group, build) and for finding (probe). */
export class DictionaryGids {
  private insert: WeakMap<object, DictGids> | null = null;
  private find: WeakMap<object, DictGids> | null = null;

  /**
   * The table of dictionary column `d` (`codes`: its number of entries) for inserting or finding;
   * `size` is the KeyTable's group count now (a find table made at another size is remade).
   */
  entry(d: Data, finding: boolean, size: number, codes: () => number): DictGids {
    const key = d.dictionary as object;
    const cache = finding ? (this.find ??= new WeakMap()) : (this.insert ??= new WeakMap());
    let entry = cache.get(key);
    if (entry === undefined || (finding && entry.size !== size)) {
      entry = { gids: new Int32Array(codes()).fill(UNRESOLVED), size };
      cache.set(key, entry);
    }
    return entry;
  }

  /**
   * out[i] = the gid of column row r (r = sel[i], or i without `sel`) for i < n, through `entry`;
   * an unresolved code goes to `resolve(r)` (recorded), a NULL row to `onNull(i, r)` (not recorded).
   */
  static run(d: Data, entry: DictGids, n: number, sel: Int32Array | null, out: Int32Array, resolve: (r: number) => number, onNull: (i: number, r: number) => number): void {
    const gids = entry.gids;
    const codes = d.values as Int32Array;
    if (d.nullCount === 0 && sel === null) {
      // Unmasked loop: no NULL rows.
      for (let i = 0; i < n; i++) {
        const code = codes[i]!;
        let g = gids[code]!;
        if (g === UNRESOLVED) g = gids[code] = resolve(i);
        out[i] = g;
      }
    } else if (d.nullCount === 0) {
      for (let i = 0; i < n; i++) {
        const r = sel![i]!;
        const code = codes[r]!;
        let g = gids[code]!;
        if (g === UNRESOLVED) g = gids[code] = resolve(r);
        out[i] = g;
      }
    } else {
      const bm = d.nullBitmap!;
      const off = d.offset;
      for (let i = 0; i < n; i++) {
        const r = sel === null ? i : sel[i]!;
        const b = off + r;
        if (((bm[b >> 3]! >> (b & 7)) & 1) === 0) { out[i] = onNull(i, r); continue; }
        const code = codes[r]!;
        let g = gids[code]!;
        if (g === UNRESOLVED) g = gids[code] = resolve(r);
        out[i] = g;
      }
    }
  }
}

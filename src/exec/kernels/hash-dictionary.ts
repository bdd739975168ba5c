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
 *
 * A group table whose every code has resolved, each to a group of its own, is
 * a permutation of those groups (`complete`): a caller may then keep their
 * states by code and move them to their groups after the batch (the cached
 * FLIP-36 group-by spent ~25% of its fused loop reading the code → gid table:
 * the dependent load delays each row's state address). Checked once, when the
 * last code resolves: an insert table's entries never change after that.
 */
import type { Data } from 'apache-arrow';

/** Not resolved yet. */
export const UNRESOLVED = -2;

/** One dictionary's code → gid table and the KeyTable size it was last brought up to date with. */
export interface DictGids {
  readonly gids: Int32Array;
  size: number;
  /** Codes still UNRESOLVED (counted down by `DictionaryGids.set`). */
  open: number;
  /** `complete`'s answer once no code is open (undefined before). */
  perm?: Int32Array | null;
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
      const n = codes();
      entry = { gids: new Int32Array(n).fill(UNRESOLVED), size, open: n };
      cache.set(key, entry);
    }
    return entry;
  }

  /** Records gid `g` for `code` of `entry`; returns `g`. */
  static set(entry: DictGids, code: number, g: number): number {
    if (entry.gids[code] === UNRESOLVED) entry.open--;
    entry.gids[code] = g;
    return g;
  }

  /**
   * The code → gid table of group table `entry` when every code has resolved, no two to the same
   * group (a dictionary may repeat a string), else null. Then code c's rows are exactly group
   * `gids[c]`'s rows, so states kept by code are the groups' states, permuted.
   */
  static complete(entry: DictGids): Int32Array | null {
    if (entry.open > 0) return null;
    if (entry.perm === undefined) {
      const seen = new Set<number>();
      for (const g of entry.gids) seen.add(g);
      entry.perm = seen.size === entry.gids.length && !seen.has(-1) ? entry.gids : null;
    }
    return entry.perm;
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
        if (g === UNRESOLVED) g = DictionaryGids.set(entry, code, resolve(i));
        out[i] = g;
      }
    } else if (d.nullCount === 0) {
      for (let i = 0; i < n; i++) {
        const r = sel![i]!;
        const code = codes[r]!;
        let g = gids[code]!;
        if (g === UNRESOLVED) g = DictionaryGids.set(entry, code, resolve(r));
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
        if (g === UNRESOLVED) g = DictionaryGids.set(entry, code, resolve(r));
        out[i] = g;
      }
    }
  }
}

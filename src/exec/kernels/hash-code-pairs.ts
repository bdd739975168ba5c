/**
 * Two dictionary-encoded VARCHAR group keys read in place (KeyRows shape 'codes'): the pair of
 * codes `(a, b)` indexes a table of `|dictA| * |dictB|` group ids, `a * |dictB| + b`. The fused
 * aggregate loops (agg-fused-loops.ts, agg-fused-pass.ts) find a row's group with one read, as
 * they do for one dictionary key or two one-byte keys — TPC-H Q1's flags are two small
 * dictionaries in tables eddy generates (`registerTpch`), plain one-byte strings in files.
 *
 * Decision: one table per pair of dictionaries (the last pair seen), not per code of each: the
 * codes of one column say nothing about the other's, and dictionaries of a table's batches are
 * usually the same objects, so the table is rebuilt only when they change. Pairs whose table
 * would exceed 64k entries take the general path. A dictionary with two equal strings maps both
 * codes to one group (the general path resolves the strings), so group numbering is unchanged.
 */
import { Type, type Data } from 'apache-arrow';
import type { KeyRows } from './hash-byte-keys.js';

/** Largest `|dictA| * |dictB|` read in place. */
const MAX_PAIRS = 1 << 16;

/** The code-pair → gid table of one KeyTable (for the last pair of dictionaries seen). */
export class CodePairs {
  private da: unknown = null;
  private db: unknown = null;
  private map: Int32Array | null = null;

  /** The in-place view of two NULL-free dictionary key columns with Int32 codes, or null. */
  rows(cols: readonly Data[]): KeyRows | null {
    if (cols.length !== 2) return null;
    const [x, y] = cols as [Data, Data];
    if (x.typeId !== Type.Dictionary || y.typeId !== Type.Dictionary || x.nullCount !== 0 || y.nullCount !== 0) return null;
    if (!(x.values instanceof Int32Array) || !(y.values instanceof Int32Array)) return null;
    const dx = x.dictionary;
    const dy = y.dictionary;
    if (dx === undefined || dy === undefined || dx.length * dy.length > MAX_PAIRS) return null;
    if (this.map === null || dx !== this.da || dy !== this.db) {
      this.da = dx;
      this.db = dy;
      this.map = new Int32Array(Math.max(1, dx.length * dy.length)).fill(-1);
    }
    return { shape: 'codes', a: x.values, ao: 0, b: y.values, bo: dy.length, map: this.map, perm: null };
  }

  /** Records gid `g` for column row `r` of a 'codes' view. */
  static record(rows: KeyRows, r: number, g: number): void {
    rows.map[rows.a[r]! * rows.bo + rows.b![r]!] = g;
  }
}

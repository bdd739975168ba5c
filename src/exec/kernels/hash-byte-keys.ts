/**
 * Group ids for one or two VARCHAR key columns whose strings are all one byte
 * (flags and codes: TPC-H Q1's l_returnflag / l_linestatus as the suite's
 * Arrow files store them, plain Utf8): a direct-mapped table from the bytes
 * (b0 << 8 | b1) to gid + 1, so a row costs one table read — no interning of
 * each row's string into a key word and no hashing of the words (hash.ts's
 * general path: ~17 ns/row for Q1's two keys, bench/agg-kernels.ts "Q1 keys").
 *
 * A batch takes this path only when every key column is NULL-free Utf8 and
 * every one of its strings (selected or not) is one byte: one pass over the
 * offsets checks that, and then the byte of row r is `bytes[offs[0] + r]`.
 * A byte pair not in the table yet is resolved through the caller's general
 * path (which assigns the next gid, in first-seen order, or finds the group an
 * earlier batch made), so both paths share one set of groups and the table is
 * only a cache of lookups: it stays valid for every later batch.
 */
import { Type, type Data } from 'apache-arrow';

/** Batches with fewer rows take the general path: the table (256 KB for two keys) is made only for big inputs. */
export const BYTE_KEYS_MIN_ROWS = 2048;

/** Whether every string of the NULL-free Utf8 column `d` is one byte long. */
function allOneByte(d: Data): boolean {
  if (d.typeId !== Type.Utf8 || d.nullCount !== 0) return false;
  const offs = d.valueOffsets as Int32Array;
  const len = d.length;
  let bad = 0;
  let prev = offs[0]!;
  for (let r = 1; r <= len; r++) { const o = offs[r]!; bad |= o - prev - 1; prev = o; }
  return bad === 0;
}

/** The gid of output row i (column row r) through the general path. */
export type ResolveRow = (i: number, r: number) => number;

/** The byte-pair → gid cache of one KeyTable. */
export class ByteKeys {
  /** gid + 1 by (b0 << 8 | b1), or by b0 for one column; 0 = not looked up yet. */
  private table: Int32Array | null = null;

  /**
   * Writes out[i], the group of column row sel[i] (sel null: row i), for i < n and returns true;
   * returns false, writing nothing, when the columns do not qualify (see the header).
   */
  run(cols: readonly Data[], n: number, sel: Int32Array | null, out: Int32Array, resolve: ResolveRow): boolean {
    if (cols.length > 2 || n < BYTE_KEYS_MIN_ROWS) return false;
    for (const d of cols) if (!allOneByte(d)) return false;
    const two = cols.length === 2;
    const table = this.table ??= new Int32Array(two ? 1 << 16 : 1 << 8);
    const b0 = cols[0]!.values as Uint8Array;
    const o0 = (cols[0]!.valueOffsets as Int32Array)[0]!;
    const b1 = two ? cols[1]!.values as Uint8Array : b0;
    const o1 = two ? (cols[1]!.valueOffsets as Int32Array)[0]! : o0;
    // Four loops: with / without a selection, two keys / one key (no per-row tests of either).
    if (two && sel !== null) {
      for (let i = 0; i < n; i++) {
        const r = sel[i]!;
        const k = (b0[o0 + r]! << 8) | b1[o1 + r]!;
        let g = table[k]! - 1;
        if (g < 0) { g = resolve(i, r); table[k] = g + 1; }
        out[i] = g;
      }
    } else if (two) {
      for (let i = 0; i < n; i++) {
        const k = (b0[o0 + i]! << 8) | b1[o1 + i]!;
        let g = table[k]! - 1;
        if (g < 0) { g = resolve(i, i); table[k] = g + 1; }
        out[i] = g;
      }
    } else if (sel !== null) {
      for (let i = 0; i < n; i++) {
        const r = sel[i]!;
        const k = b0[o0 + r]!;
        let g = table[k]! - 1;
        if (g < 0) { g = resolve(i, r); table[k] = g + 1; }
        out[i] = g;
      }
    } else {
      for (let i = 0; i < n; i++) {
        const k = b0[o0 + i]!;
        let g = table[k]! - 1;
        if (g < 0) { g = resolve(i, i); table[k] = g + 1; }
        out[i] = g;
      }
    }
    return true;
  }
}

/**
 * Group ids for one or two VARCHAR key columns whose strings are all one byte
 * (flags and codes: TPC-H Q1's l_returnflag / l_linestatus as the suite's
 * Arrow files store them, plain Utf8): a direct-mapped table from the bytes
 * (b0 << 8 | b1) to gid, so a row costs one table read — no interning of
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
import { giveArray, takeArray } from './buffer-pool.js';
import { Type, type Data } from 'apache-arrow';

/** Batches with fewer rows take the general path: the table (256 KB for two keys) is made only for big inputs. */
export const BYTE_KEYS_MIN_ROWS = 2048;

/**
 * Per column Data: whether all its strings are one byte. Arrow Data are immutable and an in-memory
 * table (or a cache) hands the same Data to every query, so the pass over the offsets (~1 ns/row,
 * ~5% of TPC-H Q1) runs once per column chunk, not once per query.
 */
const oneByte = new WeakMap<Data, boolean>();

/** Whether every string of the NULL-free Utf8 column `d` is one byte long. */
function allOneByte(d: Data): boolean {
  if (d.typeId !== Type.Utf8 || d.nullCount !== 0) return false;
  let ok = oneByte.get(d);
  if (ok === undefined) { ok = offsetsStepOne(d); oneByte.set(d, ok); }
  return ok;
}

/** Whether consecutive offsets of `d` differ by one. */
function offsetsStepOne(d: Data): boolean {
  const offs = d.valueOffsets as Int32Array;
  const len = d.length;
  let bad = 0;
  let prev = offs[0]!;
  for (let r = 1; r <= len; r++) { const o = offs[r]!; bad |= o - prev - 1; prev = o; }
  return bad === 0;
}

/** The gid of output row i (column row r) through the general path. */
export type ResolveRow = (i: number, r: number) => number;

/**
 * Where a row's group is read in place by a caller's own loop (agg-fused-loops.ts `codedLoop`):
 * `map[a[r]]` for one dictionary key's codes (`code`, hash-dictionary.ts), `map[a[ao + r]]` for one
 * one-byte key (`byte`), `map[(a[ao + r] << 8) | b[bo + r]]` for two (`pair`). A negative entry is
 * not resolved yet: the caller resolves that row through the KeyTable, which records it.
 */
export interface KeyRows {
  /**
   * 'code': one dictionary key; 'byte'/'pair': one or two one-byte keys; 'codes': two dictionary keys
   * (`b`'s codes, `bo` = its dictionary size; hash-code-pairs.ts); 'int': one INTEGER/DATE key of a
   * small domain, `map[a[r] - ao]` (`ao` = the table's lowest value; hash-int-keys.ts).
   */
  readonly shape: 'code' | 'byte' | 'pair' | 'codes' | 'int';
  readonly a: Int32Array | Uint8Array;
  readonly ao: number;
  readonly b: Uint8Array | Int32Array | null;
  readonly bo: number;
  readonly map: Int32Array;
  /**
   * `code` only: `map` itself when every code has a gid, no two the same (hash-dictionary.ts
   * `complete`): no row is unresolved, and a caller may keep states by code and move them to
   * their groups through it. Null otherwise.
   */
  readonly perm: Int32Array | null;
}

/** A key → gid table of at least n entries, all -1, from the thread's pool when one is there (buffer-pool.ts): the byte-pair table (256 KB), hash-int-keys.ts's value table. */
export function newGidMap(n: number): Int32Array {
  return (takeArray(Int32Array, n) ?? new Int32Array(n)).fill(-1);
}

/** The byte-pair → gid cache of one KeyTable. */
export class ByteKeys {
  /** gid by (b0 << 8 | b1), or by b0 for one column; -1 = not looked up yet. */
  private table: Int32Array | null = null;

  /**
   * The columns' bytes and the byte → gid table, for a loop that reads a batch's keys in place;
   * null when the columns do not qualify (see the header).
   */
  rows(cols: readonly Data[], n: number): KeyRows | null {
    if (cols.length > 2 || n < BYTE_KEYS_MIN_ROWS) return null;
    for (const d of cols) if (!allOneByte(d)) return null;
    const two = cols.length === 2;
    const map = this.table ??= newGidMap(two ? 1 << 16 : 1 << 8);
    const a = cols[0]!.values as Uint8Array;
    const ao = (cols[0]!.valueOffsets as Int32Array)[0]!;
    if (!two) return { shape: 'byte', a, ao, b: null, bo: 0, map, perm: null };
    return { shape: 'pair', a, ao, b: cols[1]!.values as Uint8Array, bo: (cols[1]!.valueOffsets as Int32Array)[0]!, map, perm: null };
  }

  /** Gives the byte-pair table back to the thread's pool (the KeyTable is done, KeyTable.release). */
  release(): void {
    if (this.table !== null) giveArray(this.table);
    this.table = null;
  }

  /** Records gid `g` for the key of column row `r` of `rows` (resolved by the general path). */
  static record(rows: KeyRows, r: number, g: number): void {
    rows.map[rows.shape === 'pair' ? (rows.a[rows.ao + r]! << 8) | rows.b![rows.bo + r]! : rows.a[rows.ao + r]!] = g;
  }

  /**
   * Writes out[i], the group of column row sel[i] (sel null: row i), for i < n and returns true;
   * returns false, writing nothing, when the columns do not qualify (see the header).
   */
  run(cols: readonly Data[], n: number, sel: Int32Array | null, out: Int32Array, resolve: ResolveRow): boolean {
    const rows = this.rows(cols, n);
    if (rows === null) return false;
    const two = rows.shape === 'pair';
    const table = rows.map;
    const b0 = rows.a as Uint8Array;
    const o0 = rows.ao;
    const b1 = two ? rows.b! : b0;
    const o1 = two ? rows.bo : o0;
    // Four loops: with / without a selection, two keys / one key (no per-row tests of either).
    if (two && sel !== null) {
      for (let i = 0; i < n; i++) {
        const r = sel[i]!;
        const k = (b0[o0 + r]! << 8) | b1[o1 + r]!;
        let g = table[k]!;
        if (g < 0) g = table[k] = resolve(i, r);
        out[i] = g;
      }
    } else if (two) {
      for (let i = 0; i < n; i++) {
        const k = (b0[o0 + i]! << 8) | b1[o1 + i]!;
        let g = table[k]!;
        if (g < 0) g = table[k] = resolve(i, i);
        out[i] = g;
      }
    } else if (sel !== null) {
      for (let i = 0; i < n; i++) {
        const r = sel[i]!;
        const k = b0[o0 + r]!;
        let g = table[k]!;
        if (g < 0) g = table[k] = resolve(i, r);
        out[i] = g;
      }
    } else {
      for (let i = 0; i < n; i++) {
        const k = b0[o0 + i]!;
        let g = table[k]!;
        if (g < 0) g = table[k] = resolve(i, i);
        out[i] = g;
      }
    }
    return true;
  }
}

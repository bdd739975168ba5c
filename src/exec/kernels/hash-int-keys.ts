/**
 * One INTEGER/DATE group key of a small domain read in place (KeyRows shape 'int'): a value → gid
 * table over [base, base + length), so a fused aggregate's loop (agg-fused-loops.ts, agg-fused-pass.ts)
 * reads a row's group as `map[a[r] - base]` — no key words encoded and hashed, and, behind a filter,
 * no gathered copy of the kept rows (TPC-H Q15's `GROUP BY l_suppkey` over 3.6% of lineitem took
 * the general path: filter → gather three columns → hash the keys → sum).
 *
 * A batch takes this path when its key column is NULL-free Int32 whose values (min and max, one pass
 * per column chunk, kept per Arrow Data: a stored table hands the same Data to every query) fit a
 * table of at most MAX_RANGE entries together with the ranges seen before; the table then widens to
 * the union, keeping its entries. Like ByteKeys it is a cache of the KeyTable's lookups: an entry
 * not looked up yet (-1) is resolved through the general path, which assigns the next gid in
 * first-seen order or finds the group another batch made, so both paths share one set of groups.
 *
 * Decision: MAX_RANGE = 2^18 (1 MB of table): TPC-H's supplier, customer and part keys fit (10K,
 * 150K, 200K); order keys (6M) do not, and take the sorted runs or the slots (hash-sorted.ts).
 */
import { Type, type Data } from 'apache-arrow';
import { giveArray } from './buffer-pool.js';
import { int32MinMax } from './column.js';
import { BYTE_KEYS_MIN_ROWS, newGidMap, type KeyRows, type ResolveRow } from './hash-byte-keys.js';

const MAX_RANGE = 1 << 18;

/** `groupIds` false keeps KeyTable.groupIds off the table (the fused one-pass loop still reads it); for tests and benchmarks. */
export const intKeysTuning = { groupIds: true };

/** Per column chunk: [min, max] of a NULL-free Int32 column. */
const ranges = new WeakMap<Data, readonly [number, number]>();

function rangeOf(d: Data): readonly [number, number] {
  let r = ranges.get(d);
  if (r === undefined) {
    r = int32MinMax(d.values as Int32Array, d.length);
    ranges.set(d, r);
  }
  return r;
}

/** The value → gid table of one KeyTable's INTEGER/DATE key. */
export class IntKeys {
  /** gid by value − base, -1 = not looked up yet; entries [0, len) are in use. */
  private map: Int32Array | null = null;
  private base = 0;
  private len = 0;
  /** The keys spanned more than MAX_RANGE values: no table for this KeyTable. */
  private refused = false;

  /** The in-place view of one NULL-free Int32 key column of a small domain, or null (see the header). */
  rows(cols: readonly Data[], n: number): KeyRows | null {
    if (cols.length !== 1 || n < BYTE_KEYS_MIN_ROWS || this.refused) return null;
    const d = cols[0]!;
    if (d.nullCount !== 0 || !(d.values instanceof Int32Array) || (d.typeId !== Type.Int && d.typeId !== Type.Date)) return null;
    if (d.length === 0) return null;
    const [lo, hi] = rangeOf(d);
    if (this.map === null || lo < this.base || hi >= this.base + this.len) {
      const from = this.map === null ? lo : Math.min(lo, this.base);
      const to = this.map === null ? hi : Math.max(hi, this.base + this.len - 1);
      // A domain too wide for a table stays so: later batches go straight to the general path.
      if (to - from + 1 > MAX_RANGE) { this.refused = true; return null; }
      this.widen(from, to - from + 1);
    }
    return { shape: 'int', a: d.values, ao: this.base, b: null, bo: 0, map: this.map!, perm: null };
  }

  /**
   * Group ids of a batch's rows (or its selected rows `sel`) through the table: KeyTable.groupIds, the
   * stage path of a GROUP BY — TPC-H Q13's o_custkey behind `NOT LIKE`, whose 1.5M rows probed a 2 MB
   * slot table at random (114 ns a row in profiles under load); the table is 600 KB. A value seen
   * before is one array read; a new one goes to `resolve` in row order (so gids stay first-seen), which
   * inserts it. False when the batch does not take the table (the caller takes the general path).
   */
  run(cols: readonly Data[], n: number, sel: Int32Array | null, out: Int32Array, resolve: ResolveRow): boolean {
    if (!intKeysTuning.groupIds) return false;
    const rows = this.rows(cols, n);
    if (rows === null) return false;
    const a = rows.a as Int32Array;
    const map = rows.map;
    const base = rows.ao;
    if (sel !== null) {
      for (let i = 0; i < n; i++) {
        const r = sel[i]!;
        const k = a[r]! - base;
        let g = map[k]!;
        if (g < 0) g = map[k] = resolve(i, r);
        out[i] = g;
      }
    } else {
      for (let i = 0; i < n; i++) {
        const k = a[i]! - base;
        let g = map[k]!;
        if (g < 0) g = map[k] = resolve(i, i);
        out[i] = g;
      }
    }
    return true;
  }

  /** A table over [from, from + len), with the entries of the current one. */
  private widen(from: number, len: number): void {
    const next = newGidMap(len);
    if (this.map !== null) {
      next.set(this.map.subarray(0, this.len), this.base - from);
      giveArray(this.map);
    }
    this.map = next;
    this.base = from;
    this.len = len;
  }

  /** Gives the table back to the thread's pool (the KeyTable is done, KeyTable.release). */
  release(): void {
    if (this.map !== null) giveArray(this.map);
    this.map = null;
    this.len = 0;
    this.refused = false;
  }

  /** Records gid `g` for column row `r` of an 'int' view. */
  static record(rows: KeyRows, r: number, g: number): void {
    rows.map[rows.a[r]! - rows.ao] = g;
  }
}

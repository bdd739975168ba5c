/**
 * A batch order under which a key column is sorted (docs/multi-core.md): the test behind
 * contiguous ranges for a partitioned stage (ship-sorted.ts) when the table is clustered by its
 * key batch by batch but its batches are not in key order.
 *
 * A file written by parallel writers keeps each writer's batches sorted but interleaves them:
 * TPC-H lineitem as DuckDB exports it at SF 1 holds batches of l_orderkey 1–65698, then
 * 4196770–4262821, then 65699–131331, … Table order is then not sorted, and every worker of
 * TPC-H Q18's `GROUP BY l_orderkey` hashed all 6M keys and gathered its half (~10% of its CPU).
 * Read in the order of their first keys, such batches are sorted again, and W contiguous ranges
 * of that order still give every group to one worker.
 *
 * Decision: the order is accepted only when each key's rows stay in table order — two batches
 * sharing a key at their boundary must keep their table order (ties on the first key sort by
 * table position) — so a partitioned aggregate still adds every group's rows in the order one
 * thread does, and its DOUBLE sums keep the bits of parallelism 1. Only integer columns
 * (INTEGER, DATE, BIGINT, TIMESTAMP) without NULLs qualify, as for ship-sorted.ts; the test is
 * one pass over the column, cached per table version and column by SharedTables.
 */
import { Type, type Data } from 'apache-arrow';

/**
 * Batch indexes in an order under which `cols` (a column's Data per batch, in table order) is
 * non-decreasing with each key's rows in table order, or undefined when there is none (a batch
 * not sorted inside, overlapping batches, NULLs, a non-integer column). A sorted column gives the
 * identity order. Empty batches go last.
 */
export function clusteredOrder(cols: readonly Data[]): number[] | undefined {
  const first: (number | bigint)[] = [];
  const last: (number | bigint)[] = [];
  const full: number[] = [];
  const empty: number[] = [];
  for (let b = 0; b < cols.length; b++) {
    const d = cols[b]!;
    if (d.nullCount !== 0) return undefined;
    if (d.typeId !== Type.Int && d.typeId !== Type.Date && d.typeId !== Type.Timestamp) return undefined;
    const v = d.values as unknown;
    if (!(v instanceof Int32Array) && !(v instanceof BigInt64Array)) return undefined;
    if (d.length === 0) { empty.push(b); continue; }
    const lo = d.offset;
    const hi = d.offset + d.length;
    if (v instanceof Int32Array) { for (let i = lo + 1; i < hi; i++) if (v[i]! < v[i - 1]!) return undefined; }
    else for (let i = lo + 1; i < hi; i++) if (v[i]! < v[i - 1]!) return undefined;
    first[b] = v[lo]!;
    last[b] = v[hi - 1]!;
    full.push(b);
  }
  full.sort((a, b) => (first[a]! < first[b]! ? -1 : first[a]! > first[b]! ? 1 : a - b));
  for (let i = 1; i < full.length; i++) {
    const p = full[i - 1]!;
    const c = full[i]!;
    if (last[p]! > first[c]!) return undefined;
    // A key on both sides of the seam: its rows must be read in table order.
    if (last[p] === first[c] && p > c) return undefined;
  }
  return [...full, ...empty];
}

/**
 * Pieces of batches in an order under which a key column is sorted (docs/multi-core.md): the test behind
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
 * Decision: each key's rows stay in table order — a key at the seam of two batches (the end of
 * one, the start of the next in key order) has its runs read in the batches' table order, which
 * may differ from their key order (the last batch of one writer and the first of the next) — so
 * a partitioned aggregate still adds every group's rows in the order one thread does, and its
 * DOUBLE sums keep the bits of parallelism 1. Batches that overlap otherwise do not qualify. Only integer columns
 * (INTEGER, DATE, BIGINT, TIMESTAMP) without NULLs qualify, as for ship-sorted.ts; the test is
 * one pass over the column, cached per table version and column by SharedTables.
 */
import type { Data } from 'apache-arrow';
import { clusteredOrder } from './ship-sorted.js';

/** Rows [start, end) of batch `batch`. */
export interface Segment {
  readonly batch: number;
  readonly start: number;
  readonly end: number;
}

/**
 * Pieces of the batches (`cols`: a column's Data per batch, in table order) in an order under
 * which the column is non-decreasing and each key's rows are in table order, or undefined when
 * there is none (a batch not sorted inside, overlapping batches, NULLs, a non-integer column).
 * Batches go in the order of their first keys; a key that spans a seam between batches has its
 * run in each batch emitted in table order of the batches. A sorted column gives whole batches in
 * table order. Empty batches are left out.
 */
export function clusteredSegments(cols: readonly Data[]): Segment[] | undefined {
  // The test and the batch order are ship-sorted.ts's (also used by co-partitioned joins).
  const order = clusteredOrder(cols);
  if (order === undefined) return undefined;
  const out: Segment[] = [];
  // The runs of one key across consecutive batches (in key order), emitted in table order.
  let run: Segment[] = [];
  let runKey: number | bigint | undefined;
  const flush = (): void => { run.sort((a, b) => a.batch - b.batch); out.push(...run); run = []; };
  for (const b of order) {
    const d = cols[b]!;
    const n = d.length;
    if (n === 0) continue;
    // Values from index 0: a sliced Data's values start at its first row (apache-arrow's Data.slice).
    const v = d.values as Int32Array | BigInt64Array;
    const first = v[0]!;
    const last = v[n - 1]!;
    let h = 1;
    while (h < n && v[h] === first) h++;
    if (run.length === 0 || runKey !== first) { flush(); runKey = first; }
    run.push({ batch: b, start: 0, end: h });
    if (h === n) continue; // one key throughout: the run may go on in the next batch
    flush();
    let t = n - 1;
    while (t > h && v[t - 1] === last) t--;
    if (t > h) out.push({ batch: b, start: h, end: t });
    run = [{ batch: b, start: t, end: n }];
    runKey = last;
  }
  flush();
  // Adjacent pieces of one batch join again (a sorted column gives its batches whole).
  const merged: Segment[] = [];
  for (const x of out) {
    const p = merged[merged.length - 1];
    if (p !== undefined && p.batch === x.batch && p.end === x.start) merged[merged.length - 1] = { batch: p.batch, start: p.start, end: x.end };
    else merged.push(x);
  }
  return merged;
}

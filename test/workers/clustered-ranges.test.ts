/**
 * Partitioned stages over a key sorted batch by batch but with its batches interleaved (a file
 * from parallel writers; src/planner/ship-clustered.ts): read in the order of their first keys
 * the batches are sorted, contiguous ranges of that order give every group to one worker, and each
 * group's rows stay in table order (the same DOUBLE bits as one thread).
 */
import * as arrow from 'apache-arrow';
import { afterAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/index.js';
import { clusteredSegments } from '../../src/planner/ship-clustered.js';
import { SharedTables } from '../../src/planner/ship-tables.js';
import { memorySource } from '../../src/io/memory.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { expectPartitionedSameBits, workerStats } from './helpers.js';

const i32 = (xs: number[]): arrow.Data => arrow.makeData({ type: new arrow.Int32(), data: Int32Array.from(xs) });
const i64 = (xs: number[]): arrow.Data => arrow.makeData({ type: new arrow.Int64(), data: BigInt64Array.from(xs.map(BigInt)) });

/** The pieces as [batch, start, end] triples. */
const triples = (cols: arrow.Data[]): number[][] | undefined => clusteredSegments(cols)?.map((x) => [x.batch, x.start, x.end]);

describe('clusteredSegments', () => {
  it('orders sorted batches by their first keys; a sorted column keeps whole batches in table order; empty batches are left out', () => {
    expect(triples([i32([1, 2]), i32([3, 4]), i32([7, 9])])).toEqual([[0, 0, 2], [1, 0, 2], [2, 0, 2]]);
    expect(triples([i32([1, 2]), i32([10, 12]), i32([]), i32([3, 5]), i32([13, 20]), i32([6, 9])])).toEqual([[0, 0, 2], [3, 0, 2], [5, 0, 2], [1, 0, 2], [4, 0, 2]]);
    expect(triples([i64([10, 11]), i64([-3, 0]), i64([1, 4])])).toEqual([[1, 0, 2], [2, 0, 2], [0, 0, 2]]);
    expect(triples([i32([9, 1, 2, 3]).slice(1, 3), i32([0, 0])])).toEqual([[1, 0, 2], [0, 0, 3]]);
  });

  it('reads the runs of a key at a seam in the table order of their batches', () => {
    // Key 5 ends batch 2 and starts batch 1: batch 1's run of 5 comes first (table order), then batch 2's.
    expect(triples([i32([1, 2]), i32([5, 5, 8]), i32([3, 4, 5])])).toEqual([[0, 0, 2], [2, 0, 2], [1, 0, 2], [2, 2, 3], [1, 2, 3]]);
    // The same seam in table order keeps the batches whole.
    expect(triples([i32([1, 2]), i32([3, 5]), i32([5, 8])])).toEqual([[0, 0, 2], [1, 0, 2], [2, 0, 2]]);
    // One key over three batches (one of them all that key), in table order 2, 0, 1.
    expect(triples([i32([4, 4]), i32([4, 6]), i32([1, 4])])).toEqual([[2, 0, 1], [0, 0, 2], [1, 0, 1], [2, 1, 2], [1, 1, 2]]);
    // Two batches starting with one key, the longer one first in table order: still clustered (the
    // batch of that key alone goes first in key order), key 5's rows in table order.
    expect(triples([i32([5, 7]), i32([5, 5])])).toEqual([[0, 0, 1], [1, 0, 2], [0, 1, 2]]);
  });

  it('refuses overlapping batches, a batch unsorted inside, NULLs and non-integer columns', () => {
    expect(clusteredSegments([i32([1, 5]), i32([4, 6])])).toBeUndefined();
    expect(clusteredSegments([i32([1, 3, 2])])).toBeUndefined();
    const withNull = arrow.makeData({ type: new arrow.Int32(), data: Int32Array.from([1, 2, 3]), nullBitmap: Uint8Array.from([0b101]), nullCount: 1 });
    expect(clusteredSegments([withNull])).toBeUndefined();
    expect(clusteredSegments([arrow.makeData({ type: new arrow.Float64(), data: Float64Array.from([1, 2]) })])).toBeUndefined();
  });
});

describe('the cut of interleaved sorted batches (two writers, as the benchmark lineitem)', () => {
  it('gives each worker about equal rows, every key on one worker, each key range contiguous', () => {
    // Writer A holds keys 0 … 59,999, writer B 60,000 … 89,999 (fewer batches), 1–7 rows per key;
    // their batches interleave in the table: A0, B0, A1, B1, …, then A's rest.
    const runs = (lo: number, hi: number): number[] => { const out: number[] = []; for (let k = lo; k < hi; k++) for (let r = 0; r <= (k * 7919) % 7; r++) out.push(k); return out; };
    const chunk = (xs: number[], n: number): number[][] => Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, (i + 1) * n));
    const a = chunk(runs(0, 60_000), 8192);
    const b = chunk(runs(60_000, 90_000), 8192);
    const order = Array.from({ length: a.length }, (_, i) => [a[i]!, ...(i < b.length ? [b[i]!] : [])]).flat();
    const batches = order.map((keys) => arrow.tableFromArrays({ k: Int32Array.from(keys) }).batches[0]!);
    const source = memorySource(batches, 't');
    const shared = new SharedTables();
    shared.ship(source, [0], false);
    const total = order.reduce((n, x) => n + x.length, 0);
    for (const W of [2, 3, 4]) {
      const ranges = shared.sortedRanges(source, 0, W, 4096)!;
      expect(ranges.length).toBe(W);
      const keysOf = ranges.map((r) => { const ks: number[] = []; for (let i = 0; i < r.length; i += 3) for (let j = r[i + 1]!; j < r[i + 2]!; j++) ks.push(order[r[i]!]![j]!); return ks; });
      // Rows per worker within one key's run (≤ 7 rows) of an equal share.
      for (const ks of keysOf) expect(Math.abs(ks.length - total / W)).toBeLessThanOrEqual(8);
      // Read in key order, so every key lies on one worker and the workers' key ranges follow each other.
      const all = keysOf.flat();
      expect(all.length).toBe(total);
      let descents = 0;
      for (let i = 1; i < all.length; i++) if (all[i]! < all[i - 1]!) descents++;
      expect(descents).toBe(0);
      for (let w = 1; w < W; w++) expect(keysOf[w]![0]!).toBeGreaterThan(keysOf[w - 1]!.at(-1)!);
    }
  });
});

describe('partitioned stages over interleaved sorted batches', { timeout: 60_000 }, () => {
  // 60k rows, keys i/3 (~20k groups: partitioned), in 12 batches of 5000 rows; keys run across batch seams.
  const N = 60_000;
  const B = 5000;
  const keys = Int32Array.from({ length: N }, (_, i) => Math.floor(i / 3) - 5000);
  const v = Float64Array.from({ length: N }, (_, i) => ((i * 37) % 1001) / 7 + 1e-3 * (i % 13));
  const batches = Array.from({ length: N / B }, (_, b) => arrow.tableFromArrays({ k: keys.slice(b * B, (b + 1) * B), v: v.slice(b * B, (b + 1) * B) }).batches[0]!);
  const tableOf = (order: number[]): arrow.Table => new arrow.Table(order.map((b) => batches[b]!));
  // Two writers' batches interleaved: 0, 6, 1, 7, ... (seams shared by batches b and b + 1 stay in table order).
  const interleaved = tableOf(Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? i / 2 : 6 + (i - 1) / 2)));
  // Batch 1 before batch 0 in the table: the key at their seam is read from batch 1 first, as one thread reads it.
  const swapped = tableOf([1, 0, ...Array.from({ length: 10 }, (_, i) => i + 2)]);
  // One batch's rows reversed: not sorted inside, so the rows are picked by hash.
  const reversed = new arrow.Table(interleaved.batches.map((b, i) => (i === 3 ? arrow.tableFromArrays({ k: Int32Array.from(b.getChild('k')!.toArray()).reverse(), v: Float64Array.from(b.getChild('v')!.toArray()).reverse() }).batches[0]! : b)));
  const p1 = TableEnvironment.create({ parallelism: 1 });
  const p2 = TableEnvironment.create({ parallelism: 2, workers: 'always', batchSize: 4096 });
  for (const e of [p1, p2]) { e.registerTable('i', interleaved); e.registerTable('w', swapped); e.registerTable('r', reversed); }
  afterAll(async () => { await p1.close(); await p2.close(); });

  const what = { i: 'interleaved: contiguous ranges in key order', w: 'a seam out of table order: contiguous ranges, the seam key in table order', r: 'a batch unsorted inside: rows picked by hash' };
  for (const [t, contiguous] of [['i', true], ['w', true], ['r', false]] as const) {
    it(`${what[t]}, the same bits as one thread`, async () => {
      const sql = `SELECT k, sum(v) AS s, count(*) AS c, min(v) AS m FROM ${t} WHERE v > 1 GROUP BY k HAVING count(*) > 1`;
      await expectPartitionedSameBits(p2, p1, sql, contiguous);
    });
  }
});

/**
 * Morsels are dealt round-robin (src/planner/ship-tables.ts): worker i of W reads morsels i,
 * i + W, …, so which rows a worker adds, and in what order, does not depend on timing — a
 * DOUBLE sum at parallelism 2 has the same bits on every run, and TPC-H Q15 (which compares two
 * computations of one view for equality) keeps its answer.
 */
import * as arrow from 'apache-arrow';
import { afterAll, describe, expect, it } from 'vitest';
import { memorySource } from '../../src/io/memory.js';
import { morselRanges, SharedTables, shippedSource, type Morsels } from '../../src/planner/ship-tables.js';
import { tpchEnv, tpchSql } from './tpch-sql.js';
import { workerStats } from './helpers.js';

function valuesOf(src: ReturnType<typeof shippedSource>): number[] {
  const out: number[] = [];
  for (const b of src.scan({ partition: 0, batchSize: 1 << 20 }) as Iterable<arrow.RecordBatch>) out.push(...(b.getChildAt(0)!.toArray() as Int32Array));
  return out;
}

describe('morsels', () => {
  it('worker i of W reads morsels i, i + W, … of the shared table, each row once', () => {
    const batches = [0, 1, 2].map((k) => new arrow.RecordBatch({ x: arrow.makeData({ type: new arrow.Int32(), data: Int32Array.from({ length: 10 }, (_, i) => 10 * k + i) }) }));
    const source = memorySource(batches, 't');
    const shipped = new SharedTables().ship(source, [0], false);
    const ranges = morselRanges(shipped.lengths, 4); // per batch: [0,3) [3,6) [6,10) → 9 morsels
    expect(ranges.length / 3).toBe(9);
    const state = new Int32Array(new SharedArrayBuffer(8));
    const share = (worker: number): Morsels => ({ key: 'm', ranges, worker, workers: 2, state });
    // The same worker reads the same rows however often it runs and whatever the other does.
    const w0 = valuesOf(shippedSource(shipped, 't', share(0)));
    const w1 = valuesOf(shippedSource(shipped, 't', share(1)));
    expect(w0).toEqual([0, 1, 2, 6, 7, 8, 9, 13, 14, 15, 20, 21, 22, 26, 27, 28, 29]);
    expect(w1).toEqual([3, 4, 5, 10, 11, 12, 16, 17, 18, 19, 23, 24, 25]);
    expect(valuesOf(shippedSource(shipped, 't', share(0)))).toEqual(w0);
    expect([...w0, ...w1].sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i));
  });
});

describe('morsel sizes', () => {
  it('a batch is cut into pieces of about one size, so the round-robin deal gives every worker about the same rows', () => {
    // TPC-H SF 1 orders: 23 batches of 65,536 rows (the last shorter), morsels of 46,875 rows at 2 workers.
    const lengths = [...Array.from({ length: 22 }, () => 65_536), 1_500_000 - 22 * 65_536];
    const ranges = morselRanges(lengths, 46_875);
    const share = [0, 0];
    for (let m = 0; m < ranges.length / 3; m++) {
      const rows = ranges[3 * m + 2]! - ranges[3 * m + 1]!;
      expect(rows).toBeLessThanOrEqual(46_875);
      share[m % 2]! += rows;
    }
    expect(share[0]! + share[1]!).toBe(1_500_000);
    expect(Math.max(...share) / Math.min(...share)).toBeLessThan(1.1);
  });
});

describe('DOUBLE sums on worker threads', { timeout: 180_000 }, () => {
  const p2 = tpchEnv(0.01, { parallelism: 2, workers: 'always', batchSize: 1024 });
  afterAll(async () => {
    await p2.close();
  });

  it('have the same bits on every run, and Q15 finds its supplier every time', async () => {
    const sql = 'SELECT l_suppkey, sum(l_extendedprice * (1 - l_discount)) AS r FROM lineitem GROUP BY l_suppkey ORDER BY l_suppkey';
    const runs: Float64Array[] = [];
    for (let i = 0; i < 4; i++) runs.push((await p2.sql(sql).collect()).getChild('r')!.toArray() as Float64Array);
    for (const r of runs.slice(1)) expect(Buffer.from(r.buffer, r.byteOffset, r.byteLength).equals(Buffer.from(runs[0]!.buffer, runs[0]!.byteOffset, runs[0]!.byteLength))).toBe(true);
    const before = workerStats(p2).stages;
    for (let i = 0; i < 4; i++) expect((await p2.sql(tpchSql(15).sql).collect()).numRows).toBe(1);
    expect(workerStats(p2).stages).toBeGreaterThan(before);
  });
});

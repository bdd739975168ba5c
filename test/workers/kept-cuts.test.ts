/**
 * SharedTables keeps a table version's cut points (ship-tables.ts `cut`): a stage's second query
 * reuses the sorted ranges and co-partition cuts of its first instead of reading every batch of
 * the table again, and a new version of either table gets cuts of its own.
 */
import * as arrow from 'apache-arrow';
import { afterAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/index.js';
import { SharedTables } from '../../src/planner/ship-tables.js';
import { memorySource } from '../../src/io/memory.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { workerStats } from './helpers.js';

const keyed = (keys: number[][]): arrow.RecordBatch[] => keys.map((k) => arrow.tableFromArrays({ k: Int32Array.from(k) }).batches[0]!);

describe('SharedTables.cut', () => {
  it('makes a value once per table version, key and other tables', () => {
    const shared = new SharedTables();
    const a = memorySource(keyed([[1, 2, 3]]), 'a');
    const b = memorySource(keyed([[1, 2]]), 'b');
    const b2 = memorySource(keyed([[1, 2]]), 'b');
    let made = 0;
    const make = (): number => ++made;
    expect(shared.cut(a, 'x', [b], make)).toBe(1);
    expect(shared.cut(a, 'x', [b], make)).toBe(1);
    // Another version of the other table, another key, another table: made again.
    expect(shared.cut(a, 'x', [b2], make)).toBe(2);
    expect(shared.cut(a, 'y', [b2], make)).toBe(3);
    expect(shared.cut(b, 'x', [b2], make)).toBe(4);
    // The latest value per key is kept; an undefined value is kept too.
    expect(shared.cut(a, 'x', [b2], make)).toBe(2);
    let none = 0;
    expect(shared.cut(a, 'u', [], () => { none++; return undefined; })).toBeUndefined();
    expect(shared.cut(a, 'u', [], () => { none++; return undefined; })).toBeUndefined();
    expect(none).toBe(1);
  });

  it('sortedRanges: the same arrays on a second call, equal to a fresh cut, per number of workers', () => {
    const keys = Array.from({ length: 6 }, (_, i) => Array.from({ length: 5000 }, (_, j) => i * 5000 + j));
    const source = memorySource(keyed(keys), 't');
    const shared = new SharedTables();
    shared.ship(source, [0], false);
    const r2 = shared.sortedRanges(source, 0, 2, 4096)!;
    expect(shared.sortedRanges(source, 0, 2, 4096)).toBe(r2);
    const r3 = shared.sortedRanges(source, 0, 3, 4096)!;
    expect(r3).not.toBe(r2);
    expect(r3.length).toBe(3);
    const fresh = new SharedTables();
    fresh.ship(source, [0], false);
    expect(fresh.sortedRanges(source, 0, 2, 4096)!.map((r) => Array.from(r))).toEqual(r2.map((r) => Array.from(r)));
  });

  it('isClustered agrees with clusteredColumn', () => {
    const shared = new SharedTables();
    const clustered = memorySource(keyed([[10, 11], [1, 2], [5, 6]]), 'c');
    const not = memorySource(keyed([[3, 1], [2, 4]]), 'n');
    expect(shared.isClustered(clustered, 0)).toBe(true);
    expect(shared.clusteredColumn(clustered, 0)?.order).toEqual([1, 2, 0]);
    expect(shared.isClustered(not, 0)).toBe(false);
    expect(shared.clusteredColumn(not, 0)).toBeUndefined();
  });
});

describe('a co-partitioned stage run twice, then over a new version of its other table', { timeout: 120_000 }, () => {
  const p2 = TableEnvironment.create({ parallelism: 2, workers: 'always' });
  const p1 = TableEnvironment.create({ parallelism: 1 });
  afterAll(async () => { await p1.close(); await p2.close(); });

  it('cut at key changes each time, with the answers of parallelism 1', async () => {
    const n = 40_000;
    // Orders clustered by o_key in `parts` batches (a new version's cut differs in its batches and offsets).
    const orders = (shift: number, parts: number): arrow.Table => {
      const size = Math.ceil(n / parts);
      return new arrow.Table(Array.from({ length: parts }, (_, b) => {
        const lo = b * size;
        const hi = Math.min(n, lo + size);
        return arrow.tableFromArrays({ o_key: Int32Array.from({ length: hi - lo }, (_, i) => lo + i), o_v: Int32Array.from({ length: hi - lo }, (_, i) => ((lo + i) * 7 + shift) % 100) }).batches[0]!;
      }));
    };
    const items = arrow.tableFromArrays({ l_key: Int32Array.from({ length: 4 * n }, (_, i) => i >> 2), l_x: Float64Array.from({ length: 4 * n }, (_, i) => (i % 13) * 0.25) });
    for (const e of [p1, p2]) e.registerTable('items', items);
    const sql = 'SELECT o_v, sum(l_x) AS s, count(*) AS c FROM orders JOIN items ON o_key = l_key WHERE o_v < 60 GROUP BY o_v';
    for (const [shift, parts] of [[0, 1], [0, 1], [3, 3]] as const) {
      for (const e of [p1, p2]) e.registerTable('orders', orders(shift, parts));
      const before = workerStats(p2).traces.length;
      const a = await p2.sql(sql).collect();
      const traces = workerStats(p2).traces.slice(before);
      expect(traces.map((t) => [t.mode, t.contiguous])).toEqual([['partial', true]]);
      expectSameResult(fromArrow(a), fromArrow(await p1.sql(sql).collect()), {});
    }
  });
});

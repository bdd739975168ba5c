/**
 * A worker keeps the table columns it rebuilt from shared memory across tasks
 * (src/planner/ship-column-cache.ts): per-Data facts that kernels cache (a Utf8 column's
 * "every string is one byte") are then computed once per worker, not once per query.
 */
import * as arrow from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { memorySource } from '../../src/io/memory.js';
import { SharedTables, shippedSource } from '../../src/planner/ship-tables.js';
import { ColumnCache } from '../../src/planner/ship-column-cache.js';

function table(k: number): ReturnType<typeof memorySource> {
  const batches = [0, 1].map((b) => new arrow.RecordBatch({
    x: arrow.makeData({ type: new arrow.Int32(), data: Int32Array.from({ length: 4 }, (_, i) => 100 * k + 10 * b + i) }),
    s: arrow.vectorFromArray(['a', 'b', 'c', 'd'].map((c) => `${c}${k}`), new arrow.Utf8()).data[0]!,
  }));
  return memorySource(batches, `t${k}`);
}

/** The Data objects and values a scan of the whole shipped table yields (column `c`). */
function scanned(src: ReturnType<typeof shippedSource>, c: number): { data: arrow.Data[]; values: unknown[] } {
  const data: arrow.Data[] = [];
  const values: unknown[] = [];
  for (const b of src.scan({ partition: 0, batchSize: 1 << 20, columns: [c] }) as Iterable<arrow.RecordBatch>) {
    data.push(b.data.children[0]!);
    values.push(...b.getChildAt(0)!.toArray());
  }
  return { data, values };
}

describe('shared column ids', () => {
  it('one id per table version and column, the same on every ship', () => {
    const shared = new SharedTables();
    const a = table(1);
    const b = table(2);
    const a1 = shared.ship(a, [0, 1], false);
    const a2 = shared.ship(a, [1], false);
    const b1 = shared.ship(b, [0, 1], false);
    expect(a2.ids![1]).toBe(a1.ids![1]);
    expect(a1.ids![0]).not.toBe(a1.ids![1]);
    expect(new Set([a1.ids![0], a1.ids![1], b1.ids![0], b1.ids![1]]).size).toBe(4);
  });
});

describe('ColumnCache', () => {
  it('a later task scanning the same shared column gets the same Data objects, with the same values', () => {
    const shipped = new SharedTables().ship(table(1), [0, 1], false);
    const kept = new ColumnCache();
    kept.beginTask();
    const first = scanned(shippedSource(shipped, 't', undefined, kept), 1);
    kept.beginTask();
    const second = scanned(shippedSource(shipped, 't', undefined, kept), 1);
    expect(second.values).toEqual(['a1', 'b1', 'c1', 'd1', 'a1', 'b1', 'c1', 'd1']);
    expect(second.values).toEqual(first.values);
    expect(second.data.every((d, i) => d === first.data[i])).toBe(true);
    // Without the cache every source rebuilds its columns.
    const fresh = scanned(shippedSource(shipped, 't'), 1);
    expect(fresh.values).toEqual(first.values);
    expect(fresh.data.some((d, i) => d === first.data[i])).toBe(false);
  });

  it('different ids are different columns', () => {
    const shared = new SharedTables();
    const one = shared.ship(table(1), [0], false);
    const two = shared.ship(table(2), [0], false);
    const kept = new ColumnCache();
    kept.beginTask();
    expect(scanned(shippedSource(one, 't', undefined, kept), 0).values).toEqual([100, 101, 102, 103, 110, 111, 112, 113]);
    expect(scanned(shippedSource(two, 't', undefined, kept), 0).values).toEqual([200, 201, 202, 203, 210, 211, 212, 213]);
    expect(kept.size).toBe(2);
  });

  it('drops a column no task used for keepTasks tasks, and rebuilds it on its next use', () => {
    const shared = new SharedTables();
    const one = shared.ship(table(1), [0], false);
    const two = shared.ship(table(2), [0], false);
    const kept = new ColumnCache(2);
    kept.beginTask();
    const d1 = scanned(shippedSource(one, 't', undefined, kept), 0).data;
    for (let i = 0; i < 2; i++) { kept.beginTask(); scanned(shippedSource(two, 't', undefined, kept), 0); }
    expect(kept.size).toBe(2); // `one` was used 2 tasks ago: still kept
    kept.beginTask();
    expect(kept.size).toBe(1); // 3 tasks ago: dropped
    const again = scanned(shippedSource(one, 't', undefined, kept), 0);
    expect(again.values).toEqual([100, 101, 102, 103, 110, 111, 112, 113]);
    expect(again.data[0]).not.toBe(d1[0]);
  });
});

/**
 * A worker's scan of a shipped table (planner/ship-table-scan.ts): the columns asked for, in that order; a
 * batch over four times the batch size split into batch-size slices; a scan set up once reads the same rows
 * each time it is iterated anew; cancellation (the signal, or the morsels' shared flag) stops it.
 */
import * as arrow from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { memorySource } from '../../src/io/memory.js';
import { morselRanges, SharedTables, shippedSource, type Morsels } from '../../src/planner/ship-tables.js';

function table(rows: number): ReturnType<SharedTables['ship']> {
  const batch = new arrow.RecordBatch({
    x: arrow.makeData({ type: new arrow.Int32(), data: Int32Array.from({ length: rows }, (_, i) => i) }),
    y: arrow.makeData({ type: new arrow.Float64(), data: Float64Array.from({ length: rows }, (_, i) => i / 2) }),
  });
  return new SharedTables().ship(memorySource([batch], 't'), [0, 1], false);
}

describe('shipped table scan', () => {
  it('reads the columns asked for, in that order, and splits a batch over 4× the batch size', () => {
    const src = shippedSource(table(100), 't');
    const out = [...src.scan({ partition: 0, batchSize: 10, columns: [1, 0] }) as Iterable<arrow.RecordBatch>];
    expect(out.map((b) => b.numRows)).toEqual(Array.from({ length: 10 }, () => 10));
    expect(out[0]!.schema.fields.map((f) => f.name)).toEqual(['y', 'x']);
    expect(out.flatMap((b) => [...(b.getChildAt(1)!.toArray() as Int32Array)])).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(out[9]!.getChildAt(0)!.get(9)).toBe(49.5);
    // At most 4× the batch size: not split.
    expect([...src.scan({ partition: 0, batchSize: 25 }) as Iterable<arrow.RecordBatch>].map((b) => b.numRows)).toEqual([100]);
  });

  it('stops with a CancelledError when the signal is aborted or the morsels are cancelled', () => {
    const t = table(40);
    const ac = new AbortController();
    const it1 = (shippedSource(t, 't').scan({ partition: 0, batchSize: 10, signal: ac.signal }) as Iterable<arrow.RecordBatch>)[Symbol.iterator]();
    ac.abort();
    expect(() => it1.next()).toThrow(/scan of t cancelled/);
    const state = new Int32Array(new SharedArrayBuffer(8));
    const morsels: Morsels = { key: 'm', ranges: morselRanges(t.lengths, 10), worker: 0, workers: 2, state };
    const it2 = (shippedSource(t, 't', morsels).scan({ partition: 0, batchSize: 10 }) as Iterable<arrow.RecordBatch>)[Symbol.iterator]();
    expect(it2.next().value.numRows).toBe(10);
    Atomics.store(state, 1, 1);
    expect(() => it2.next()).toThrow(/scan of t cancelled/);
  });
});

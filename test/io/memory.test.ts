import * as arrow from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { memorySource } from '../../src/io/memory.js';
import { CancelledError } from '../../src/relnode/errors.js';
import { ALL_TYPES, ALL_TYPES_ROWS, allTypesBatch, batchOf, collect, nonCanonicalBatch, rowsOf } from './file-source-helpers.js';

function intBatches(sizes: readonly number[]): arrow.RecordBatch[] {
  let next = 0;
  return sizes.map((n) => batchOf([['n', 'INTEGER'], ['s', 'VARCHAR']], Array.from({ length: n }, () => ({ n: next, s: `v${next++}` }))));
}

describe('memorySource', () => {
  it('serves every type with NULLs zero-copy', async () => {
    const batch = allTypesBatch();
    const src = memorySource(new arrow.Table([batch]), 'sample');
    expect(src.schema.fields.map((f) => [f.name, f.type])).toEqual(ALL_TYPES);
    expect(src.description).toBe('memory sample');
    expect(src.numRows).toBe(5);
    const out = await collect(src);
    expect(rowsOf(out)).toEqual(ALL_TYPES_ROWS);
    out[0]!.data.children.forEach((d, k) => expect(d.values).toBe(batch.data.children[k]!.values));
  });

  it('normalizes non-canonical types once, copying only those columns', async () => {
    const { batch, rows, types } = nonCanonicalBatch();
    const src = memorySource([batch]);
    expect(Object.fromEntries(src.schema.fields.map((f) => [f.name, f.type]))).toEqual(types);
    const out = await collect(src);
    expect(rowsOf(out)).toEqual(rows);
    const ok = batch.schema.fields.findIndex((f) => f.name === 'ok');
    expect(out[0]!.data.children[ok]!.values).toBe(batch.data.children[ok]!.values);
    const dict = out[0]!.schema.fields.find((f) => f.name === 'dict8')!;
    expect(arrow.DataType.isDictionary(dict.type)).toBe(true);
    // Scanning twice converts nothing again.
    const again = await collect(src);
    expect(again[0]!.data.children[0]!.values).toBe(out[0]!.data.children[0]!.values);
  });

  it('has one partition per batch (capped at 64), each a contiguous range: partitions in order read the table in order', async () => {
    const src = memorySource(intBatches([3, 0, 4, 5, 6]));
    expect(src.partitions).toBe(4); // the empty batch is dropped
    const firsts = await Promise.all([0, 1, 2, 3].map(async (p) => (await collect(src, { partition: p })).map((b) => b.numRows)));
    expect(firsts).toEqual([[3], [4], [5], [6]]);
    const many = memorySource(intBatches(Array.from({ length: 130 }, () => 1)));
    expect(many.partitions).toBe(64);
    expect((await collect(many, { partition: 1 })).map((b) => rowsOf([b])[0]!.n)).toEqual([2, 3]);
    const inOrder: number[] = [];
    for (let p = 0; p < 64; p++) for (const b of await collect(many, { partition: p })) inOrder.push(rowsOf([b])[0]!.n as number);
    expect(inOrder).toEqual(Array.from({ length: 130 }, (_, k) => k));
    const empty = memorySource([]);
    expect(empty.partitions).toBe(1);
    expect(empty.schema.fields).toEqual([]);
    expect(await collect(empty)).toEqual([]);
  });

  it('projects by selecting children and splits batches larger than 4 × batchSize', async () => {
    const [big] = intBatches([10_001]);
    const src = memorySource([big!]);
    const small = await collect(src, { batchSize: 5000, columns: [1] });
    expect(small.map((b) => b.numRows)).toEqual([10_001]);
    expect(small[0]!.schema.fields.map((f) => f.name)).toEqual(['s']);
    expect(small[0]!.data.children[0]).toBe(big!.data.children[1]);
    const split = await collect(src, { batchSize: 1000, columns: [1, 0] });
    expect(split.map((b) => b.numRows)).toEqual([...Array(10).fill(1000), 1]);
    const rows = rowsOf(split);
    expect(rows[4321]).toEqual({ s: 'v4321', n: 4321 });
    expect(rows.at(-1)).toEqual({ s: 'v10000', n: 10_000 });
    expect((split[3]!.data.children[1]!.values as Int32Array).buffer).toBe((big!.data.children[0]!.values as Int32Array).buffer);
  });

  it('rebases sliced input (Arrow slice offsets) to offset-0 columns', async () => {
    const sliced = allTypesBatch().slice(1, 4);
    expect(sliced.data.children[0]!.offset).toBe(1);
    const out = await collect(memorySource([sliced]));
    expect(rowsOf(out)).toEqual(ALL_TYPES_ROWS.slice(1, 4));
  });

  it('stops when the signal is aborted', async () => {
    const src = memorySource(intBatches([10_000]));
    const ctrl = new AbortController();
    const seen: number[] = [];
    expect(() => {
      for (const b of src.scan({ partition: 0, batchSize: 1000, signal: ctrl.signal }) as Iterable<arrow.RecordBatch>) { seen.push(b.numRows); ctrl.abort(); }
    }).toThrow(CancelledError);
    expect(seen).toEqual([1000]);
  });
});

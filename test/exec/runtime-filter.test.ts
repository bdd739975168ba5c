/**
 * The probe scan's side of runtime filters (exec/runtime-filter.ts): several
 * filters on one scan narrow one selection, the rows are gathered once, and
 * the counters say how many rows each filter tested.
 */
import { describe, expect, it } from 'vitest';
import { Int32, vectorFromArray, type RecordBatch } from 'apache-arrow';
import { batchFromColumns } from '../../src/exec/batch.js';
import { RuntimeFilterSlot, runtimeFilteredSource, type Prefilter } from '../../src/exec/runtime-filter.js';
import type { SourceContext, SourceEvent } from '../../src/exec/operator.js';

const i32 = (xs: number[]) => vectorFromArray(xs, new Int32()).data[0]!;

function slotOf(keys: number[]): RuntimeFilterSlot {
  const slot = new RuntimeFilterSlot(1, 1, 1);
  slot.instantiated(0);
  slot.contribute([i32(keys)]);
  return slot;
}

async function drain(batches: RecordBatch[], slots: RuntimeFilterSlot[], columns: number[], prefilter?: Prefilter): Promise<RecordBatch[]> {
  let i = 0;
  const factory = runtimeFilteredSource(() => ({ next: () => batches[i++] ?? null, close: () => {} }), slots.map((slot, u) => ({ slot, key: 0, column: columns[u]! })), prefilter);
  const src = await factory({} as SourceContext);
  const out: RecordBatch[] = [];
  for (;;) {
    const ev = (await src.next()) as SourceEvent | null;
    if (ev === null) return out;
    out.push(ev as RecordBatch);
  }
}

describe('runtime-filtered source', () => {
  it('two filters on one scan: the second tests only the rows the first kept, and rows are copied once', async () => {
    const n = 1000;
    const a = Array.from({ length: n }, (_, i) => i);
    const b = Array.from({ length: n }, (_, i) => (i * 7) % 100);
    const batch = batchFromColumns(['a', 'b'], [i32(a), i32(b)], n);
    const even = slotOf(a.filter((x) => x % 2 === 0));
    const small = slotOf([0, 7, 14, 21]);
    const out = await drain([batch], [even, small], [0, 1]);
    const want = a.filter((i) => i % 2 === 0 && [0, 7, 14, 21].includes(b[i]!));
    expect(out.flatMap((r) => Array.from(r.getChildAt(0)!.toArray() as Int32Array))).toEqual(want);
    expect(out.flatMap((r) => Array.from(r.getChildAt(1)!.toArray() as Int32Array))).toEqual(want.map((i) => b[i]!));
    expect(even.rowsTested).toBe(n);
    expect(even.rowsKept).toBe(n / 2);
    expect(small.rowsTested).toBe(n / 2);
    expect(small.rowsKept).toBe(want.length);
  });

  it('two filters over batches of growing sizes: the second selection buffer grows with the first (made only when needed)', async () => {
    const sizes = [10, 1000, 3000, 700, 5000];
    let base = 0;
    const batches = sizes.map((n) => {
      const a = Array.from({ length: n }, (_, i) => base + i);
      base += n;
      return batchFromColumns(['a', 'b'], [i32(a), i32(a.map((x) => x % 10))], n);
    });
    const mod3 = slotOf(Array.from({ length: base }, (_, i) => i).filter((x) => x % 3 === 0));
    const low = slotOf([0, 1, 2, 3]);
    const out = await drain(batches, [mod3, low], [0, 1]);
    const want = Array.from({ length: base }, (_, i) => i).filter((x) => x % 3 === 0 && x % 10 < 4);
    expect(out.flatMap((r) => Array.from(r.getChildAt(0)!.toArray() as Int32Array))).toEqual(want);
    // One filter alone on a scan: the same rows as testing it directly.
    const single = await drain(batches, [slotOf([0, 1, 2, 3])], [1]);
    expect(single.reduce((a, r) => a + r.numRows, 0)).toBe((base / 10) * 4);
  });

  it('a batch no row of which survives is skipped; one whose rows all survive passes unchanged', async () => {
    const all = batchFromColumns(['a'], [i32([1, 2, 3])], 3);
    const none = batchFromColumns(['a'], [i32([7, 8])], 2);
    const out = await drain([none, all], [slotOf([1, 2, 3]), slotOf([1, 2, 3, 4])], [0, 0]);
    expect(out).toEqual([all]);
  });

  it('the prefilter narrows the rows the key filters kept, before the one copy; batches no filter tested pass untouched', async () => {
    const n = 1000;
    const a = Array.from({ length: n }, (_, i) => i);
    const b = Array.from({ length: n }, (_, i) => (i * 7) % 100);
    const batch = batchFromColumns(['a', 'b'], [i32(a), i32(b)], n);
    const seen: number[][] = [];
    // b < 50, in place; it must only ever see rows the key filter kept.
    const below50: Prefilter = (bt, sel) => {
      seen.push(Array.from(sel));
      const v = bt.getChildAt(1)!.data[0]!.values as Int32Array;
      let k = 0;
      for (let j = 0; j < sel.length; j++) if (v[sel[j]!]! < 50) sel[k++] = sel[j]!;
      return sel.subarray(0, k);
    };
    const mult3 = slotOf(a.filter((x) => x % 3 === 0));
    const out = await drain([batch], [mult3], [0], below50);
    const want = a.filter((i) => i % 3 === 0 && b[i]! < 50);
    expect(out.flatMap((r) => Array.from(r.getChildAt(0)!.toArray() as Int32Array))).toEqual(want);
    expect(out.flatMap((r) => Array.from(r.getChildAt(1)!.toArray() as Int32Array))).toEqual(want.map((i) => b[i]!));
    expect(seen).toEqual([a.filter((i) => i % 3 === 0)]);
    // A key filter that keeps every row still hands all rows to the prefilter; one that keeps none skips the batch.
    expect((await drain([batch], [slotOf(a)], [0], below50)).flatMap((r) => Array.from(r.getChildAt(0)!.toArray() as Int32Array))).toEqual(a.filter((i) => b[i]! < 50));
    expect(await drain([batch], [slotOf([5000])], [0], below50)).toEqual([]);
    // No published filter: the batch passes as it is (the Filter above applies the conjuncts).
    const unpublished = new RuntimeFilterSlot(2, 1, 1);
    unpublished.instantiated(0);
    seen.length = 0;
    expect(await drain([batch], [unpublished], [0], below50)).toEqual([batch]);
    expect(seen).toEqual([]);
    // A prefilter returning a fresh array (not a view of the selection) is honoured too.
    const fresh: Prefilter = (_bt, sel) => Int32Array.from(sel).filter((i) => i < 10);
    expect((await drain([batch], [mult3], [0], fresh)).flatMap((r) => Array.from(r.getChildAt(0)!.toArray() as Int32Array))).toEqual([0, 3, 6, 9]);
  });
});

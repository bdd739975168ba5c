/**
 * The probe scan's side of runtime filters (exec/runtime-filter.ts): several
 * filters on one scan narrow one selection, the rows are gathered once, and
 * the counters say how many rows each filter tested.
 */
import { describe, expect, it } from 'vitest';
import { Int32, vectorFromArray, type RecordBatch } from 'apache-arrow';
import { batchFromColumns } from '../../src/exec/batch.js';
import { RuntimeFilterSlot, runtimeFilteredSource } from '../../src/exec/runtime-filter.js';
import type { SourceContext, SourceEvent } from '../../src/exec/operator.js';

const i32 = (xs: number[]) => vectorFromArray(xs, new Int32()).data[0]!;

function slotOf(keys: number[]): RuntimeFilterSlot {
  const slot = new RuntimeFilterSlot(1, 1, 1);
  slot.instantiated(0);
  slot.contribute([i32(keys)]);
  return slot;
}

async function drain(batches: RecordBatch[], slots: RuntimeFilterSlot[], columns: number[]): Promise<RecordBatch[]> {
  let i = 0;
  const factory = runtimeFilteredSource(() => ({ next: () => batches[i++] ?? null, close: () => {} }), slots.map((slot, u) => ({ slot, key: 0, column: columns[u]! })));
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

  it('a batch no row of which survives is skipped; one whose rows all survive passes unchanged', async () => {
    const all = batchFromColumns(['a'], [i32([1, 2, 3])], 3);
    const none = batchFromColumns(['a'], [i32([7, 8])], 2);
    const out = await drain([none, all], [slotOf([1, 2, 3]), slotOf([1, 2, 3, 4])], [0, 0]);
    expect(out).toEqual([all]);
  });
});

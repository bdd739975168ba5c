/**
 * SlotTable.reserve grows the slots once, to their final size (hash-slots.ts): doubling up to it
 * allocated as much again in slot arrays dropped at once. Keys inserted before a reserve keep
 * their group ids, small tables and tables big enough to grow incrementally alike.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Int32, makeData } from 'apache-arrow';
import { SlotTable } from '../../../src/exec/kernels/hash-slots.js';
import { KeyTable } from '../../../src/exec/kernels/hash.js';
import { dropPooledArrays } from '../../../src/exec/kernels/buffer-pool.js';

const RealInt32Array = globalThis.Int32Array;
afterEach(() => { globalThis.Int32Array = RealInt32Array; });

/** Runs f counting the Int32Arrays of at least `minLength` elements constructed meanwhile. */
function countAllocations(minLength: number, f: () => void): number {
  let count = 0;
  class Counting extends RealInt32Array {
    constructor(...args: unknown[]) {
      super(...(args as [number]));
      if (typeof args[0] === 'number' && args[0] >= minLength) count++;
    }
  }
  dropPooledArrays(); // arrays another test left in the thread's pool (buffer-pool.ts) would be taken instead of allocated
  globalThis.Int32Array = Counting as unknown as Int32ArrayConstructor;
  try { f(); } finally { globalThis.Int32Array = RealInt32Array; }
  return count;
}

const col = (xs: number[]) => makeData({ type: new Int32(), length: xs.length, data: RealInt32Array.from(xs) });

describe('SlotTable.reserve', () => {
  it('allocates one slot array of the final size, not every doubling up to it', () => {
    const t = new SlotTable(1);
    const allocations = countAllocations(64, () => t.reserve(100_000, 0, new RealInt32Array(16), new Uint8Array(16)));
    expect(t.mask + 1).toBe(1 << 18); // the smallest power of two with load ≤ 1/2
    expect(allocations).toBe(1);
  });

  it('keeps the group ids of keys inserted before it, below and above the incremental-grow size', () => {
    for (const before of [1000, 70_000]) {
      const table = new KeyTable(['INTEGER']);
      const keys = Array.from({ length: before }, (_, i) => i * 7 + 3);
      const gids = table.insertKeys([col(keys)], keys.length);
      table.reserve(300_000);
      const more = Array.from({ length: 1000 }, (_, i) => -1 - i);
      table.insertKeys([col(more)], more.length);
      table.freeze();
      expect(Array.from(table.find([col(keys)], keys.length))).toEqual(Array.from(gids));
      expect(Array.from(table.find([col([-1, -1000, 5])], 3))).toEqual([before, before + 999, -1]);
    }
  });
});

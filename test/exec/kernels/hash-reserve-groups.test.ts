/**
 * KeyTable.reserve sizes the group arrays (group words, NULL flags) once, like the slots
 * (hash-probe.ts reserveGroups): a join build of n rows no longer doubles them up to n groups,
 * and groups inserted before a reserve keep their ids and key words.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Int32, makeData } from 'apache-arrow';
import { KeyTable } from '../../../src/exec/kernels/hash.js';
import { dropPooledArrays } from '../../../src/exec/kernels/buffer-pool.js';

const RealInt32Array = globalThis.Int32Array;
const RealUint8Array = globalThis.Uint8Array;
afterEach(() => { globalThis.Int32Array = RealInt32Array; globalThis.Uint8Array = RealUint8Array; });

/** Runs f counting the Int32Arrays and Uint8Arrays of at least `minLength` elements constructed meanwhile. */
function countAllocations(minLength: number, f: () => void): { i32: number; u8: number } {
  const counts = { i32: 0, u8: 0 };
  class I32 extends RealInt32Array {
    constructor(...args: unknown[]) {
      super(...(args as [number]));
      if (typeof args[0] === 'number' && args[0] >= minLength) counts.i32++;
    }
    // Arrays made before the swap still pass the kernels' instanceof checks.
    static override [Symbol.hasInstance](x: unknown): boolean { return x instanceof RealInt32Array; }
  }
  class U8 extends RealUint8Array {
    constructor(...args: unknown[]) {
      super(...(args as [number]));
      if (typeof args[0] === 'number' && args[0] >= minLength) counts.u8++;
    }
    static override [Symbol.hasInstance](x: unknown): boolean { return x instanceof RealUint8Array; }
  }
  dropPooledArrays(); // arrays another test left in the thread's pool (buffer-pool.ts) would be taken instead of allocated
  globalThis.Int32Array = I32 as unknown as Int32ArrayConstructor;
  globalThis.Uint8Array = U8 as unknown as Uint8ArrayConstructor;
  try { f(); } finally { globalThis.Int32Array = RealInt32Array; globalThis.Uint8Array = RealUint8Array; }
  return counts;
}

const col = (xs: number[]) => makeData({ type: new Int32(), length: xs.length, data: RealInt32Array.from(xs) });

describe('KeyTable.reserve and the group arrays', () => {
  it('a join build of sparse keys allocates each group array once', () => {
    // Keys spread over a range too wide for the direct-mapped path, in descending order (ascending
    // keys stay sorted runs: hash-sorted.ts): the hashed build reserves.
    const n = 100_000;
    const keys = Array.from({ length: n }, (_, i) => (n - 1 - i) * 977 + 5);
    const table = new KeyTable(['INTEGER']);
    const c = col(keys);
    let gids!: Int32Array;
    const counts = countAllocations(1024, () => { gids = table.build([c], n); });
    // Slots, group words and the gids out: one each (11 before: the group words doubled up to n,
    // and the key encoder made an identity selection the zero-copy key column does not read).
    expect(counts.i32).toBe(3);
    expect(counts.u8).toBe(1);
    expect(table.size).toBe(n);
    expect(Array.from(gids.subarray(0, 5))).toEqual([0, 1, 2, 3, 4]);
    expect(table.inSortedRuns).toBe(false);
    const probe = table.find([col([keys[0]!, keys[1]!, 6, keys[n - 1]!])], 4);
    expect(Array.from(probe)).toEqual([0, 1, -1, n - 1]);
  });

  it('a direct-mapped join build (dense keys) allocates each group array once', () => {
    // Dense unique keys, shuffled: the direct-mapped path, whose groups are at most min(rows, key range).
    const n = 100_000;
    const keys = Array.from({ length: n }, (_, i) => ((i * 7919) % n) + 1000);
    const table = new KeyTable(['INTEGER']);
    const c = col(keys);
    let gids!: Int32Array;
    const counts = countAllocations(1024, () => { gids = table.build([c], n); });
    // The direct map, the gids out and the group words: one each (the group words doubled up to n before).
    expect(counts.i32).toBe(3);
    expect(counts.u8).toBe(1);
    expect(table.size).toBe(n);
    expect(Array.from(gids.subarray(0, 3))).toEqual([0, 1, 2]);
    const probe = table.find([col([keys[0]!, keys[n - 1]!, 999, n + 1000])], 4);
    expect(Array.from(probe)).toEqual([0, n - 1, -1, -1]);
  });

  it('a join build fills its slots up to 3/4 (frozen after): 150K keys in 2^18 slots, no grow while inserting', () => {
    const n = 150_000;
    const keys = Array.from({ length: n }, (_, i) => (n - 1 - i) * 41 + 7);
    const table = new KeyTable(['INTEGER']);
    const c = col(keys);
    let gids!: Int32Array;
    const counts = countAllocations(1 << 16, () => { gids = table.build([c], n); });
    expect(table.slotCapacity).toBe(1 << 18); // load ≤ 1/2 took 2^19
    expect(counts.i32).toBe(3); // slots once, group words, gids: no grow at half load
    expect(Array.from(gids.subarray(n - 3))).toEqual([n - 3, n - 2, n - 1]);
    const probe = [keys[0]!, keys[1]!, 8, keys[n - 1]!, keys[0]! + 41];
    expect(Array.from(table.find([col(probe)], probe.length))).toEqual([0, 1, -1, n - 1, -1]);
  });

  it('a join build of ascending sparse keys stays sorted runs: group words and gids, no slots', () => {
    const n = 150_000;
    const keys = Array.from({ length: n }, (_, i) => i * 41 + 7);
    const table = new KeyTable(['INTEGER']);
    let gids!: Int32Array;
    const counts = countAllocations(1 << 16, () => { gids = table.build([col(keys)], n); });
    expect(table.inSortedRuns).toBe(true);
    expect(counts.i32).toBe(2); // group words and gids: no slot array
    expect(table.slotCapacity).toBe(8);
    expect(Array.from(gids.subarray(n - 3))).toEqual([n - 3, n - 2, n - 1]);
    const probe = [7, 7, 48, 49, keys[n - 1]!, keys[n - 1]! + 41, 6, 48];
    expect(Array.from(table.find([col(probe)], probe.length))).toEqual([0, 0, 1, -1, n - 1, -1, -1, 1]);
    expect(table.inSortedRuns).toBe(true);
    // A probe in descending order leaves the runs: the groups move into slots sized as a reserved build's.
    const down = Array.from({ length: 1000 }, (_, i) => keys[n - 1 - 3 * i]! + (i % 2));
    const got = table.find([col(down)], down.length);
    expect(table.inSortedRuns).toBe(false);
    expect(table.slotCapacity).toBe(1 << 18); // load ≤ 3/4; the group-by sizing (4× the groups) took 2^20
    expect(Array.from(got)).toEqual(down.map((k, i) => (i % 2 === 0 ? n - 1 - 3 * i : -1)));
  });

  it('keeps the ids and key words of groups inserted before it', () => {
    for (const before of [10, 20_000]) {
      const table = new KeyTable(['INTEGER']);
      const first = Array.from({ length: before }, (_, i) => 3 * i + 1);
      table.insertKeys([col(first)], before);
      table.reserve(50_000);
      const more = Array.from({ length: 5000 }, (_, i) => -7 - i);
      table.insertKeys([col(more)], more.length);
      table.freeze();
      const all = [...first, ...more];
      const gids = RealInt32Array.from(all.map((_, i) => i));
      expect(Array.from(table.keyColumn(0, gids).values as Int32Array)).toEqual(all);
      expect(Array.from(table.find([col([1, -7, 2])], 3))).toEqual([0, before, -1]);
    }
  });
});

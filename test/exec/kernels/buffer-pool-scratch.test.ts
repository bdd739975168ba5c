/**
 * Arrays of one run handed to the next run on the same thread (exec/kernels/buffer-pool.ts, takeScratch): only
 * big whole arrays are pooled, within a bounded size, and the owners that give arrays back — Filter,
 * runtime-filtered scans, hash joins and their runtime filters — answer the next query as over fresh
 * arrays, also after a cancelled one.
 */
import * as arrow from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { Int32, vectorFromArray } from 'apache-arrow';
import { TableEnvironment } from '../../../src/api/index.js';
import { dropPooledArrays, giveArray, pooledArrayBytes, takeScratch } from '../../../src/exec/kernels/buffer-pool.js';
import { KeyFilter } from '../../../src/exec/kernels/key-filter.js';
import { RuntimeFilterSlot } from '../../../src/exec/runtime-filter.js';

const KB = 1024;

describe('the scratch pool', () => {
  it('scratch takes: only big whole arrays, handed out within 4x of the need, of any kind', () => {
    dropPooledArrays(); // files of the shared vitest pool run in one thread
    giveArray(new Int32Array(100));
    expect(pooledArrayBytes()).toBe(0);
    const big = new Int32Array(64 * KB);
    giveArray(big.subarray(1)); // a view of part of a buffer: not taken
    giveArray(new Int32Array(new SharedArrayBuffer(256 * KB)));
    expect(pooledArrayBytes()).toBe(0);
    giveArray(big);
    giveArray(big); // twice: one entry
    expect(pooledArrayBytes()).toBe(256 * KB);
    expect(takeScratch(Int32Array, 10 * KB) === big).toBe(false); // 6.4x too big: a fresh array
    const f = takeScratch(Float64Array, 20 * KB); // another kind: a view of the pooled buffer
    expect(f).toBeInstanceOf(Float64Array);
    expect(f.buffer).toBe(big.buffer);
    expect(pooledArrayBytes()).toBe(0);
    giveArray(big);
    expect(takeScratch(Int32Array, 60 * KB)).toBe(big);
    expect(pooledArrayBytes()).toBe(0);
    expect(takeScratch(Int32Array, 60 * KB) === big).toBe(false);
  });

  it('keeps at most 64 MB, dropping the oldest', () => {
    dropPooledArrays();
    const arrays = Array.from({ length: 18 }, () => new Float64Array(512 * KB)); // 4 MB each
    for (const a of arrays) giveArray(a);
    expect(pooledArrayBytes()).toBe(64 * KB * KB);
    expect(takeScratch(Float64Array, 512 * KB) === arrays[0]).toBe(false); // dropped (not .not.toBe: its deep comparison of 4 MB arrays is slow)
    dropPooledArrays();
    expect(pooledArrayBytes()).toBe(0);
  });
});

describe('runtime filters give their bits back when the run ends', () => {
  const i32 = (xs: number[]) => vectorFromArray(xs, new Int32()).data[0]!;
  it('after every join subtask closed; a later filter over reused bits holds only its own keys', () => {
    dropPooledArrays();
    const even = Array.from({ length: 50_000 }, (_, i) => 4 * i); // a bitmap of 200K bits: 25 KB
    const slot = new RuntimeFilterSlot(1, 1, 2);
    slot.instantiated(0);
    slot.instantiated(1);
    slot.contribute([i32(even.slice(0, 25_000))]);
    slot.contribute([i32(even.slice(25_000))]);
    const f = slot.filter(0)!;
    expect(f.mode).toBe('bitmap');
    expect(f.mayContain(4) && !f.mayContain(5) && !f.mayContain(6)).toBe(true);
    slot.closed();
    expect(slot.filter(0)).toBe(f); // one subtask still runs
    slot.closed();
    expect(slot.filter(0)).toBeUndefined();
    expect(() => f.mayContain(4)).toThrow(/after its run ended/);
    expect(pooledArrayBytes()).toBeGreaterThan(0);
    // The next filter takes the same bits back, zeroed: its own keys only.
    const odd = KeyFilter.build([i32(Array.from({ length: 50_000 }, (_, i) => 4 * i + 1))])!;
    expect(pooledArrayBytes()).toBe(0);
    expect(odd.mayContain(4)).toBe(false);
    expect(odd.mayContain(5)).toBe(true);
    const sel = new Int32Array(6);
    expect(Array.from(sel.subarray(0, odd.select(i32([0, 1, 2, 3, 4, 5]), sel)))).toEqual([1, 5]);
  });
});

describe('queries whose operators reuse the previous run\'s arrays', () => {
  // A fact table probing a 150K-row dimension (three build batches: the build concatenates its
  // INTEGER and DOUBLE columns), with a Filter, a runtime filter on the fact scan, and a row test.
  const N = 150_000;
  const F = 400_000;
  const dim = (seed: number) => arrow.tableFromArrays({
    dk: Int32Array.from({ length: N }, (_, i) => i),
    da: Int32Array.from({ length: N }, (_, i) => (i * seed) % 1000),
    db: Float64Array.from({ length: N }, (_, i) => ((i * seed) % 97) + 0.25),
    ds: Array.from({ length: N }, (_, i) => (i % 3 === 0 ? 'x' : 'y')),
  });
  const fact = arrow.tableFromArrays({
    fk: Int32Array.from({ length: F }, (_, i) => (i * 7) % (2 * N)), // half the keys have no match
    fx: Float64Array.from({ length: F }, (_, i) => (i % 11) + 1),
  });
  const sql = (d: string) => `SELECT count(*) AS c, sum(fx * db) AS s, sum(da) AS a FROM f JOIN ${d} ON fk = dk WHERE da < 500 AND ds = 'x'`;
  function expected(seed: number): { c: number; s: number; a: number } {
    let c = 0, s = 0, a = 0;
    for (let i = 0; i < F; i++) {
      const k = (i * 7) % (2 * N);
      if (k >= N) continue;
      const da = (k * seed) % 1000;
      if (!(da < 500) || k % 3 !== 0) continue;
      c++; s += ((i % 11) + 1) * (((k * seed) % 97) + 0.25); a += da;
    }
    return { c, s, a };
  }
  const check = (t: arrow.Table, want: { c: number; s: number; a: number }) => {
    const row = t.get(0)!.toJSON() as { c: bigint | number; s: number; a: bigint | number };
    expect(Number(row.c)).toBe(want.c);
    expect(Number(row.a)).toBe(want.a);
    expect(row.s).toBeCloseTo(want.s, 6);
  };

  it('answer as over fresh arrays, also after a cancelled query', async () => {
    dropPooledArrays();
    const env = TableEnvironment.create({ parallelism: 1 });
    env.registerTable('f', fact);
    env.registerTable('d1', dim(3));
    env.registerTable('d2', dim(11));
    try {
      check(await env.sql(sql('d1')).collect(), expected(3));
      expect(pooledArrayBytes()).toBeGreaterThan(0); // the Filter's, the scan's, the join's arrays
      check(await env.sql(sql('d2')).collect(), expected(11));
      // Cancelled while running: whatever it gave back (or not), the next answer is right.
      const ctrl = new AbortController();
      const p = env.sql(sql('d1')).collect({ signal: ctrl.signal });
      setTimeout(() => ctrl.abort(), 1);
      await p.catch(() => undefined);
      check(await env.sql(sql('d2')).collect(), expected(11));
      check(await env.sql(sql('d1')).collect(), expected(3));
    } finally {
      await env.close();
    }
  });
});

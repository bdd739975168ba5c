/**
 * Big aggregate state arrays handed from one aggregate to the next (exec/operators/agg-buffers.ts):
 * only big arrays are pooled, a taken array is zeroed, the pool is bounded, and a query whose state
 * reuses the previous query's array answers as if it were fresh.
 */
import * as arrow from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../src/api/index.js';
import { dropPooled, pooledBytes, recycleF64, takeF64 } from '../../../src/exec/operators/agg-buffers.js';
import { growF64 } from '../../../src/exec/operators/agg-arrays.js';

const MB = 1 << 20;

describe('the state array pool', () => {
  it('keeps only big arrays and hands them back zeroed, sized within 2x', () => {
    dropPooled(); // files of the shared pool run in one thread: another file's aggregate may have left an array
    recycleF64(new Float64Array(1024));
    expect(pooledBytes()).toBe(0);
    const a = new Float64Array(MB); // 8 MB
    a.fill(7);
    recycleF64(a);
    expect(pooledBytes()).toBe(8 * MB);
    expect(takeF64(MB / 4)).toBeUndefined(); // more than twice the need: not taken
    const b = takeF64(MB - 10)!;
    expect(b).toBe(a);
    expect(b.every((x) => x === 0)).toBe(true);
    expect(pooledBytes()).toBe(0);
  });

  it('keeps at most 64 MB, dropping the oldest', () => {
    dropPooled();
    const arrays = Array.from({ length: 10 }, () => new Float64Array(MB));
    for (const a of arrays) recycleF64(a);
    expect(pooledBytes()).toBe(64 * MB);
    while (takeF64(MB) !== undefined);
    expect(pooledBytes()).toBe(0);
  });

  it('growF64 takes a pooled array and copies the old entries into it', () => {
    dropPooled();
    const a = new Float64Array(MB);
    a.fill(3);
    recycleF64(a);
    const old = Float64Array.from([1, 2, 3]);
    const g = growF64(old, MB);
    expect(g).toBe(a);
    expect(Array.from(g.subarray(0, 5))).toEqual([1, 2, 3, 0, 0]);
  });
});

describe('queries whose states reuse the previous state\'s array', () => {
  it('answer as over fresh arrays (250k groups: a 6 MB sum state)', async () => {
    const N = 250_000;
    const t = arrow.tableFromArrays({ k: Int32Array.from({ length: N }, (_, i) => i), v: Float64Array.from({ length: N }, (_, i) => (i % 13) + 0.5) });
    const env = TableEnvironment.create({ parallelism: 1 });
    env.registerTable('t', t);
    try {
      for (const [sql, f] of [
        ['SELECT k, sum(v) AS s FROM t GROUP BY k', (i: number) => (i % 13) + 0.5],
        ['SELECT k, sum(v * 2) AS s FROM t GROUP BY k', (i: number) => 2 * ((i % 13) + 0.5)],
        ['SELECT k, sum(v) AS s FROM t WHERE k % 2 = 0 GROUP BY k', (i: number) => (i % 13) + 0.5],
      ] as const) {
        const r = await env.sql(sql).collect();
        const k = r.getChild('k')!.toArray() as Int32Array;
        const s = r.getChild('s')!.toArray() as Float64Array;
        for (let i = 0; i < r.numRows; i++) if (s[i] !== f(k[i]!)) throw new Error(`${sql}: group ${k[i]} sums to ${s[i]}, not ${f(k[i]!)}`);
        expect(r.numRows).toBe(sql.includes('WHERE') ? N / 2 : N);
      }
      expect(pooledBytes()).toBeGreaterThan(0);
    } finally {
      await env.close();
    }
  });
});

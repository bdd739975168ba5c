/**
 * Big typed arrays handed from one hash table or aggregate state to the next on the same thread
 * (exec/kernels/buffer-pool.ts): only big arrays are pooled, a taken array is zeroed, the pool is
 * bounded, an array given twice is kept once; a key table's group arrays and slots go back when its
 * aggregate has emitted, and queries that reuse them (back to back, after a cancelled one, with other
 * keys) answer as over fresh arrays.
 */
import * as arrow from 'apache-arrow';
import { describe, expect, it, vi } from 'vitest';
import { TableEnvironment } from '../../../src/api/index.js';
import { dropPooledArrays, giveArray, pooledArrayBytes, takeArray } from '../../../src/exec/kernels/buffer-pool.js';
import { growF64 } from '../../../src/exec/operators/agg-arrays.js';
import { KeyTable } from '../../../src/exec/kernels/hash.js';

const MB = 1 << 20;

describe('the array pool', () => {
  it('keeps only big arrays and hands them back zeroed, sized within 2x', () => {
    dropPooledArrays(); // files of the shared pool run in one thread: another file's aggregate may have left an array
    giveArray(new Float64Array(1024));
    expect(pooledArrayBytes()).toBe(0);
    const a = new Float64Array(MB); // 8 MB
    a.fill(7);
    giveArray(a);
    expect(pooledArrayBytes()).toBe(8 * MB);
    expect(takeArray(Float64Array, MB / 4)).toBeUndefined(); // more than twice the need: not taken
    const b = takeArray(Float64Array, MB - 10)!;
    expect(b).toBe(a);
    expect(b.every((x) => x === 0)).toBe(true);
    expect(pooledArrayBytes()).toBe(0);
  });

  it('empties itself after 10 to 20 s without a take or give, and not while it is used', () => {
    dropPooledArrays();
    vi.useFakeTimers();
    try {
      giveArray(new Float64Array(MB));
      vi.advanceTimersByTime(9_000);
      expect(pooledArrayBytes()).toBe(8 * MB);
      // Used before the first check: kept through it, dropped at the next one without use.
      giveArray(new Float64Array(MB / 2));
      vi.advanceTimersByTime(2_000);
      expect(pooledArrayBytes()).toBe(12 * MB);
      vi.advanceTimersByTime(7_000);
      expect(pooledArrayBytes()).toBe(12 * MB);
      expect(takeArray(Float64Array, MB / 2)).toBeDefined(); // a take is a use too
      vi.advanceTimersByTime(3_000);
      expect(pooledArrayBytes()).toBe(8 * MB);
      vi.advanceTimersByTime(10_000);
      expect(pooledArrayBytes()).toBe(0);
      // A give after the drop starts the timer again (the give is a use: kept through the first check).
      giveArray(new Float64Array(MB));
      vi.advanceTimersByTime(10_001);
      expect(pooledArrayBytes()).toBe(8 * MB);
      vi.advanceTimersByTime(10_000);
      expect(pooledArrayBytes()).toBe(0);
    } finally {
      vi.useRealTimers();
      dropPooledArrays();
    }
  });

  it('hands an array of another kind back as a zeroed view of the wanted kind', () => {
    dropPooledArrays();
    const a = new Uint8Array(MB);
    a.fill(255);
    giveArray(a);
    const w = takeArray(Int32Array, MB / 4)!;
    expect(w).toBeInstanceOf(Int32Array);
    expect(w.buffer).toBe(a.buffer);
    expect(w.length).toBe(MB / 4);
    expect(w.every((x) => x === 0)).toBe(true);
    // A byte length that is no multiple of the kind's size: the view covers the whole entries.
    giveArray(new Uint8Array(MB + 5));
    const d = takeArray(Float64Array, MB / 8)!;
    expect(d).toBeInstanceOf(Float64Array);
    expect(d.length).toBe(MB / 8);
  });

  it('keeps an array given twice once, and no views into a bigger buffer', () => {
    dropPooledArrays();
    const a = new Int32Array(MB);
    giveArray(a);
    giveArray(a);
    expect(pooledArrayBytes()).toBe(4 * MB);
    expect(takeArray(Int32Array, MB)).toBe(a);
    expect(takeArray(Int32Array, MB)).toBeUndefined();
    giveArray(new Int32Array(2 * MB).subarray(0, MB));
    expect(pooledArrayBytes()).toBe(0);
  });

  it('keeps at most 64 MB, dropping the oldest', () => {
    dropPooledArrays();
    const arrays = Array.from({ length: 10 }, () => new Float64Array(MB));
    for (const a of arrays) giveArray(a);
    expect(pooledArrayBytes()).toBe(64 * MB);
    while (takeArray(Float64Array, MB) !== undefined);
    expect(pooledArrayBytes()).toBe(0);
  });

  it('growF64 takes a pooled array and copies the old entries into it', () => {
    dropPooledArrays();
    const a = new Float64Array(MB);
    a.fill(3);
    giveArray(a);
    const old = Float64Array.from([1, 2, 3]);
    const g = growF64(old, MB);
    expect(g).toBe(a);
    expect(Array.from(g.subarray(0, 5))).toEqual([1, 2, 3, 0, 0]);
  });
});

describe('a key table released to the pool', () => {
  const col = (xs: Int32Array): arrow.Data => arrow.makeData({ type: new arrow.Int32(), length: xs.length, data: xs });

  it('gives back its group arrays and slots, and a new table over them numbers its own keys', () => {
    dropPooledArrays();
    // Unsorted keys: hashed into slots (not sorted runs), 100K groups.
    const n = 100_000;
    const a = Int32Array.from({ length: n }, (_, i) => (i * 7919) % n);
    const t1 = new KeyTable(['INTEGER']);
    t1.groupIds([col(a)], n);
    expect(t1.size).toBe(n);
    expect(t1.inSortedRuns).toBe(false);
    t1.release();
    expect(pooledArrayBytes()).toBeGreaterThan(n * 4);
    expect(t1.size).toBe(0);
    // Other keys, some equal to t1's: every one is new to t2, in first-seen order.
    const b = Int32Array.from({ length: n }, (_, i) => n - 1 - ((i * 3) % n));
    const t2 = new KeyTable(['INTEGER']);
    const g = t2.groupIds([col(b)], n);
    expect(t2.size).toBe(n);
    for (let i = 0; i < n; i++) if (g[i] !== i) throw new Error(`row ${i}: group ${g[i]}, expected ${i}`);
    const k = t2.keyColumns(0, n)[0]!.values as Int32Array;
    for (let i = 0; i < n; i++) if (k[i] !== b[i]) throw new Error(`group ${i}: key ${k[i]}, expected ${b[i]}`);
  });
});

describe('a join table released to the pool', () => {
  const col = (xs: Int32Array): arrow.Data => arrow.makeData({ type: new arrow.Int32(), length: xs.length, data: xs });

  it('gives back its direct map, and the next build over other keys finds only its own', () => {
    dropPooledArrays();
    const n = 50_000;
    const a = Int32Array.from({ length: n }, (_, i) => ((i * 7919) % n) * 2); // even keys 0 .. 2n - 2
    const t1 = new KeyTable(['INTEGER']);
    t1.build([col(a)], n);
    const before = pooledArrayBytes();
    t1.release();
    expect(pooledArrayBytes()).toBeGreaterThanOrEqual(before + 2 * n * 4); // the direct map over 2n - 1 keys, at least
    const b = Int32Array.from({ length: n }, (_, i) => 2 * i + 1); // odd keys 1 .. 2n - 1: none of t1's
    const t2 = new KeyTable(['INTEGER']);
    const g = t2.build([col(b)], n);
    for (let i = 0; i < n; i++) if (g[i] !== i) throw new Error(`row ${i}: group ${g[i]}`);
    const found = t2.find([col(a)], n);
    for (let i = 0; i < n; i++) if (found[i] !== -1) throw new Error(`t1's key ${a[i]} found in t2 as group ${found[i]}`);
    const own = t2.find([col(b)], n);
    for (let i = 0; i < n; i++) if (own[i] !== i) throw new Error(`key ${b[i]}: group ${own[i]}`);
  });
});

describe('queries whose tables and states reuse the previous query\'s arrays', () => {
  const N = 250_000;
  const t = arrow.tableFromArrays({
    k: Int32Array.from({ length: N }, (_, i) => (i * 7919) % N), // unsorted: hashed key table
    s: Int32Array.from({ length: N }, (_, i) => i), // sorted: sorted runs
    v: Float64Array.from({ length: N }, (_, i) => (i % 13) + 0.5),
  });
  const value = (i: number): number => (i % 13) + 0.5;
  /** Row of key k in column k (k = i * 7919 mod N, 7919 prime to N). */
  const inv = new Int32Array(N);
  for (let i = 0; i < N; i++) inv[(i * 7919) % N] = i;

  async function check(env: TableEnvironment, sql: string, expected: (key: number) => number | undefined, rows: number): Promise<void> {
    const r = await env.sql(sql).collect();
    const k = r.getChild('g')!.toArray() as Int32Array;
    const s = r.getChild('x')!.toArray() as Float64Array;
    expect(r.numRows).toBe(rows);
    for (let i = 0; i < r.numRows; i++) if (s[i] !== expected(k[i]!)) throw new Error(`${sql}: group ${k[i]} gives ${s[i]}, not ${expected(k[i]!)}`);
  }

  const queries: [string, (g: number) => number | undefined, number][] = [
    ['SELECT k AS g, sum(v) AS x FROM t GROUP BY k', (g) => value(inv[g]!), N],
    ['SELECT s AS g, sum(v * 2) AS x FROM t GROUP BY s', (g) => 2 * value(g), N],
    ['SELECT k % 1000 AS g, count(*) * 1.0 AS x FROM t GROUP BY k % 1000', () => N / 1000, 1000],
    ['SELECT k AS g, max(v) AS x FROM t WHERE k % 2 = 0 GROUP BY k', (g) => value(inv[g]!), N / 2],
    ['SELECT s AS g, sum(v) AS x FROM t GROUP BY s HAVING sum(v) > 12', (g) => value(g), Math.floor(N / 13)],
  ];

  for (const parallelism of [1, 2]) {
    it(`answer as over fresh arrays, back to back (parallelism ${parallelism})`, async () => {
      const env = TableEnvironment.create({ parallelism });
      env.registerTable('t', t);
      try {
        for (const [sql, f, rows] of [...queries, ...queries.slice().reverse()]) await check(env, sql, f, rows);
        if (parallelism === 1) expect(pooledArrayBytes()).toBeGreaterThan(0);
      } finally {
        await env.close();
      }
    }, 60_000);
  }

  it('answer as over fresh arrays after a cancelled query', async () => {
    const env = TableEnvironment.create({ parallelism: 1 });
    env.registerTable('t', t);
    try {
      for (let delay = 0; delay < 3; delay++) {
        const c = new AbortController();
        const run = env.sql(queries[0]![0]).collect({ signal: c.signal });
        setTimeout(() => c.abort(), delay);
        await run.catch(() => undefined); // cancelled, or done before the abort: either way the next answers right
        await check(env, queries[1]![0], queries[1]![1], queries[1]![2]);
        await check(env, queries[0]![0], queries[0]![1], queries[0]![2]);
      }
    } finally {
      await env.close();
    }
  }, 60_000);
});

/**
 * Co-partitioned joins (src/planner/ship-copartition.ts): a stage over a table clustered by an
 * integer join key cuts the join's other side — a scan clustered by the matching key — at the
 * same keys, so each worker joins its key range with the other side's rows of that range (no
 * gather stage, each worker builds its part of the table only). Answers are one thread's.
 */
import * as arrow from 'apache-arrow';
import { afterAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/index.js';
import { CancelledError, ExecutionError } from '../../src/relnode/errors.js';
import { clusteredOrder, cutAtKeyChanges, rangesForKeys } from '../../src/planner/ship-sorted.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { workerStats } from './helpers.js';

const i32 = (xs: number[]): arrow.Data => arrow.makeData({ type: new arrow.Int32(), data: Int32Array.from(xs) });
const i64 = (xs: number[]): arrow.Data => arrow.makeData({ type: new arrow.Int64(), data: BigInt64Array.from(xs.map(BigInt)) });

/** Per worker, the keys its triples read. */
function keysRead(cols: arrow.Data[], ranges: Int32Array): number[] {
  const out: number[] = [];
  for (let i = 0; i < ranges.length; i += 3) {
    const d = cols[ranges[i]!]!;
    for (let r = ranges[i + 1]!; r < ranges[i + 2]!; r++) out.push(Number((d.values as ArrayLike<number | bigint>)[d.offset + r]!));
  }
  return out;
}

describe('clusteredOrder', () => {
  it('orders batches that are each sorted and do not overlap, whatever their table order', () => {
    expect(clusteredOrder([i32([7, 8]), i32([1, 2, 3]), i32([]), i32([4, 4, 7])])).toEqual([1, 3, 0, 2]);
    // One key spanning batches; a batch of that key alone goes first.
    expect(clusteredOrder([i64([5, 6]), i64([5, 5]), i64([1, 5])])).toEqual([2, 1, 0]);
  });

  it('refuses overlapping batches, a decrease inside a batch, NULLs and floats', () => {
    expect(clusteredOrder([i32([1, 5]), i32([4, 9])])).toBeUndefined();
    expect(clusteredOrder([i32([1, 3, 2])])).toBeUndefined();
    const withNull = arrow.makeData({ type: new arrow.Int32(), data: Int32Array.from([1, 2, 3]), nullBitmap: Uint8Array.from([0b101]), nullCount: 1 });
    expect(clusteredOrder([withNull])).toBeUndefined();
    expect(clusteredOrder([arrow.makeData({ type: new arrow.Float64(), data: Float64Array.from([1, 2]) })])).toBeUndefined();
  });
});

describe('key ranges of two clustered tables', () => {
  let seed = 11;
  const rnd = (): number => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff; };
  /** Sorted keys with repeats and gaps, cut into batches, the batches shuffled. */
  const clustered = (n: number, make: (xs: number[]) => arrow.Data): arrow.Data[] => {
    let k = Math.floor(rnd() * 5);
    const keys = Array.from({ length: n }, () => (k += rnd() < 0.5 ? 0 : 1 + Math.floor(rnd() * 3)));
    const out: arrow.Data[] = [];
    for (let s = 0; s < n;) { const e = Math.min(n, s + 1 + Math.floor(rnd() * 40)); out.push(make(keys.slice(s, e))); s = e; }
    return out.sort(() => rnd() - 0.5);
  };

  it('give every row of both to one worker, and every key of the other table to the worker holding it in the first', () => {
    for (const W of [2, 3, 5]) {
      for (const make of [i32, i64]) {
        const s = clustered(500, make);
        const t = clustered(300, make);
        const so = clusteredOrder(s)!, to = clusteredOrder(t)!;
        const cut = cutAtKeyChanges(s, W, 7, so);
        const others = rangesForKeys(t, cut.bounds, 5, to);
        const sParts = cut.ranges.map((r) => keysRead(s, r));
        const tParts = others.map((r) => keysRead(t, r));
        expect(sParts.flat()).toEqual(s.flatMap((d) => keysRead([d], Int32Array.from([0, 0, d.length]))).sort((a, b) => a - b));
        expect(tParts.flat()).toEqual(t.flatMap((d) => keysRead([d], Int32Array.from([0, 0, d.length]))).sort((a, b) => a - b));
        const owner = new Map<number, number>();
        sParts.forEach((p, w) => { for (const k of p) { expect(owner.get(k) ?? w).toBe(w); owner.set(k, w); } });
        tParts.forEach((p, w) => { for (const k of p) if (owner.has(k)) expect(owner.get(k)).toBe(w); });
      }
    }
  });
});

describe('co-partitioned joins on worker threads', { timeout: 120_000 }, () => {
  // f: 60k fact rows clustered by k (4 rows a key, batches in shuffled order); d: 12k dimension
  // rows clustered by id (ids 0, 1, 2, 4, 5, 6, 8, ...: some keys of f have no match).
  const N = 60_000;
  const batchesOf = (cols: Record<string, Int32Array | Float64Array>, n: number, size: number, order: (i: number, count: number) => number): arrow.Table => {
    const count = Math.ceil(n / size);
    const bs = Array.from({ length: count }, (_, b) => arrow.tableFromArrays(Object.fromEntries(Object.entries(cols).map(([k, v]) => [k, v.slice(b * size, Math.min(n, (b + 1) * size))]))).batches[0]!);
    return new arrow.Table(Array.from({ length: count }, (_, i) => bs[order(i, count)]!));
  };
  const reversed = (i: number, count: number): number => count - 1 - i;
  const k = Int32Array.from({ length: N }, (_, i) => Math.floor(i / 4));
  const v = Float64Array.from({ length: N }, (_, i) => ((i * 37) % 1001) / 8);
  const f = batchesOf({ k, v }, N, 7000, reversed);
  const perm = Int32Array.from({ length: N }, (_, i) => (i * 7919) % N);
  const u = arrow.tableFromArrays({ k: Int32Array.from(perm, (j) => k[j]!), v: Float64Array.from(perm, (j) => v[j]!) });
  const M = 12_000;
  const id = Int32Array.from({ length: M }, (_, i) => i + Math.floor(i / 3));
  const d = batchesOf({ id, g: Int32Array.from({ length: M }, (_, i) => i % 7), w: Int32Array.from({ length: M }, (_, i) => (i * 13) % 10) }, M, 2500, reversed);
  const n = arrow.tableFromArrays({ x: Int32Array.from({ length: 400 }, (_, i) => i) });
  const p1 = TableEnvironment.create({ parallelism: 1 });
  const p2 = TableEnvironment.create({ parallelism: 2, workers: 'always', batchSize: 4096 });
  for (const e of [p1, p2]) { e.registerTable('f', f); e.registerTable('u', u); e.registerTable('d', d); e.registerTable('n', n); }
  afterAll(async () => { await p1.close(); await p2.close(); });

  /** Runs `sql` at p2 and p1, checks the answers equal, and returns the modes of p2's stages and whether the last one was cut at key changes. */
  const both = async (sql: string): Promise<{ modes: string[]; contiguous: boolean | undefined; rounds: number | undefined }> => {
    const before = workerStats(p2).traces.length;
    const a = await p2.sql(sql).collect();
    const traces = workerStats(p2).traces.slice(before);
    const b = await p1.sql(sql).collect();
    expect(a.numRows).toBeGreaterThan(0);
    expectSameResult(fromArrow(a), fromArrow(b), {});
    return { modes: traces.map((t) => t.mode), contiguous: traces.at(-1)?.contiguous, rounds: traces.at(-1)?.rounds.length };
  };

  const cases: [string, string][] = [
    ['inner', 'SELECT d.g, sum(f.v) AS s, count(*) AS c FROM f JOIN d ON f.k = d.id WHERE d.w > 2 GROUP BY d.g'],
    // A selective filter on the other side: without co-partitioning it would be a gather stage first.
    ['inner, selective other side', 'SELECT d.g, sum(f.v) AS s, count(*) AS c FROM f JOIN d ON f.k = d.id WHERE d.w = 1 GROUP BY d.g'],
    ['left', 'SELECT d.g, sum(f.v) AS s, count(*) AS c FROM f LEFT JOIN d ON f.k = d.id GROUP BY d.g'],
    ['semi', 'SELECT f.k % 5 AS b, sum(f.v) AS s, count(*) AS c FROM f WHERE EXISTS (SELECT 1 FROM d WHERE d.id = f.k AND d.w < 6) GROUP BY 1'],
    ['anti', 'SELECT f.k % 5 AS b, sum(f.v) AS s, count(*) AS c FROM f WHERE NOT EXISTS (SELECT 1 FROM d WHERE d.id = f.k AND d.w < 6) GROUP BY 1'],
    ['many groups (shuffled)', 'SELECT f.k, d.g, sum(f.v) AS s FROM f JOIN d ON f.k = d.id GROUP BY f.k, d.g'],
  ];
  for (const [name, sql] of cases) {
    it(`${name} join: one stage cut at key changes, no gather stage, the answer of one thread`, async () => {
      const { modes, contiguous } = await both(sql);
      expect(modes).toHaveLength(1);
      expect(['partial', 'shuffle']).toContain(modes[0]);
      expect(contiguous).toBe(true);
    });
  }

  it('a group key that is the co-partitioned key: whole groups on each worker, one round (no exchange), the answer of one thread', async () => {
    // Many groups per row (shuffled, not pre-aggregated), with a HAVING run by the workers.
    const { modes, rounds } = await both('SELECT f.k, d.g, sum(f.v) AS s, count(*) AS c FROM f JOIN d ON f.k = d.id GROUP BY f.k, d.g HAVING sum(f.v) > 100');
    expect(modes).toEqual(['shuffle']);
    expect(rounds).toBe(1);
    // A group key of the other side only (d.g): two rounds.
    expect((await both(cases[5]![1].replace('GROUP BY f.k, d.g', 'GROUP BY d.id % 3000, d.g').replace('f.k, d.g,', 'd.id % 3000 AS b, d.g,'))).rounds).toBe(2);
  });

  it('EXPLAIN names the co-partitioned side, the key ranges and the single round', async () => {
    const one = await p2.sql('SELECT f.k, d.g, sum(f.v) AS s FROM f JOIN d ON f.k = d.id GROUP BY f.k, d.g HAVING sum(f.v) > 100').explain();
    expect(one).toMatch(/\n1\. shuffle stage over f \([\d,]+ rows\), co-partitioned with d by sorted key ranges, one round: shipped/);
    const two = await p2.sql(cases[5]![1].replace('GROUP BY f.k, d.g', 'GROUP BY d.id % 3000, d.g').replace('f.k, d.g,', 'd.id % 3000 AS b, d.g,')).explain();
    expect(two).toMatch(/stage over f \([\d,]+ rows\), co-partitioned with d by sorted key ranges: shipped/);
    const unclustered = await p2.sql('SELECT d.g, sum(u.v) AS s, count(*) AS c FROM u JOIN d ON u.k = d.id WHERE d.w > 2 GROUP BY d.g').explain();
    expect(unclustered).not.toContain('co-partitioned');
  });

  it('falls back when the distributed table is not clustered by the key: the answer of one thread', async () => {
    const { contiguous } = await both('SELECT d.g, sum(u.v) AS s, count(*) AS c FROM u JOIN d ON u.k = d.id WHERE d.w > 2 GROUP BY d.g');
    expect(contiguous).toBe(false);
  });

  it('an error inside a co-partitioned stage is the error of one thread; an abort during one rejects with CancelledError', async () => {
    const bad = 'SELECT d.g, sum(CAST(f.k * 100000000000 AS INTEGER)) AS s FROM f JOIN d ON f.k = d.id GROUP BY d.g';
    const e1 = await p1.sql(bad).collect().then(() => undefined, (e: unknown) => e);
    const e2 = await p2.sql(bad).collect().then(() => undefined, (e: unknown) => e);
    expect(e1).toBeInstanceOf(ExecutionError);
    expect(e2).toBeInstanceOf(ExecutionError);
    expect((e2 as Error).message.replace(/-?\d+/g, 'N')).toBe((e1 as Error).message.replace(/-?\d+/g, 'N'));
    // ~24M joined rows × 400: seconds of work, aborted after it started.
    const slow = 'SELECT d.g, sum(f.v * n.x) AS s FROM f JOIN d ON f.k = d.id, n GROUP BY d.g';
    const ac = new AbortController();
    const q = p2.sql(slow).collect({ signal: ac.signal });
    setTimeout(() => ac.abort(), 50);
    await expect(q).rejects.toBeInstanceOf(CancelledError);
    // The pool runs the next query.
    await both(cases[0]![1]);
  });
});

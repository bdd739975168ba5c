/**
 * A partial stage's integer sums and averages are exact past 2^63 (exec/operators/agg-int-sum.ts
 * "Partial stages"): a share's BIGINT total travels as two BIGINT words of a 128-bit total, and the
 * final aggregate adds them exactly and checks the BIGINT range once, so every parallelism answers
 * what parallelism 1 answers, with the same error when the whole total overflows. Adversarial data:
 * runs of ±2^62 that cancel only across shares (the first half of the table against the second),
 * so every share's total passes 2^63 while each group's total is small. DuckDB (which sums BIGINT
 * into HUGEINT) is the oracle of the totals.
 */
import { tableFromArrays, type Table as ArrowTable } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/index.js';
import { loadArrow, openDuck, type Duck } from '../helpers/duckdb.js';
import { workerStats } from './helpers.js';

const N = 12_000;
const HALF = N / 2;
const G = 3;
const P62 = 2n ** 62n;

/** Row i < HALF: 2^62 + i; row i + HALF (same group): -2^62 + 7i, so each pair adds to 8i. Every 11th pair is NULL. */
function makeWide(): ArrowTable {
  const g = Int32Array.from({ length: N }, (_, i) => i % G);
  const b: (bigint | null)[] = [];
  for (let i = 0; i < N; i++) {
    const k = i % HALF;
    b.push(k % 11 === 5 ? null : i < HALF ? P62 + BigInt(i) : -P62 + 7n * BigInt(k));
  }
  // A column of all-positive INTEGER values beside it (an INTEGER sum keeps its one-column split).
  const i32 = Int32Array.from({ length: N }, (_, i) => 2_000_000_000 - i);
  return tableFromArrays({ g, b, i32 }) as ArrowTable;
}

/** Rows 0..8191: +2^62 for the first 4096, -2^62 for the next 4094, then -1 and 0: the total is 2^63 - 1. */
function makeEdge(): ArrowTable {
  const i = Int32Array.from({ length: 8192 }, (_, k) => k);
  const b = BigInt64Array.from({ length: 8192 }, (_, k) => (k < 4096 ? P62 : k < 8190 ? -P62 : k === 8190 ? -1n : 0n));
  return tableFromArrays({ i, b }) as ArrowTable;
}

const wide = makeWide();
const edge = makeEdge();
const wideB = wide.getChild('b')!;

/** The exact total of b over rows where `keep` holds, and the number of non-NULL values. */
function exact(keep: (i: number) => boolean): { s: bigint; n: number } {
  let s = 0n;
  let n = 0;
  for (let i = 0; i < N; i++) {
    const v = wideB.get(i) as bigint | null;
    if (v !== null && keep(i)) { s += v; n++; }
  }
  return { s, n };
}

describe('partial integer sums are exact past 2^63', { timeout: 180_000 }, () => {
  const p1 = TableEnvironment.create({ parallelism: 1 });
  const pN = [2, 3, 4].map((p) => TableEnvironment.create({ parallelism: p, workers: 'always', batchSize: 2048 }));
  const all = [p1, ...pN];
  let duck: Duck;
  beforeAll(async () => {
    for (const e of all) { e.registerTable('wide', wide); e.registerTable('edge', edge); }
    duck = await openDuck();
    await loadArrow(duck, 'wide', wide);
  });
  afterAll(async () => { for (const e of all) await e.close(); duck.close(); });

  /** p1's answer, and each pN's, with a check that pN ran a partial stage (the split, not a shuffle). */
  const run = async (sql: string): Promise<[ArrowTable, ArrowTable[]]> => {
    const a = await p1.sql(sql).collect();
    const out: ArrowTable[] = [];
    for (const e of pN) {
      const before = workerStats(e).stages;
      out.push(await e.sql(sql).collect());
      expect(workerStats(e).stages - before).toBeGreaterThan(0);
      expect(workerStats(e).traces.at(-1)?.mode).toBe('partial');
    }
    return [a, out];
  };
  /** The error's message (the same text at every parallelism: the operator it was raised in is not part of it). */
  const errorOf = async (e: TableEnvironment, sql: string): Promise<string> => {
    try { await e.sql(sql).collect(); } catch (err) { return (err as Error).message; }
    return 'no error';
  };

  it('keyed: every share overflows, each group\'s total fits: p2/p3/p4 answer p1\'s exact sums (DuckDB\'s)', async () => {
    const sql = 'SELECT g, sum(b) AS s, count(b) AS c FROM wide GROUP BY g ORDER BY g';
    const [a, bs] = await run(sql);
    const duckRows = (await duck.query(sql)).rows;
    for (let k = 0; k < G; k++) {
      const { s } = exact((i) => i % G === k);
      expect(s).toBeLessThan(2n ** 40n);
      expect(BigInt(duckRows[k]![1] as number)).toBe(s);
      expect(a.getChild('s')!.get(k)).toBe(s);
      for (const b of bs) expect(b.getChild('s')!.get(k)).toBe(s);
    }
  });

  it('global, over the plain scan and through a filter', async () => {
    const [a, bs] = await run('SELECT sum(b) AS s FROM wide');
    const s = exact(() => true).s;
    expect(a.getChild('s')!.get(0)).toBe(s);
    for (const b of bs) expect(b.getChild('s')!.get(0)).toBe(s);
    const [c, ds] = await run('SELECT sum(b) AS s, sum(i32) AS t FROM wide WHERE g <> 1');
    const s2 = exact((i) => i % G !== 1).s;
    expect(c.getChild('s')!.get(0)).toBe(s2);
    for (const d of ds) {
      expect(d.getChild('s')!.get(0)).toBe(s2);
      expect(d.getChild('t')!.get(0)).toBe(c.getChild('t')!.get(0));
    }
  });

  it('avg over BIGINT splits again: the same bits as p1, near DuckDB\'s', async () => {
    const sql = 'SELECT g, avg(b) AS a FROM wide GROUP BY g ORDER BY g';
    const [a, bs] = await run(sql);
    const duckRows = (await duck.query(sql)).rows;
    for (let k = 0; k < G; k++) {
      const { s, n } = exact((i) => i % G === k);
      const want = Number(s) / n;
      expect(Math.abs((a.getChild('a')!.get(k) as number) - want)).toBeLessThanOrEqual(Math.abs(want) * 2 ** -50);
      expect(Math.abs((duckRows[k]![1] as number) - want)).toBeLessThanOrEqual(Math.abs(want) * 2 ** -50);
      for (const b of bs) expect(Object.is(b.getChild('a')!.get(k), a.getChild('a')!.get(k))).toBe(true);
    }
    const [c, ds] = await run('SELECT avg(b) AS a, sum(b) AS s, count(*) AS c FROM wide');
    for (const d of ds) for (const col of ['a', 's', 'c']) expect(Object.is(d.getChild(col)!.get(0), c.getChild(col)!.get(0))).toBe(true);
  });

  it('NULLs and empty groups: a group without values is NULL at every parallelism; no rows at all gives NULL', async () => {
    const [a, bs] = await run('SELECT g, sum(CASE WHEN g = 2 THEN NULL ELSE b END) AS s, avg(CASE WHEN g = 0 THEN NULL ELSE b END) AS m FROM wide GROUP BY g ORDER BY g');
    expect(a.getChild('s')!.get(2)).toBeNull();
    expect(a.getChild('m')!.get(0)).toBeNull();
    expect(a.getChild('s')!.get(0)).toBe(exact((i) => i % G === 0).s);
    for (const b of bs) {
      for (let k = 0; k < G; k++) {
        expect(b.getChild('s')!.get(k)).toBe(a.getChild('s')!.get(k));
        expect(Object.is(b.getChild('m')!.get(k), a.getChild('m')!.get(k))).toBe(true);
      }
    }
    const [c, ds] = await run('SELECT sum(b) AS s, avg(b) AS m FROM wide WHERE i32 < 0');
    expect(c.getChild('s')!.get(0)).toBeNull();
    for (const d of ds) { expect(d.getChild('s')!.get(0)).toBeNull(); expect(d.getChild('m')!.get(0)).toBeNull(); }
  });

  it('a total that overflows throws p1\'s error at every parallelism (both signs); its avg answers', async () => {
    const sql = 'SELECT sum(b) AS s FROM wide WHERE b > 0';
    const want = await errorOf(p1, sql);
    expect(want).toMatch(/sum overflowed BIGINT \(\d+\)/);
    for (const e of pN) expect(await errorOf(e, sql)).toBe(want);
    // Keyed: which group's total the message names depends on the order groups are emitted in.
    const keyed = 'SELECT g, sum(b) AS s FROM wide WHERE b < 0 GROUP BY g';
    expect(await errorOf(p1, keyed)).toMatch(/sum overflowed BIGINT \(-\d+\)/);
    for (const e of pN) expect(await errorOf(e, keyed)).toMatch(/sum overflowed BIGINT \(-\d+\)/);
    const [a, bs] = await run('SELECT avg(b) AS m FROM wide WHERE b > 0');
    expect(a.getChild('m')!.get(0)).toBeGreaterThan(4e18);
    for (const b of bs) expect(Object.is(b.getChild('m')!.get(0), a.getChild('m')!.get(0))).toBe(true);
  });

  it('the edges of the BIGINT range: 2^63 - 1 and -2^63 fit, one past each throws', async () => {
    const [a, bs] = await run('SELECT sum(b) AS s, sum(-b) AS n, sum(CASE WHEN i = 8190 THEN 0 ELSE -b END) AS m FROM edge');
    expect(a.getChild('s')!.get(0)).toBe(2n ** 63n - 1n);
    expect(a.getChild('n')!.get(0)).toBe(-(2n ** 63n) + 1n);
    expect(a.getChild('m')!.get(0)).toBe(-(2n ** 63n));
    for (const b of bs) for (const col of ['s', 'n', 'm']) expect(b.getChild(col)!.get(0)).toBe(a.getChild(col)!.get(0));
    for (const sql of ['SELECT sum(CASE WHEN i = 8190 THEN 0 ELSE b END) AS s FROM edge', 'SELECT sum(CASE WHEN i = 8190 THEN -1 ELSE -b END) AS s FROM edge']) {
      const want = await errorOf(p1, sql);
      expect(want).toMatch(/sum overflowed BIGINT/);
      for (const e of pN) expect(await errorOf(e, sql)).toBe(want);
    }
  });
});

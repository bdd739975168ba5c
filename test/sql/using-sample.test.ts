/**
 * USING SAMPLE (src/sql/cst-sample.ts, binder/sample.ts, planner/sample.ts, exec/operators/sample.ts):
 * DuckDB's forms and defaults, exact counts for reservoir, probabilities for bernoulli and system,
 * the sample taken before WHERE, seeded samples equal across runs and parallelism, unseeded ones not,
 * column pruning through the node, and the errors. Random samples cannot be compared with DuckDB's (another
 * generator): counts are checked against the binomial's bounds (6 standard deviations).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/index.js';
import { sampleKey } from '../../src/exec/operators/sample.js';

const N = 100_000;
let p1: TableEnvironment;
let p2: TableEnvironment;

beforeAll(async () => {
  p1 = TableEnvironment.create({ parallelism: 1 });
  p2 = TableEnvironment.create({ parallelism: 2 });
  for (const env of [p1, p2]) await env.executeSql(`CREATE TABLE t AS SELECT range AS x, range % 7 AS g FROM range(${N})`);
});
afterAll(async () => { await p1.close?.(); await p2.close?.(); });

const rows = async (env: TableEnvironment, sql: string): Promise<Record<string, unknown>[]> =>
  (await env.sql(sql).collect()).toArray().map((r) => r.toJSON() as Record<string, unknown>);
const xs = async (env: TableEnvironment, sql: string): Promise<number[]> => (await rows(env, sql)).map((r) => Number(r.x));
const count = async (env: TableEnvironment, sql: string): Promise<number> => Number((await rows(env, sql))[0]!.n);

/** |k − np| ≤ 6σ of a binomial(n, p). */
const nearBinomial = (k: number, n: number, p: number): boolean => Math.abs(k - n * p) <= 6 * Math.sqrt(n * p * (1 - p));

describe('USING SAMPLE', () => {
  it('a row count is reservoir: exactly that many distinct rows of the input, or all of them', async () => {
    const s = await xs(p1, 'SELECT x FROM t USING SAMPLE 1000');
    expect(s).toHaveLength(1000);
    expect(new Set(s).size).toBe(1000);
    expect(s.every((x) => Number.isInteger(x) && x >= 0 && x < N)).toBe(true);
    expect(await count(p1, 'SELECT count(*) AS n FROM t USING SAMPLE 50 ROWS')).toBe(50);
    expect(await count(p1, 'SELECT count(*) AS n FROM t USING SAMPLE reservoir(70 ROWS)')).toBe(70);
    expect(await count(p1, `SELECT count(*) AS n FROM t USING SAMPLE ${N + 5}`)).toBe(N);
    expect(await count(p1, 'SELECT count(*) AS n FROM t USING SAMPLE 0 ROWS')).toBe(0);
  });

  it('a reservoir sample is uniform: its mean is near the input mean, in input order', async () => {
    const s = await xs(p1, 'SELECT x FROM t USING SAMPLE 4000 REPEATABLE (11)');
    const mean = s.reduce((a, b) => a + b, 0) / s.length;
    const sd = N / Math.sqrt(12) / Math.sqrt(s.length);
    expect(Math.abs(mean - (N - 1) / 2)).toBeLessThan(6 * sd);
    expect(s).toEqual([...s].sort((a, b) => a - b)); // emitted in input order (a scan of t is ordered at p1)
  });

  it('a reservoir percentage is exact up to rounding', async () => {
    expect(await count(p1, 'SELECT count(*) AS n FROM t USING SAMPLE 10 PERCENT (reservoir)')).toBe(N / 10);
    expect(await count(p1, 'SELECT count(*) AS n FROM t USING SAMPLE reservoir(2.5%) REPEATABLE (1)')).toBe(2500);
  });

  it('bernoulli keeps each row with the probability; 0% keeps none and 100% all', async () => {
    for (const seed of [1, 2, 3]) expect(nearBinomial(await count(p1, `SELECT count(*) AS n FROM t USING SAMPLE 10% (bernoulli, ${seed})`), N, 0.1)).toBe(true);
    expect(await count(p1, 'SELECT count(*) AS n FROM t USING SAMPLE 0% (bernoulli)')).toBe(0);
    expect(await count(p1, 'SELECT count(*) AS n FROM t USING SAMPLE 100 PERCENT (bernoulli)')).toBe(N);
  });

  it('a bare percentage is system: whole blocks of 2,048 rows', async () => {
    const s = await xs(p1, 'SELECT x FROM t USING SAMPLE 30% REPEATABLE (4)');
    const blocks = new Map<number, number>();
    for (const x of s) blocks.set(Math.floor(x / 2048), (blocks.get(Math.floor(x / 2048)) ?? 0) + 1);
    for (const [b, k] of blocks) expect(k).toBe(Math.min(2048, N - b * 2048));
    expect(nearBinomial(blocks.size, Math.ceil(N / 2048), 0.3)).toBe(true);
  });

  it('samples the FROM rows before WHERE and grouping (DuckDB semantics)', async () => {
    const sampled = await xs(p1, 'SELECT x FROM t USING SAMPLE 700 REPEATABLE (5)');
    const filtered = await xs(p1, 'SELECT x FROM t WHERE g = 3 USING SAMPLE 700 REPEATABLE (5)');
    expect(filtered).toEqual(sampled.filter((x) => x % 7 === 3));
    expect(filtered.length).toBeLessThan(700);
    const groups = await rows(p1, 'SELECT g, count(*) AS n FROM t GROUP BY g USING SAMPLE 700 REPEATABLE (5) ORDER BY g');
    expect(groups.reduce((a, r) => a + Number(r.n), 0)).toBe(700);
  });

  it('a seed gives the same sample every run and at parallelism 1 and 2; other seeds and no seed differ', async () => {
    const q = (tail: string): string => `SELECT x FROM t ${tail} ORDER BY x`;
    for (const tail of ['USING SAMPLE 5% (bernoulli, 42)', 'USING SAMPLE 5% (system, 42)', 'USING SAMPLE 500 REPEATABLE (42)', 'USING SAMPLE reservoir(5%) REPEATABLE (42)']) {
      const a = await xs(p1, q(tail));
      expect(await xs(p1, q(tail))).toEqual(a);
      expect(await xs(p2, q(tail))).toEqual(a);
      expect(await xs(p1, q(tail.replace('42', '43')))).not.toEqual(a);
    }
    expect(await xs(p1, q('USING SAMPLE 5% (bernoulli)'))).not.toEqual(await xs(p1, q('USING SAMPLE 5% (bernoulli)')));
    expect(await xs(p1, q('USING SAMPLE 500'))).not.toEqual(await xs(p1, q('USING SAMPLE 500')));
  });

  it('works over joins and subqueries, and in EXPLAIN the scan below it reads only the used columns', async () => {
    const n = await count(p1, 'SELECT count(*) AS n FROM t a JOIN t b ON a.x = b.x USING SAMPLE 300 REPEATABLE (2)');
    expect(n).toBe(300);
    expect(await count(p1, 'SELECT count(*) AS n FROM (SELECT x FROM t USING SAMPLE 40) s')).toBe(40);
    const plan = await p1.sql('SELECT sum(x) FROM t USING SAMPLE 10% (bernoulli, 1)').explain();
    expect(plan).toMatch(/Sample\(bernoulli, 10%, seed 1\)/);
    expect(plan).toMatch(/Scan\(t: x\)/);
  });

  it('rejects what DuckDB rejects, with the place and a hint', () => {
    const err = (sql: string): string => { try { p1.sql(sql); return 'no error'; } catch (e) { return (e as Error).message; } };
    expect(err('SELECT * FROM t USING SAMPLE 10 (bernoulli)')).toMatch(/bernoulli sampling takes a percentage/);
    expect(err('SELECT * FROM t USING SAMPLE 10 ROWS (system)')).toMatch(/system sampling takes a percentage/);
    expect(err('SELECT * FROM t USING SAMPLE 10% (coin)')).toMatch(/unknown sampling method "coin": use reservoir, bernoulli or system/);
    expect(err('SELECT * FROM t USING SAMPLE 150%')).toMatch(/between 0 and 100, got 150/);
    expect(err('SELECT * FROM t USING SAMPLE 2.5')).toMatch(/whole number, got 2.5 \(write 2.5% for a percentage\)/);
    expect(err('SELECT * FROM t USING SAMPLE 10% (system, 1) REPEATABLE (2)')).toMatch(/seed is given twice/);
    expect(err('SELECT * FROM t USING SAMPLES 10%')).toMatch(/expected SAMPLE after USING/);
    expect(err('SELECT * FROM t USING SAMPLE 10% REPEATABLE (1.5)')).toMatch(/seed must be a whole number/);
  });

  it('columns named sample, percent and repeatable still work', async () => {
    const env = TableEnvironment.create();
    await env.executeSql('CREATE TABLE s AS SELECT 1 AS sample, 2 AS percent, 3 AS repeatable');
    expect(await rows(env, 'SELECT sample, percent, repeatable FROM s USING SAMPLE 100 PERCENT (bernoulli)')).toEqual([{ sample: 1, percent: 2, repeatable: 3 }]);
  });

  it('sampleKey spreads consecutive ordinals evenly (10 buckets, chi-square)', () => {
    const buckets = new Array<number>(10).fill(0);
    const n = 200_000;
    for (let i = 0; i < n; i++) buckets[Math.floor((sampleKey(7, i) / 2 ** 53) * 10)]!++;
    const chi = buckets.reduce((a, k) => a + (k - n / 10) ** 2 / (n / 10), 0);
    expect(chi).toBeLessThan(30); // 9 degrees of freedom: p < 0.0005
    expect(sampleKey(7, 2 ** 40 + 3)).not.toBe(sampleKey(7, 3)); // ordinals past 2^32 hash apart
  });
});

describe('TABLESAMPLE', () => {
  it('samples one FROM item before joins, with USING SAMPLE\'s forms and seeds', async () => {
    const a = await xs(p1, 'SELECT x FROM t TABLESAMPLE 300 REPEATABLE (8)');
    expect(a).toEqual(await xs(p1, 'SELECT x FROM t USING SAMPLE 300 REPEATABLE (8)'));
    expect(await xs(p1, 'SELECT x FROM t AS s TABLESAMPLE reservoir(1%) REPEATABLE (8) WHERE s.x >= 0')).toHaveLength(N / 100);
    const n = await count(p1, 'SELECT count(*) AS n FROM t a TABLESAMPLE 500 REPEATABLE (1) JOIN t b ON a.x = b.x');
    expect(n).toBe(500);
    expect(await count(p1, 'SELECT count(*) AS n FROM (SELECT * FROM t WHERE g = 1) TABLESAMPLE 10 ROWS')).toBe(10);
    expect(await xs(p2, 'SELECT x FROM t TABLESAMPLE 5% (bernoulli, 3) ORDER BY x')).toEqual(await xs(p1, 'SELECT x FROM t TABLESAMPLE 5% (bernoulli, 3) ORDER BY x'));
  });

  it('over a LATERAL item that reads its left side, the error says so', async () => {
    await expect(p1.sql('SELECT * FROM t, LATERAL (SELECT * FROM t u WHERE u.x = t.x) s TABLESAMPLE 5 REPEATABLE (1)').collect())
      .rejects.toThrow(/USING SAMPLE \/ TABLESAMPLE over rows that read an outer query .* is not supported: sample the table the outer query reads instead/);
  });

  it('is not a join\'s: the error says what to write', () => {
    expect(() => p1.sql('SELECT * FROM (t a JOIN t b ON a.x = b.x) TABLESAMPLE 10')).toThrow(/TABLESAMPLE samples a table, a subquery or a table function, not a join/);
  });
});

/**
 * The Table API's `sample(options)` (SQL USING SAMPLE): the same rows as the SQL form for the same seed,
 * exact reservoir counts, and its argument checks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/index.js';

let env: TableEnvironment;
beforeAll(async () => {
  env = TableEnvironment.create({ parallelism: 1 });
  await env.executeSql('CREATE TABLE t AS SELECT range AS x FROM range(20000)');
});
afterAll(() => env.close());

const xs = async (t: ReturnType<TableEnvironment['from']>): Promise<number[]> => (await t.collect()).toArray().map((r) => Number(r.x));

describe('Table.sample', () => {
  it('matches SQL USING SAMPLE for the same seed', async () => {
    expect(await xs(env.from('t').sample({ rows: 50, seed: 3 }))).toEqual(await xs(env.sql('SELECT x FROM t USING SAMPLE 50 REPEATABLE (3)')));
    expect(await xs(env.from('t').sample({ percent: 5, method: 'bernoulli', seed: 3 }))).toEqual(await xs(env.sql('SELECT x FROM t USING SAMPLE 5% (bernoulli, 3)')));
    expect(await xs(env.from('t').sample({ percent: 20, seed: 9 }))).toEqual(await xs(env.sql('SELECT x FROM t USING SAMPLE 20% REPEATABLE (9)')));
  });

  it('reservoir counts are exact; later operations see the sampled rows', async () => {
    expect(await xs(env.from('t').sample({ rows: 123 }))).toHaveLength(123);
    expect(await xs(env.from('t').sample({ percent: 10, method: 'reservoir' }))).toHaveLength(2000);
    const evens = await xs(env.from('t').sample({ rows: 100, seed: 1 }).filter('x % 2 = 0'));
    expect(evens.every((x) => x % 2 === 0) && evens.length < 100).toBe(true);
  });

  it('checks its options', () => {
    expect(() => env.from('t').sample({})).toThrow(/either rows or percent/);
    expect(() => env.from('t').sample({ rows: 1, percent: 1 })).toThrow(/either rows or percent/);
    expect(() => env.from('t').sample({ rows: 10, method: 'bernoulli' })).toThrow(/bernoulli sampling takes a percent/);
    expect(() => env.from('t').sample({ rows: -1 })).toThrow(/whole number ≥ 0, got -1/);
    expect(() => env.from('t').sample({ percent: 101 })).toThrow(/between 0 and 100, got 101/);
    expect(() => env.from('t').sample({ percent: 1, seed: 0.5 })).toThrow(/seed must be a whole number/);
  });
});

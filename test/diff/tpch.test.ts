/**
 * TPC-H Q1, Q3, Q5, Q6, Q10, Q12 and FLIP-36's motivating example against
 * DuckDB at SF 0.01, and the same queries at parallelism 1 and 4 (and a
 * small batch size) giving identical results.
 */
import { describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/environment.js';
import { expectSameResult, fromArrow, type ResultSet } from '../helpers/compare.js';
import { SF, useHarness } from './harness.js';
import { FLIP36_B_SQL, flip36B, TPCH_QUERIES } from './tpch-queries.js';

const h = useHarness();

describe('TPC-H queries vs DuckDB (SF 0.01)', () => {
  for (const q of TPCH_QUERIES) {
    it(q.name, async () => {
      const expected = await h.duck.query(q.sql);
      expect(expected.rows.length).toBeGreaterThan(0);
      await h.check(q.build(h.env), q.sql, { ordered: q.ordered });
    });
  }
});

describe("FLIP-36's motivating example: b = lineitem ⋈ orders filtered and projected", () => {
  it('b matches DuckDB as a whole', async () => {
    await h.check(flip36B(h.env), FLIP36_B_SQL);
  });

  it('b.max(), b.min(), b.count()', async () => {
    const b = flip36B(h.env);
    const [exp] = (await h.duck.query(`SELECT max(revenue), min(revenue), count(*) FROM (${FLIP36_B_SQL})`)).rows;
    const max = await b.max('revenue');
    const min = await b.min('revenue');
    const count = await b.count();
    expectSameResult(
      { names: ['max', 'min', 'count'], kinds: ['float', 'float', 'int'], rows: [[max, min, count]] },
      { names: ['max', 'min', 'count'], kinds: ['float', 'float', 'int'], rows: [exp!] },
    );
    expect(count).toBeGreaterThan(0);
  });

  it('b.sum(), b.avg()', async () => {
    const b = flip36B(h.env);
    const [exp] = (await h.duck.query(`SELECT sum(revenue), avg(revenue) FROM (${FLIP36_B_SQL})`)).rows;
    const got = [await b.sum('revenue'), await b.avg('revenue')];
    expectSameResult(
      { names: ['sum', 'avg'], kinds: ['float', 'float'], rows: [got] },
      { names: ['sum', 'avg'], kinds: ['float', 'float'], rows: [exp!] },
    );
  });

  it('b.max/min of a DATE and INTEGER column', async () => {
    const b = flip36B(h.env);
    const [exp] = (await h.duck.query(`SELECT max(o_orderdate), min(o_orderdate), max(l_orderkey), min(l_orderkey) FROM (${FLIP36_B_SQL})`)).rows;
    const got = [await b.max('o_orderdate'), await b.min('o_orderdate'), await b.max('l_orderkey'), await b.min('l_orderkey')];
    expectSameResult(
      { names: ['a', 'b', 'c', 'd'], kinds: ['date', 'date', 'int', 'int'], rows: [got.map((v, i) => (i < 2 && v instanceof Date ? v.toISOString().slice(0, 10) : v))] },
      { names: ['a', 'b', 'c', 'd'], kinds: ['date', 'date', 'int', 'int'], rows: [exp!] },
    );
  });
});

describe('parallelism: identical results for parallelism 1, 4, and 4 with batchSize 1000', () => {
  const configs = [
    { parallelism: 1 },
    { parallelism: 4 },
    { parallelism: 4, batchSize: 1000 },
  ] as const;
  const results = new Map<string, ResultSet[]>();

  it('runs every query under every configuration, each matching DuckDB', async () => {
    const failures: string[] = [];
    for (const cfg of configs) {
      const env = TableEnvironment.create(cfg);
      try {
        env.registerTpch(SF);
        for (const q of TPCH_QUERIES) {
          try {
            const got = fromArrow(await q.build(env).collect());
            const list = results.get(q.name) ?? [];
            list.push(got);
            results.set(q.name, list);
            expectSameResult(got, await h.duck.query(q.sql), { ordered: q.ordered });
          } catch (e) {
            failures.push(`${q.name} ${JSON.stringify(cfg)}: ${(e as Error).message.split('\n').slice(0, 6).join('\n')}`);
          }
        }
      } finally {
        await env.close();
      }
    }
    expect(failures, failures.join('\n\n')).toEqual([]);
  });

  it('the configurations agree with each other', () => {
    for (const q of TPCH_QUERIES) {
      const list = results.get(q.name) ?? [];
      expect(list.length, `${q.name} did not run under every configuration`).toBe(configs.length);
      for (let i = 1; i < list.length; i++) expectSameResult(list[i]!, list[0]!, { ordered: q.ordered });
    }
  });
});

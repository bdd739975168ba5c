/**
 * Window functions through the Table API: the same rows as the SQL form, the
 * builder's frames and defaults, window calls inside expressions, and the
 * errors for misuse.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/environment.js';
import { col, desc, sum, count, countStar, max } from '../../src/api/expr.js';
import { currentRow, following, lag, nthValue, ntile, preceding, rank, rowNumber, unboundedFollowing, window } from '../../src/api/window.js';

let env: TableEnvironment;
beforeAll(() => {
  env = TableEnvironment.create();
  env.registerTable('t', env.fromRecords([
    { g: 'a', o: 1, v: 10 }, { g: 'a', o: 2, v: 20 }, { g: 'a', o: 2, v: 5 }, { g: 'a', o: null, v: 1 },
    { g: 'b', o: 3, v: 7 }, { g: 'b', o: 4, v: null },
  ], { g: 'VARCHAR', o: 'INTEGER', v: 'INTEGER' }));
});
afterAll(async () => { await env.close(); });

const plain = (rows: Record<string, unknown>[]): unknown[][] => rows.map((r) => Object.values(r).map((x) => (typeof x === 'bigint' ? Number(x) : x)));

describe('Table API window functions', () => {
  it('gives the rows of the equivalent SQL', async () => {
    const w = window().partitionBy('g').orderBy('o', 'v');
    const api = await env.from('t').select('g', 'o', 'v',
      rowNumber().over(w).as('rn'),
      rank().over(window().partitionBy('g').orderBy('o')).as('rk'),
      sum('v').over(w.rows(preceding(1), following(1))).as('s'),
      lag('v', 1, -1).over(w).as('prev'),
      countStar().over(window().partitionBy('g')).as('n'),
      max('v').over(window().orderBy(desc('o')).range(currentRow, unboundedFollowing)).as('mx'),
    ).orderBy('g', 'o', 'v').toArray();
    const sql = await env.sql(`SELECT g, o, v, row_number() OVER w AS rn, rank() OVER (PARTITION BY g ORDER BY o) AS rk,
      sum(v) OVER (w ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS s, lag(v, 1, -1) OVER w AS prev,
      count(*) OVER (PARTITION BY g) AS n, max(v) OVER (ORDER BY o DESC RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS mx
      FROM t WINDOW w AS (PARTITION BY g ORDER BY o, v) ORDER BY g, o, v`).toArray();
    expect(plain(api)).toEqual(plain(sql));
    expect(plain(api).map((r) => r.slice(3, 5))).toEqual([[1, 1], [2, 2], [3, 2], [4, 4], [1, 1], [2, 2]]);
  });

  it('defaults to the running frame with ORDER BY and the whole partition without', async () => {
    const rows = await env.from('t').select('g', 'o', sum('v').over(window().partitionBy('g').orderBy('o')).as('run'), count('v').over(window().partitionBy('g')).as('c'))
      .orderBy('g', 'o').toArray();
    expect(plain(rows)).toEqual([['a', 1, 10, 4], ['a', 2, 35, 4], ['a', 2, 35, 4], ['a', null, 36, 4], ['b', 3, 7, 1], ['b', 4, 7, 1]]);
  });

  it('allows window calls inside expressions and ranks across the table', async () => {
    const rows = await env.from('t').select('v', col('v').minus(lag('v').over(window().orderBy('v'))).as('gap'), ntile(2).over(window().orderBy('v')).as('half'), nthValue('v', 2).over(window().orderBy('v')).as('second'))
      .orderBy('v').toArray();
    expect(plain(rows)).toEqual([[1, null, 1, null], [5, 4, 1, 5], [7, 2, 1, 5], [10, 3, 2, 5], [20, 10, 2, 5], [null, null, 2, 5]]);
  });

  it('explains a Window node and rejects misuse', async () => {
    const t = env.from('t').select('g', rowNumber().over(window().partitionBy('g').orderBy('v')).as('rn'));
    expect(await t.explain()).toContain('Window(partition=[g], order=[v ASC NULLS LAST], calls=[row_number() AS row_number])');
    expect(() => env.from('t').filter(rowNumber().over(window()).gt(1))).toThrow(/not allowed in filter/);
    expect(() => window().rows(following(1), preceding(1))).toThrow(/cannot end before|before it/);
    expect(() => col('v').over(window())).toThrow(/applies to an aggregate/);
    expect(() => ntile(0)).toThrow(/at least 1/);
  });
});

/**
 * GROUP BY with two columns of one name (issue 7, bug 7), checked against
 * DuckDB: a derived table (subquery, CTE) whose select list has an alias and
 * a column both named `i` exposes them as `i` and `i_1`, so `GROUP BY i`
 * groups by the first (the alias) instead of failing or picking one
 * silently; in a plain SELECT the FROM column wins over an alias of the same
 * name, and among several items with the alias GROUP BY names, the last one
 * counts, as in DuckDB.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/index.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { loadRows, openDuck, type Duck } from '../helpers/duckdb.js';

const ROWS = [{ i: 1, j: 10 }, { i: 2, j: 10 }, { i: 3, j: 20 }];
let duck: Duck;
let env: TableEnvironment;

beforeAll(async () => {
  duck = await openDuck();
  await loadRows(duck, 't', { i: 'INTEGER', j: 'INTEGER' }, ROWS);
  env = TableEnvironment.create();
  env.registerTable('t', env.fromRecords(ROWS, { i: 'INTEGER', j: 'INTEGER' }));
});
afterAll(() => duck.close());

const SAME = [
  'SELECT i FROM (SELECT j AS i, i FROM t) GROUP BY i',
  'SELECT i FROM (SELECT j AS i, i FROM t) s GROUP BY s.i',
  'SELECT i, i_1 FROM (SELECT j AS i, i FROM t)',
  'SELECT * FROM (SELECT j AS i, i FROM t)',
  'SELECT i FROM (SELECT i, j AS i FROM t) GROUP BY i',
  'WITH s AS (SELECT j AS i, i FROM t) SELECT i, count(*) FROM s GROUP BY i',
  'SELECT i % 2 AS i, count(*) AS n FROM t GROUP BY i',
  'SELECT i, i % 2 AS i FROM t GROUP BY i',
  'SELECT i % 2 AS i, count(*) FROM t GROUP BY 1',
  // Two select items with the alias GROUP BY names: the last one.
  'SELECT max(j) AS k, i AS k FROM t GROUP BY k',
];

describe('GROUP BY a name two columns share (as DuckDB)', () => {
  for (const q of SAME) {
    it(q, async () => {
      expectSameResult(fromArrow(await env.sql(q).collect()), await duck.query(q));
    });
  }

  it('an alias that shadows an ungrouped column is an error in both', async () => {
    const q = 'SELECT j AS i, i FROM t GROUP BY i';
    await expect(duck.query(q)).rejects.toThrow(/column "j" must appear in the GROUP BY clause/);
    expect(() => env.sql(q)).toThrow(/column "j" must appear in the GROUP BY clause/);
  });

  it('GROUP BY an alias whose last item is an aggregate is an error in both', async () => {
    const q = 'SELECT i AS k, max(j) AS k FROM t GROUP BY k';
    await expect(duck.query(q)).rejects.toThrow(/GROUP BY clause cannot contain aggregates/);
    expect(() => env.sql(q)).toThrow(/GROUP BY cannot refer to an aggregate/);
  });
});

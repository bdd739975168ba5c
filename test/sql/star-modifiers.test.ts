/**
 * DuckDB's `* EXCLUDE (...)` and `* REPLACE (expr AS name, ...)` (src/sql/binder/select.ts starEntries),
 * checked against DuckDB: plain and qualified stars, several modifiers, a replaced column keeping its
 * place and name, aggregation over the result, and errors naming what does not exist.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/index.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { loadRows, openDuck, type Duck } from '../helpers/duckdb.js';

const T = [{ a: 1, b: 'x', c: 2.5 }, { a: 2, b: 'y', c: null }, { a: 3, b: null, c: -1 }];
const U = [{ a: 1, d: 'p' }, { a: 3, d: 'q' }];
let duck: Duck;
let env: TableEnvironment;

beforeAll(async () => {
  duck = await openDuck();
  await loadRows(duck, 't', { a: 'INTEGER', b: 'VARCHAR', c: 'DOUBLE' }, T);
  await loadRows(duck, 'u', { a: 'INTEGER', d: 'VARCHAR' }, U);
  env = TableEnvironment.create({ parallelism: 1 });
  env.registerTable('t', env.fromRecords(T, { a: 'INTEGER', b: 'VARCHAR', c: 'DOUBLE' }));
  env.registerTable('u', env.fromRecords(U, { a: 'INTEGER', d: 'VARCHAR' }));
});
afterAll(() => duck.close());

const SAME = [
  'SELECT * EXCLUDE (c) FROM t ORDER BY a',
  'SELECT * EXCLUDE c FROM t ORDER BY a',
  'SELECT * EXCLUDE (b, c) FROM t ORDER BY a',
  'SELECT * REPLACE (a * 10 AS a, upper(b) AS b) FROM t ORDER BY a',
  'SELECT * EXCLUDE (c) REPLACE (a + 1 AS a) FROM t ORDER BY a',
  'SELECT t.* EXCLUDE (b), u.d FROM t JOIN u ON t.a = u.a ORDER BY t.a',
  'SELECT u.* REPLACE (d || \'!\' AS d), t.b FROM t JOIN u USING (a) ORDER BY b',
  'SELECT b, count(*) FROM (SELECT * EXCLUDE (c) FROM t) GROUP BY b ORDER BY b',
];

describe('* EXCLUDE and * REPLACE as DuckDB', () => {
  for (const q of SAME) {
    it(q, async () => {
      expectSameResult(fromArrow(await env.sql(q).collect()), await duck.query(q), { ordered: true });
    });
  }

  it('names what is not a column of the star', () => {
    expect(() => env.sql('SELECT * EXCLUDE (nope) FROM t')).toThrow(/line 1, column 19: column "nope" in EXCLUDE is not a column of \*/);
    expect(() => env.sql('SELECT u.* EXCLUDE (b) FROM t JOIN u USING (a)')).toThrow(/column "b" in EXCLUDE is not a column of u\.\*/);
    expect(() => env.sql('SELECT * REPLACE (1 AS nope) FROM t')).toThrow(/column "nope" in REPLACE is not a column of \*/);
    expect(() => env.sql('SELECT * EXCLUDE (a, b, c) FROM t')).toThrow(/EXCLUDE leaves no columns/);
  });

  it('replace(...) is still a function, and exclude a column name', async () => {
    const e = TableEnvironment.create({ parallelism: 1 });
    e.registerTable('w', e.fromRecords([{ exclude: 'abc' }], { exclude: 'VARCHAR' }));
    const r = await e.sql("SELECT replace(exclude, 'b', 'B') AS v, exclude FROM w").collect();
    expect(r.toArray().map((x) => x.toJSON())).toEqual([{ v: 'aBc', exclude: 'abc' }]);
    await e.close();
  });
});

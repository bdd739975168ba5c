/**
 * GROUP BY ROLLUP / CUBE / GROUPING SETS and GROUPING(...) (src/sql/cst-grouping-sets.ts,
 * binder/aggregate.ts), checked against DuckDB: NULLs of the data stay apart from rolled-up keys, sets
 * combine as cross products with plain keys, HAVING / ORDER BY / window functions over the result,
 * DISTINCT aggregates, GROUPING bits, and the answers at parallelism 2.
 */
import { describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/index.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { expectSameAtP1AndP2, oracleTable } from '../helpers/oracle-table.js';

const ROWS = [
  { x: 1, s: 'a', y: 10, d: 1.5 },
  { x: 1, s: 'b', y: 20, d: 2.5 },
  { x: 2, s: 'a', y: null, d: -1 },
  { x: null, s: 'b', y: 5, d: 0.25 },
  { x: 2, s: null, y: 7, d: 3 },
  { x: 3, s: 'c', y: 1, d: null },
];
const TYPES = { x: 'INTEGER', s: 'VARCHAR', y: 'INTEGER', d: 'DOUBLE' } as const;
const { duck: oracle, env: eddy } = oracleTable('t', TYPES, ROWS);

const SAME = [
  'SELECT x, count(*), sum(y) FROM t GROUP BY ROLLUP (x) ORDER BY ALL',
  'SELECT x, s, count(*), sum(y), avg(d) FROM t GROUP BY ROLLUP (x, s) ORDER BY ALL',
  'SELECT x, s, count(*), sum(y) FROM t GROUP BY CUBE (x, s) ORDER BY ALL',
  'SELECT x, s, count(*) FROM t GROUP BY GROUPING SETS ((x), (s), ()) ORDER BY ALL',
  'SELECT x, s, count(*) FROM t GROUP BY GROUPING SETS ((x, s), x) ORDER BY ALL',
  // Cross product with a plain key, and duplicate sets (both kept, as DuckDB).
  'SELECT x, s, count(*) FROM t GROUP BY x, GROUPING SETS ((), (s)) ORDER BY ALL',
  'SELECT x, count(*) FROM t GROUP BY GROUPING SETS ((x), (x), ()) ORDER BY ALL',
  'SELECT x, s, count(*) FROM t GROUP BY GROUPING SETS (ROLLUP (x), CUBE (s)) ORDER BY ALL',
  'SELECT x, s, grouping(x), grouping(x, s), grouping_id(s, x), count(*) FROM t GROUP BY CUBE (x, s) ORDER BY ALL',
  'SELECT x % 2 AS p, count(*), grouping(p) FROM t GROUP BY ROLLUP (p) ORDER BY ALL',
  'SELECT x, count(DISTINCT s), max(d), min(s) FROM t GROUP BY ROLLUP (x) ORDER BY ALL',
  'SELECT x, s, sum(y) AS v FROM t GROUP BY ROLLUP (x, s) HAVING sum(y) > 10 OR grouping(x) = 1 ORDER BY grouping(x, s), v DESC, x, s',
  'SELECT x, sum(y), rank() OVER (PARTITION BY grouping(x) ORDER BY sum(y) DESC NULLS LAST) AS r FROM t GROUP BY ROLLUP (x) ORDER BY ALL',
  'SELECT 1 AS one, count(*) FROM t GROUP BY GROUPING SETS (()) ORDER BY ALL',
  'SELECT s AS filter, count(*) FROM t GROUP BY ROLLUP (filter) ORDER BY ALL',
  'SELECT grouping(x), x, count(*) FROM t GROUP BY x ORDER BY ALL',
  'SELECT x, s, count(*) FROM (SELECT x, s FROM t WHERE y IS NOT NULL) q GROUP BY ROLLUP (x, s) ORDER BY ALL',
];

describe('ROLLUP / CUBE / GROUPING SETS as DuckDB', () => {
  for (const q of SAME) {
    it(q, async () => {
      expectSameResult(fromArrow(await eddy().sql(q).collect()), await oracle().query(q), { ordered: true });
    });
  }

  it('an empty input answers one row for the empty set, as DuckDB', async () => {
    await oracle().query('CREATE TABLE e AS SELECT * FROM t WHERE false');
    eddy().registerTable('e', eddy().fromRecords([], TYPES));
    for (const q of ['SELECT x, count(*), sum(y) FROM e GROUP BY ROLLUP (x)', 'SELECT count(*) FROM e GROUP BY GROUPING SETS (())', 'SELECT x, s, count(*) FROM e GROUP BY CUBE (x, s)']) {
      expectSameResult(fromArrow(await eddy().sql(q).collect()), await oracle().query(q), { ordered: true });
    }
  });

  it('the same at parallelism 2 over a table large enough to ship', async () => {
    const big = Array.from({ length: 210_000 }, (_, i) => ({ k: i % 7, j: i % 3, v: i % 1000 }));
    const q = 'SELECT k, j, grouping(k, j) AS g, count(*), sum(v) FROM big GROUP BY CUBE (k, j) ORDER BY ALL';
    const a = await expectSameAtP1AndP2('big', { k: 'INTEGER', j: 'INTEGER', v: 'INTEGER' }, big, q);
    expect(a.rows.length).toBe(7 * 3 + 7 + 3 + 1);
  });

  it('columns named rollup, cube, grouping and sets are still columns', async () => {
    const e = TableEnvironment.create({ parallelism: 1 });
    e.registerTable('w', e.fromRecords([{ rollup: 1, cube: 2, grouping: 3, sets: 4 }], { rollup: 'INTEGER', cube: 'INTEGER', grouping: 'INTEGER', sets: 'INTEGER' }));
    const t = await e.sql('SELECT rollup, cube, grouping, sets, count(*) AS n FROM w GROUP BY rollup, cube, grouping, sets').collect();
    expect(t.toArray().map((r) => r.toJSON())).toEqual([{ rollup: 1, cube: 2, grouping: 3, sets: 4, n: 1n }]);
    await e.close();
  });

  it('errors say what is wrong, with the position', () => {
    expect(() => eddy().sql('SELECT grouping(x) FROM t')).toThrow(/grouping\(\.\.\.\) is only allowed in a query with GROUP BY/);
    expect(() => eddy().sql('SELECT x, grouping(y) FROM t GROUP BY ROLLUP (x)')).toThrow(/line 1, column 20: the arguments of grouping\(\.\.\.\) must be GROUP BY expressions/);
    expect(() => eddy().sql('SELECT x, sum(grouping(x)) FROM t GROUP BY ROLLUP (x)')).toThrow(/GROUPING\(\.\.\.\) cannot be an argument of an aggregate/);
    expect(() => eddy().sql('SELECT count(*) FROM t GROUP BY CUBE (x, x, x, x, x, x, x, x, x, x, x, x, x)')).toThrow(/CUBE takes at most 12 expressions/);
    expect(() => eddy().sql('SELECT x, y, count(*) FROM t GROUP BY ROLLUP (x)')).toThrow(/column "y" must appear in the GROUP BY clause/);
  });
});

/**
 * Aggregate clauses `FILTER (WHERE c)` and `WITHIN GROUP (ORDER BY x)` (src/sql/cst-agg-clauses.ts),
 * checked against DuckDB: values, NULL handling (a NULL condition drops the row), DISTINCT, ORDER BY
 * inside the call, window aggregates, HAVING / ORDER BY on a filtered aggregate, and the output names.
 */
import { describe, expect, it } from 'vitest';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { expectSameAtP1AndP2, oracleTable } from '../helpers/oracle-table.js';

const ROWS = [
  { g: 'a', x: 1, y: 1.5, s: 'p', b: true },
  { g: 'a', x: 2, y: null, s: 'q', b: false },
  { g: 'a', x: null, y: 2.5, s: null, b: null },
  { g: 'b', x: 4, y: 4.5, s: 'r', b: true },
  { g: 'b', x: 5, y: -1, s: 's', b: true },
  { g: 'b', x: 5, y: 7.25, s: 'r', b: false },
  { g: 'c', x: 7, y: 0, s: 't', b: null },
  { g: null, x: 8, y: 3, s: 'u', b: true },
];
const TYPES = { g: 'VARCHAR', x: 'INTEGER', y: 'DOUBLE', s: 'VARCHAR', b: 'BOOLEAN' } as const;
const { duck: oracle, env: eddy } = oracleTable('t', TYPES, ROWS);

/** Queries whose answers and column names equal DuckDB's. */
const SAME = [
  'SELECT count(*) FILTER (WHERE x > 1), count(x) FILTER (WHERE b), sum(x) FILTER (WHERE y > 0), avg(y) FILTER (WHERE g = \'b\') FROM t',
  'SELECT g, count(*) FILTER (WHERE b), min(y) FILTER (WHERE x % 2 = 1), max(s) FILTER (WHERE NOT b) FROM t GROUP BY g',
  // A NULL condition drops the row, as false does.
  'SELECT count(*) FILTER (WHERE b), count(*) FILTER (WHERE NOT b), count(*) FILTER (WHERE b IS NULL) FROM t',
  'SELECT count(DISTINCT x) FILTER (WHERE y IS NOT NULL), sum(DISTINCT x) FILTER (WHERE x > 1) FROM t',
  'SELECT quantile_cont(y, 0.5) FILTER (WHERE x < 6), median(x) FILTER (WHERE b), mode(s) FILTER (WHERE x > 3) AS m FROM t',
  'SELECT bool_and(b) FILTER (WHERE x > 3), bool_or(b) FILTER (WHERE x < 3), stddev_samp(y) FILTER (WHERE x > 1) FROM t',
  'SELECT arg_max(s, y) FILTER (WHERE x < 5), arg_min(s, x) FILTER (WHERE y > 0), corr(x, y) FILTER (WHERE b) FROM t',
  // FILTER without WHERE (DuckDB's shorthand).
  'SELECT sum(x) FILTER (x > 4) FROM t',
  'SELECT g, count(*) FILTER (WHERE x > 1) AS n FROM t GROUP BY g HAVING count(*) FILTER (WHERE x > 1) >= 1 ORDER BY count(*) FILTER (WHERE x > 1) DESC, g',
  'SELECT x, sum(y) FILTER (WHERE b) OVER (ORDER BY x, y) AS w FROM t ORDER BY x, y',
  'SELECT percentile_cont(0.25) WITHIN GROUP (ORDER BY y), percentile_cont(0.5) WITHIN GROUP (ORDER BY x), percentile_disc(0.5) WITHIN GROUP (ORDER BY x) FROM t',
  'SELECT g, percentile_cont(0.25) WITHIN GROUP (ORDER BY y DESC), percentile_disc(0.75) WITHIN GROUP (ORDER BY s) FROM t GROUP BY g',
  'SELECT mode() WITHIN GROUP (ORDER BY x) FROM t',
  'SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY y) FILTER (WHERE x > 1) FROM t',
  // A column named filter is still a column, and an alias.
  'SELECT g AS filter FROM t WHERE x = 1',
];

describe('FILTER (WHERE ...) and WITHIN GROUP (ORDER BY ...) as DuckDB', () => {
  for (const q of SAME) {
    it(q, async () => {
      expectSameResult(fromArrow(await eddy().sql(q).collect()), await oracle().query(q), { ordered: /ORDER BY [a-z]/.test(q.replace(/\(ORDER BY/g, '')) });
    });
  }

  it('string_agg with ORDER BY inside and FILTER', async () => {
    const q = "SELECT string_agg(s, '|' ORDER BY s DESC) FILTER (WHERE x > 1) AS v FROM t";
    expectSameResult(fromArrow(await eddy().sql(q).collect()), await oracle().query(q));
  });

  it('the same at parallelism 2 over a table large enough to ship', async () => {
    const big = Array.from({ length: 210_000 }, (_, i) => ({ k: i % 7, v: i % 1000, w: (i % 13) - 6 }));
    const q = 'SELECT k, count(*) FILTER (WHERE w > 0) AS c, sum(v) FILTER (WHERE w < 0) AS s FROM big GROUP BY k ORDER BY k';
    const a = await expectSameAtP1AndP2('big', { k: 'INTEGER', v: 'INTEGER', w: 'INTEGER' }, big, q);
    expect(a.rows.length).toBe(7);
  });

  it('refuses what a CASE rewrite would answer wrongly, with the position', () => {
    expect(() => eddy().sql('SELECT first(x) FILTER (WHERE b) FROM t')).toThrow(/FILTER \(WHERE \.\.\.\) is not supported for first\(\.\.\.\), which keeps NULL values/);
    expect(() => eddy().sql('SELECT last(x) FILTER (WHERE b) FROM t')).toThrow(/not supported for last/);
    expect(() => eddy().sql('SELECT row_number() FILTER (WHERE b) OVER () FROM t')).toThrow(/FILTER \(WHERE \.\.\.\) is only for aggregate functions, not row_number/);
    expect(() => eddy().sql('SELECT upper(s) FILTER (WHERE b) FROM t')).toThrow(/only for aggregate functions, not upper/);
    expect(() => eddy().sql('SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY x DESC) FROM t')).toThrow(/ORDER BY x DESC\) is not supported/);
    expect(() => eddy().sql('SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x, y) FROM t')).toThrow(/takes one ORDER BY key, not 2/);
    expect(() => eddy().sql('SELECT sum(x) WITHIN GROUP (ORDER BY x) FROM t')).toThrow(/WITHIN GROUP \(ORDER BY \.\.\.\) is only for percentile_cont, percentile_disc and mode, not sum/);
    expect(() => eddy().sql('SELECT percentile_cont(0.5) FROM t')).toThrow(/percentile_cont\(fraction\) needs WITHIN GROUP \(ORDER BY x\), or write quantile_cont\(x, fraction\)/);
    expect(() => eddy().sql('SELECT percentile_cont(0.5) WITHIN (ORDER BY x) FROM t')).toThrow(/expected WITHIN GROUP \(ORDER BY \.\.\.\)/);
    expect(() => eddy().sql('SELECT sum(x) FILTER (WHERE sum(x) > 1) FROM t')).toThrow(/aggregate/i);
  });
});

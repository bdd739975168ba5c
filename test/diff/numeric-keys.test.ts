/**
 * Numeric keys across hash exchanges (issue #7, bug 5): joins, GROUP BY,
 * DISTINCT and set operations over keys of mixed numeric types (BIGINT beyond
 * 2^53 against DOUBLE, -0.0 and 0.0, NaN), against DuckDB, at parallelism 1
 * and at parallelism 2 with 4-row batches. The hash partitioner and the key
 * tables must agree on one normalization of a number, or rows that compare
 * equal land in different subtasks and never meet.
 */
import { beforeAll, describe, it } from 'vitest';
import { useHarness, type Harness } from './harness.js';
import { registerNumericTables } from './numeric-tables.js';

function numericKeySuite(h: Harness): void {
  beforeAll(async () => { await registerNumericTables(h, 2); });
  const check = (sql: string) => async () => { await h.check(h.env.sql(sql), sql); };

  describe('joins', () => {
    it('BIGINT = DOUBLE compares as DOUBLE (values beyond 2^53 match the double they round to)',
      check('SELECT a.big, b.v FROM big_a a JOIN dbl_b b ON a.big = b.v'));
    it('BIGINT = DOUBLE: count (the issue\'s query)', check('SELECT count(*) AS n FROM big_a a JOIN dbl_b b ON a.big = b.v'));
    it('CAST(BIGINT AS DOUBLE) on both sides still compares as DOUBLE',
      check('SELECT a.big, a2.big AS big2 FROM big_a a JOIN big_a a2 ON CAST(a.big AS DOUBLE) = CAST(a2.big AS DOUBLE)'));
    it('BIGINT = BIGINT stays exact beyond 2^53', check('SELECT a.big, a2.big AS big2 FROM big_a a JOIN big_a a2 ON a.big = a2.big'));
    it('INTEGER = BIGINT', check('SELECT i.i, a.big FROM ints i JOIN big_a a ON i.i = a.big'));
    it('INTEGER = DOUBLE, -0.0 = 0.0', check('SELECT i.i, b.v FROM ints i JOIN dbl_b b ON i.i = b.v'));
    it('LEFT JOIN BIGINT = DOUBLE', check('SELECT a.big, b.v FROM big_a a LEFT JOIN dbl_b b ON a.big = b.v'));
    it('FULL JOIN DOUBLE = BIGINT', check('SELECT a.big, b.v FROM dbl_b b FULL JOIN big_a a ON b.v = a.big'));
    it('BIGINT IN (SELECT DOUBLE) (a semi join)', check('SELECT big FROM big_a WHERE big IN (SELECT v FROM dbl_b)'));
    it('BIGINT NOT IN (SELECT DOUBLE) (an anti join)', check('SELECT big FROM big_a WHERE big NOT IN (SELECT v FROM dbl_b WHERE v IS NOT NULL)'));
  });

  describe('GROUP BY, DISTINCT and set operations', () => {
    it('GROUP BY DOUBLE: -0.0 and 0.0 are one group, NaNs are one group', check('SELECT v, count(*) AS n FROM dbl_b GROUP BY v'));
    it('DISTINCT DOUBLE', check('SELECT DISTINCT v FROM dbl_b'));
    it('GROUP BY BIGINT near ±2^63', check('SELECT big, count(*) AS n FROM big_a GROUP BY big'));
    it('UNION of BIGINT and DOUBLE (as DOUBLE)', check('SELECT big FROM big_a UNION SELECT v FROM dbl_b'));
    it('INTERSECT of BIGINT and DOUBLE', check('SELECT big FROM big_a INTERSECT SELECT v FROM dbl_b'));
    it('EXCEPT of DOUBLE and BIGINT', check('SELECT v FROM dbl_b EXCEPT SELECT big FROM big_a'));
    it('UNION of INTEGER and DOUBLE with -0.0', check('SELECT i FROM ints UNION SELECT v FROM dbl_b'));
    it('count(DISTINCT DOUBLE) per group', check('SELECT g, count(DISTINCT v) AS n FROM dbl_b GROUP BY g'));
  });
}

describe('numeric keys, parallelism 1', () => {
  numericKeySuite(useHarness({ tpch: false, env: { parallelism: 1 } }));
});

describe('numeric keys, parallelism 2, batchSize 4', () => {
  numericKeySuite(useHarness({ tpch: false, env: { parallelism: 2, batchSize: 4 }, smallBatchRows: 2 }));
});

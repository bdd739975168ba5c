/**
 * GROUP BY keys with NULLs (kernels/hash-null-keys.ts): many rows and many NULL patterns across key
 * columns of several types, checked against DuckDB; NULL equals NULL in a group, a NULL and a value
 * (or an empty string, or 0) stay apart.
 */
import { describe, it } from 'vitest';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { oracleTable } from '../helpers/oracle-table.js';

const N = 20_000;
const ROWS = Array.from({ length: N }, (_, i) => ({
  s: i % 5 === 0 ? null : i % 7 === 0 ? '' : `k${i % 11}`,
  n: i % 3 === 0 ? null : i % 4,
  d: i % 13 === 0 ? null : (i % 6) / 2,
  v: i,
}));
const TYPES = { s: 'VARCHAR', n: 'INTEGER', d: 'DOUBLE', v: 'INTEGER' } as const;
const { duck: oracle, env: eddy } = oracleTable('t', TYPES, ROWS);

describe('GROUP BY keys with NULLs', () => {
  for (const q of [
    'SELECT s, count(*), sum(v) FROM t GROUP BY s',
    'SELECT s, n, count(*), sum(v) FROM t GROUP BY s, n',
    'SELECT s, n, d, count(*), min(v), max(v) FROM t GROUP BY s, n, d',
    'SELECT n, d, count(*) FROM t GROUP BY n, d',
    "SELECT CASE WHEN v % 2 = 0 THEN s END AS k, count(*) FROM t GROUP BY 1",
  ]) {
    it(q, async () => {
      expectSameResult(fromArrow(await eddy().sql(q).collect()), await oracle().query(q));
    });
  }
});

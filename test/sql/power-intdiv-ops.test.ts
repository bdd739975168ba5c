/**
 * DuckDB's `//` (integer division), `^` and `**` (power) operators, checked against DuckDB: integers,
 * negatives, doubles, NULLs, division by zero, precedence against `*` and signs, left associativity.
 */
import { describe, it } from 'vitest';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { oracleTable } from '../helpers/oracle-table.js';

const ROWS = [
  { a: 7, b: 2, x: 7.5, y: 2 }, { a: -7, b: 2, x: -7.5, y: 0.5 }, { a: 7, b: -2, x: 2, y: -1 },
  { a: 0, b: 3, x: 0, y: 3 }, { a: null, b: 1, x: null, y: 1 }, { a: 9, b: null, x: 4, y: null },
];
const { duck, env } = oracleTable('t', { a: 'INTEGER', b: 'INTEGER', x: 'DOUBLE', y: 'DOUBLE' }, ROWS);

const SAME = [
  'SELECT a // b AS q FROM t',
  'SELECT x // y AS q FROM t',
  'SELECT a // 0 AS q FROM t',
  'SELECT x ^ y AS p, x ** y AS p2 FROM t',
  'SELECT a ^ 2 AS p FROM t',
  'SELECT 2 ^ 3 ^ 2 AS p, 2 * 3 ^ 2 AS q, -2 ^ 2 AS r, 2 ** -1 AS s, 7 // 2 * 2 AS u, 1 + 7 // 2 AS v',
  'SELECT a, sum(b) // 2 AS q FROM t GROUP BY a',
];

describe('// and ^ / ** as DuckDB', () => {
  for (const q of SAME) {
    it(q, async () => {
      expectSameResult(fromArrow(await env().sql(q).collect()), await duck().query(q), { ordered: false, names: false });
    });
  }
});

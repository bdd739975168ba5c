/**
 * SUMMARIZE against DuckDB: the same output columns and types, and the same
 * min, max, avg, count and null_percentage text for every column type, std
 * to 10 digits;
 * approx_unique within 10%, and the quartiles (DuckDB's t-digest is exact
 * on 100 values).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/environment.js';
import { fromArrow, type ResultSet } from '../helpers/compare.js';
import { openDuck, type Duck } from '../helpers/duckdb.js';

// 100 rows both engines build the same way: the cross product of two lists of digits.
const DIGITS = '(VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9))';
const SETUP = `CREATE TABLE t AS WITH r AS (SELECT a.x * 10 + b.y AS i FROM ${DIGITS} a(x), ${DIGITS} b(y))
  SELECT CAST(i AS INTEGER) AS i, CAST(i AS DOUBLE) * 1.5 AS d, 'x' || CAST(i % 7 AS VARCHAR) AS s, DATE '2020-01-01' + CAST(i AS INTEGER) AS dt,
    i % 2 = 0 AS b, CASE WHEN i % 3 = 0 THEN NULL ELSE CAST(i AS BIGINT) END AS n FROM r`;

let env: TableEnvironment;
let duck: Duck;
beforeAll(async () => {
  env = TableEnvironment.create();
  duck = await openDuck();
  await env.executeSql(SETUP);
  await duck.run(SETUP);
});
afterAll(async () => {
  await env.close();
  duck.close();
});

const column = (r: ResultSet, name: string): unknown[] => r.rows.map((row) => row[r.names.indexOf(name)]);

describe('SUMMARIZE', () => {
  it('has DuckDB\'s columns and exact statistics', async () => {
    const mine = await env.executeSql('SUMMARIZE t');
    if (mine.kind !== 'rows') throw new Error('expected rows');
    const ours = fromArrow(mine.table);
    const theirs = await duck.query('SUMMARIZE t');
    expect(ours.names).toEqual(theirs.names);
    expect(ours.kinds).toEqual(theirs.kinds);
    for (const c of ['column_name', 'column_type', 'min', 'max', 'avg', 'count', 'null_percentage']) {
      expect(column(ours, c), c).toEqual(column(theirs, c));
    }
    // std: the same to the last bits or two (the summation order differs).
    const std = column(theirs, 'std');
    column(ours, 'std').forEach((v, k) => (v === null ? expect(std[k]).toBeNull() : expect(Number(v)).toBeCloseTo(Number(std[k]), 10)));
    const approx = column(ours, 'approx_unique').map(Number);
    column(theirs, 'approx_unique').map(Number).forEach((v, k) => expect(Math.abs(approx[k]! - v)).toBeLessThanOrEqual(Math.max(1, v * 0.1)));
    for (const c of ['q25', 'q50', 'q75']) expect(column(ours, c), c).toEqual(column(theirs, c));
  });

  it('summarizes a query', async () => {
    const r = await env.executeSql("SUMMARIZE SELECT s FROM t WHERE s <> 'x0'");
    if (r.kind !== 'rows') throw new Error('expected rows');
    const rows = fromArrow(r.table);
    expect(column(rows, 'min')).toEqual(['x1']);
    expect(column(rows, 'count')).toEqual([85]);
  });
});

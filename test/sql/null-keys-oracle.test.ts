/**
 * GROUP BY, DISTINCT, set operations and joins over keys with NULLs (kernels/hash-null-words.ts:
 * a NULL key column is its column's NULL word), against DuckDB: one and several key columns of
 * every type (INTEGER and BIGINT holding their NULL words INT_MIN / INT64_MIN as values, DOUBLE
 * with NaN and -0, VARCHAR with the empty string, DATE, BOOLEAN, a dictionary VARCHAR), all-NULL
 * and mixed columns, NULL in every key position, > 64K groups; then the same rows at parallelism 2
 * (worker stages) as at 1.
 */
import * as arrow from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/index.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import type { ColumnType, Duck } from '../helpers/duckdb.js';
import { closeOracleP1P2, openOracleP1P2 } from '../helpers/oracle-table.js';
import { rng } from '../helpers/rng.js';
import { workerStats } from '../workers/helpers.js';

const INT_MIN = -2147483648;
const INT64_MIN = -(2n ** 63n);
const N = 90_000;
const r = rng(11);
const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const ROWS = Array.from({ length: N }, (_, x) => ({
  i: pick([null, INT_MIN, 0, 1, 2, -5]),
  b: pick([null, INT64_MIN, 0n, 7n, 1n << 40n]),
  d: pick([null, NaN, -0, 0, 1.5]),
  s: pick([null, '', 'a', 'bb', 'a longer string']),
  dt: pick([null, '1970-01-01', '2022-01-08', '1969-12-29']),
  f: pick([null, true, false]),
  // Many groups (> 64K): NULL for every ninth row.
  m: x % 9 === 0 ? null : (x * 7919) % 80_000,
  z: null,
  v: x % 1000,
}));
const TYPES: Record<string, ColumnType> = { i: 'INTEGER', b: 'BIGINT', d: 'DOUBLE', s: 'VARCHAR', dt: 'DATE', f: 'BOOLEAN', m: 'INTEGER', z: 'INTEGER', v: 'INTEGER' };

let duck: Duck;
let p1: TableEnvironment;
let p2: TableEnvironment;

beforeAll(async () => {
  // td: s as a dictionary column `sd` (its NULLs as NULL rows).
  const sd = arrow.vectorFromArray(ROWS.map((x) => x.s), new arrow.Dictionary(new arrow.Utf8(), new arrow.Int32()));
  const register = (e: TableEnvironment): void => { e.registerTable('td', new arrow.Table({ sd, v: arrow.vectorFromArray(ROWS.map((x) => x.v), new arrow.Int32()) })); };
  ({ duck, p1, p2 } = await openOracleP1P2([{ name: 't', types: TYPES, rows: ROWS }], { p2Batch: 8192, register }));
}, 120_000);

afterAll(async () => {
  await closeOracleP1P2({ duck, p1, p2 });
});

const GROUP_KEYS = ['i', 'b', 'd', 's', 'dt', 'f', 'z', 'm', 'i, s', 's, i', 'b, d', 'f, dt, s', 'i, b, d, s, dt, f', 'm, s', 'z, i', 'm, z, f'];

describe('keys with NULLs against DuckDB', { timeout: 120_000 }, () => {
  for (const k of GROUP_KEYS) {
    it(`GROUP BY ${k}`, async () => {
      const q = `SELECT ${k}, count(*) AS c, sum(v) AS sv FROM t GROUP BY ${k}`;
      expectSameResult(fromArrow(await p1.sql(q).collect()), await duck.query(q));
    });
  }

  it('GROUP BY a dictionary VARCHAR with NULL rows (and with a CASE making more NULLs)', async () => {
    const q = 'SELECT sd AS s, count(*) AS c, sum(v) AS sv FROM td GROUP BY sd';
    expectSameResult(fromArrow(await p1.sql(q).collect()), await duck.query(q.replaceAll('sd', 's').replace('td', 't')));
    const q2 = "SELECT CASE WHEN v % 2 = 0 THEN sd END AS k, count(*) AS c FROM td GROUP BY 1";
    expectSameResult(fromArrow(await p1.sql(q2).collect()), await duck.query(q2.replace('sd', 's').replace('td', 't')));
  });

  for (const q of [
    'SELECT DISTINCT i, s, f FROM t',
    'SELECT DISTINCT b, d FROM t',
    'SELECT count(DISTINCT m) AS c FROM t',
    'SELECT i, s FROM t WHERE v < 300 UNION SELECT i, s FROM t WHERE v > 700',
    'SELECT i, d FROM t WHERE v < 600 INTERSECT SELECT i, d FROM t WHERE v > 400',
    'SELECT b, s FROM t WHERE v < 600 EXCEPT SELECT b, s FROM t WHERE v > 500',
    // Join keys with a NULL never match (nor INT_MIN a NULL).
    'SELECT count(*) AS c, sum(x.v) AS sv FROM t x JOIN (SELECT DISTINCT i, s FROM t) y ON x.i = y.i AND x.s = y.s',
    'SELECT count(*) AS c FROM (SELECT DISTINCT i FROM t) x JOIN (SELECT DISTINCT i FROM t) y ON x.i = y.i',
    'SELECT x.i, count(y.i) AS c FROM (SELECT DISTINCT i FROM t) x LEFT JOIN (SELECT DISTINCT i FROM t) y ON x.i = y.i GROUP BY x.i',
  ]) {
    it(q, async () => {
      expectSameResult(fromArrow(await p1.sql(q).collect()), await duck.query(q));
    });
  }
});

describe('keys with NULLs: the same rows at parallelism 2 (worker stages) as at 1', { timeout: 120_000 }, () => {
  for (const q of [
    'SELECT i, s, count(*) AS c, sum(v) AS sv FROM t GROUP BY i, s',
    'SELECT m, count(*) AS c FROM t GROUP BY m',
    'SELECT b, d, f, count(*) AS c FROM t GROUP BY b, d, f',
    'SELECT sd, count(*) AS c FROM td GROUP BY sd',
  ]) {
    it(q, async () => {
      const before = workerStats(p2).stages;
      const a = fromArrow(await p2.sql(q).collect());
      expect(workerStats(p2).stages).toBeGreaterThan(before);
      // Unordered: without ORDER BY, p2 merges its shares' groups in another order than p1's (as before NULL words).
      expectSameResult(a, fromArrow(await p1.sql(q).collect()));
    });
  }
});

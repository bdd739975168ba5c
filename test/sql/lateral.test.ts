/**
 * LATERAL joins (src/sql/binder/lateral.ts, src/planner/rules/decorrelate-lateral.ts and the domain
 * decorrelation), checked against DuckDB: top-N per row, aggregates per row (count() 0 over an empty
 * right side), LEFT JOIN LATERAL with empty right sides, NULL correlated values, several correlated
 * columns, laterals reading two earlier items, nested laterals, a lateral in a CTE and in a subquery,
 * FROM-less laterals, implicit laterals (a FROM subquery naming an earlier item), and parallelism 2.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/index.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { loadRows, openDuck, type ColumnType, type Duck } from '../helpers/duckdb.js';
import { expectSameAtP1AndP2 } from '../helpers/oracle-table.js';

type Row = Record<string, unknown>;

const TABLES: readonly { name: string; types: Record<string, ColumnType>; rows: Row[] }[] = [
  {
    name: 't',
    types: { k: 'INTEGER', a: 'INTEGER', s: 'VARCHAR', n: 'INTEGER' },
    rows: [
      { k: 1, a: 10, s: 'x', n: 2 }, { k: 2, a: 20, s: 'y', n: 0 }, { k: 3, a: 30, s: null, n: 3 },
      { k: null, a: 40, s: 'x', n: 1 }, { k: 1, a: 50, s: 'z', n: null }, { k: 9, a: null, s: 'y', n: 4 },
    ],
  },
  {
    name: 'u',
    types: { k: 'INTEGER', v: 'INTEGER', s: 'VARCHAR', w: 'DOUBLE' },
    rows: [
      { k: 1, v: 5, s: 'x', w: 1.5 }, { k: 1, v: 7, s: 'z', w: 2.5 }, { k: 1, v: 3, s: 'x', w: null },
      { k: 2, v: 8, s: 'y', w: 0.5 }, { k: 3, v: 1, s: null, w: 4 }, { k: null, v: 6, s: 'x', w: 3 },
      { k: 3, v: 9, s: 'q', w: -1 }, { k: 4, v: 2, s: 'y', w: 7 },
    ],
  },
  {
    name: 'p',
    types: { id: 'INTEGER', tk: 'INTEGER', lim: 'INTEGER' },
    rows: [{ id: 1, tk: 1, lim: 1 }, { id: 2, tk: 3, lim: 2 }, { id: 3, tk: 2, lim: 5 }, { id: 4, tk: null, lim: 1 }],
  },
];

let duck: Duck;
let env1: TableEnvironment;
let env2: TableEnvironment;

beforeAll(async () => {
  duck = await openDuck();
  env1 = TableEnvironment.create({ parallelism: 1 });
  env2 = TableEnvironment.create({ parallelism: 2 });
  for (const t of TABLES) {
    await loadRows(duck, t.name, t.types, t.rows);
    env1.registerTable(t.name, env1.fromRecords(t.rows, t.types));
    env2.registerTable(t.name, env2.fromRecords(t.rows, t.types));
  }
});

afterAll(async () => {
  await env1?.close();
  await env2?.close();
  duck?.close();
});

/** Queries whose rows eddy must return as DuckDB does (a top-level ORDER BY makes the order count). */
const SAME: readonly string[] = [
  // top-N per row
  'SELECT t.k, t.a, x.v FROM t, LATERAL (SELECT v FROM u WHERE u.k = t.k ORDER BY v DESC LIMIT 2) x ORDER BY t.a, x.v',
  'SELECT t.a, x.v FROM t CROSS JOIN LATERAL (SELECT v FROM u WHERE u.k = t.k ORDER BY v LIMIT 1 OFFSET 1) x ORDER BY t.a, x.v',
  'SELECT t.a, x.v FROM t LEFT JOIN LATERAL (SELECT v FROM u WHERE u.k = t.k ORDER BY v DESC LIMIT 2) x ON true ORDER BY t.a, x.v NULLS FIRST',
  'SELECT t.a, x.v, x.w FROM t JOIN LATERAL (SELECT v, w FROM u WHERE u.k = t.k ORDER BY w DESC NULLS LAST LIMIT 2) x ON x.v > 4 ORDER BY t.a, x.v',
  // per-row limits that read the outer row are not constants: top-N with a constant, the rest filtered
  'SELECT p.id, x.v FROM p, LATERAL (SELECT v FROM u WHERE u.k = p.tk ORDER BY v LIMIT 3) x WHERE x.v > p.lim ORDER BY p.id, x.v',
  // aggregates per row: one row per left row, count() 0 when the right side is empty
  'SELECT t.a, x.c, x.m FROM t, LATERAL (SELECT count(*) AS c, max(v) AS m FROM u WHERE u.k = t.k) x ORDER BY t.a NULLS FIRST',
  'SELECT t.a, x.c, x.sw FROM t LEFT JOIN LATERAL (SELECT count(w) AS c, sum(w) AS sw FROM u WHERE u.k = t.k AND u.v > t.n) x ON true ORDER BY t.a NULLS FIRST',
  'SELECT t.a, x.c FROM t, LATERAL (SELECT count(*) AS c FROM u WHERE u.v < t.a / 5) x ORDER BY t.a NULLS FIRST',
  'SELECT t.a, x.s, x.c FROM t, LATERAL (SELECT s, count(*) AS c FROM u WHERE u.k = t.k GROUP BY s) x ORDER BY t.a, x.s NULLS FIRST',
  // empty right sides: inner drops the row, left keeps it with NULLs
  'SELECT t.a, x.v FROM t, LATERAL (SELECT v FROM u WHERE u.k = t.k AND u.v > 100) x',
  'SELECT t.a, x.v, x.one FROM t LEFT JOIN LATERAL (SELECT v, 1 AS one FROM u WHERE u.k = t.k AND u.v > 6) x ON true ORDER BY t.a NULLS FIRST, x.v',
  'SELECT t.a, x.v FROM t LEFT JOIN LATERAL (SELECT v FROM u WHERE u.k = t.k) x ON x.v > t.n ORDER BY t.a NULLS FIRST, x.v',
  // NULL correlated values read as NULL (never equal in u.k = t.k, but a value of their own elsewhere)
  'SELECT t.a, x.b FROM t, LATERAL (SELECT t.k IS NULL AS b) x ORDER BY t.a NULLS FIRST',
  'SELECT t.a, x.v FROM t, LATERAL (SELECT v FROM u WHERE u.k IS NOT DISTINCT FROM t.k) x ORDER BY t.a NULLS FIRST, x.v',
  'SELECT t.a, x.c FROM t, LATERAL (SELECT count(*) AS c FROM u WHERE coalesce(u.k, 0) = coalesce(t.k, 0)) x ORDER BY t.a NULLS FIRST',
  // several correlated columns
  'SELECT t.a, x.v FROM t, LATERAL (SELECT v FROM u WHERE u.k = t.k AND u.s = t.s) x ORDER BY t.a, x.v',
  'SELECT t.a, x.v FROM t, LATERAL (SELECT v FROM u WHERE u.k = t.k AND u.v > t.n ORDER BY v LIMIT 1) x ORDER BY t.a, x.v',
  'SELECT t.a, x.v FROM t LEFT JOIN LATERAL (SELECT v FROM u WHERE u.k = t.k OR u.s = t.s ORDER BY v DESC LIMIT 2) x ON true ORDER BY t.a NULLS FIRST, x.v',
  // no FROM inside
  'SELECT t.a, x.b, x.c FROM t, LATERAL (SELECT t.a * 2 AS b, t.k + t.n AS c) x ORDER BY t.a NULLS FIRST',
  'SELECT t.a, x.b FROM t LEFT JOIN LATERAL (SELECT t.a * 2 AS b) x ON x.b > 50 ORDER BY t.a NULLS FIRST',
  'SELECT t.a, x.b FROM t, LATERAL (SELECT t.a + 1 AS b UNION ALL SELECT t.a + 2) x ORDER BY t.a, x.b',
  // expressions of the outer row in the lateral's select list, over a table
  'SELECT t.a, x.d FROM t, LATERAL (SELECT u.v - t.n AS d FROM u WHERE u.k = t.k) x ORDER BY t.a, x.d',
  'SELECT t.a, x.d, x.one FROM t LEFT JOIN LATERAL (SELECT u.v - t.n AS d, 1 AS one FROM u WHERE u.k = t.k AND u.v > 4) x ON true ORDER BY t.a NULLS FIRST, x.d',
  // laterals reading two earlier FROM items
  'SELECT t.a, p.id, x.v FROM t, p, LATERAL (SELECT v FROM u WHERE u.k = t.k AND u.v > p.lim) x WHERE p.tk = t.k ORDER BY t.a, p.id, x.v',
  'SELECT t.a, x.v, y.c FROM t, LATERAL (SELECT v FROM u WHERE u.k = t.k ORDER BY v LIMIT 2) x, LATERAL (SELECT count(*) AS c FROM u WHERE u.v < x.v AND u.k <> t.k) y ORDER BY t.a, x.v',
  // nested laterals (each reads the items before it)
  'SELECT t.a, x.v, x.w2 FROM t, LATERAL (SELECT u.v, y.w2 FROM u, LATERAL (SELECT u.w * 2 AS w2) y WHERE u.k = t.k) x ORDER BY t.a, x.v',
  'SELECT t.a, x.v, x.c FROM t, LATERAL (SELECT u.v, y.c FROM u, LATERAL (SELECT count(*) AS c FROM p WHERE p.lim < u.v) y WHERE u.k = t.k ORDER BY u.v LIMIT 2) x ORDER BY t.a, x.v',
  // set operations, DISTINCT and joins inside
  'SELECT t.a, x.s FROM t, LATERAL (SELECT DISTINCT s FROM u WHERE u.k = t.k) x ORDER BY t.a, x.s NULLS FIRST',
  'SELECT t.a, x.v FROM t, LATERAL (SELECT v FROM u WHERE u.k = t.k UNION SELECT lim FROM p WHERE p.tk = t.k) x ORDER BY t.a, x.v',
  'SELECT t.a, x.v, x.id FROM t, LATERAL (SELECT u.v, p.id FROM u JOIN p ON p.tk = u.k WHERE u.v > t.n) x ORDER BY t.a, x.v, x.id',
  // lateral in a CTE, in a derived table, with a scalar subquery of its own
  'WITH c AS (SELECT t.a, x.v FROM t, LATERAL (SELECT v FROM u WHERE u.k = t.k ORDER BY v LIMIT 1) x) SELECT a, v FROM c ORDER BY a',
  'SELECT * FROM (SELECT t.k, x.m FROM t, LATERAL (SELECT max(v) AS m FROM u WHERE u.k = t.k) x) d WHERE d.m > 4 ORDER BY d.k',
  'SELECT t.a, x.v FROM t, LATERAL (SELECT v FROM u WHERE u.k = t.k AND u.v > (SELECT min(lim) FROM p)) x ORDER BY t.a, x.v',
  'SELECT t.a FROM t WHERE EXISTS (SELECT 1 FROM u, LATERAL (SELECT p.id FROM p WHERE p.tk = u.k) x WHERE x.id > 1) ORDER BY t.a NULLS FIRST',
  // HAVING, windows and EXISTS inside the lateral subquery
  'SELECT t.a, x.s, x.c FROM t, LATERAL (SELECT s, count(*) AS c FROM u GROUP BY s HAVING count(*) > t.n - 2) x ORDER BY t.a, x.s NULLS FIRST',
  'SELECT t.a, x.v, x.rn FROM t, LATERAL (SELECT v, row_number() OVER (ORDER BY v DESC) AS rn FROM u WHERE u.k = t.k) x ORDER BY t.a, x.v',
  'SELECT t.a, x.v FROM t, LATERAL (SELECT v FROM u WHERE u.k = t.k AND EXISTS (SELECT 1 FROM p WHERE p.tk = u.k AND p.lim < u.v)) x ORDER BY t.a, x.v',
  // a lateral inside a scalar subquery, and a scalar subquery over a lateral's columns outside it
  'SELECT t.a, (SELECT max(x.v) FROM u, LATERAL (SELECT v FROM p WHERE p.tk = u.k) y, LATERAL (SELECT u.v + y.v AS v) x) AS m FROM t ORDER BY t.a NULLS FIRST',
  'SELECT t.a, x.v, (SELECT count(*) FROM p WHERE p.lim < x.v) AS c FROM t, LATERAL (SELECT v FROM u WHERE u.k = t.k) x ORDER BY t.a, x.v',
  // aggregates over the lateral's rows
  'SELECT t.k, sum(x.v) AS s FROM t, LATERAL (SELECT v FROM u WHERE u.k = t.k ORDER BY v DESC LIMIT 2) x GROUP BY t.k ORDER BY t.k',
  // table functions with correlated arguments (no rows for a NULL argument; LEFT keeps the row)
  'SELECT t.a, r.range FROM t, LATERAL range(t.n) r ORDER BY t.a NULLS FIRST, r.range',
  'SELECT t.a, g FROM t, LATERAL generate_series(1, t.n) s(g) ORDER BY t.a NULLS FIRST, g',
  'SELECT t.a, g FROM t LEFT JOIN LATERAL generate_series(1, t.n) s(g) ON true ORDER BY t.a NULLS FIRST, g',
  'SELECT t.a, g FROM t JOIN LATERAL generate_series(t.n, 0, -1) s(g) ON g < t.n ORDER BY t.a NULLS FIRST, g',
  'SELECT t.a, r.range FROM t, LATERAL range(t.k, t.k + t.n * 3, 2) r ORDER BY t.a NULLS FIRST, r.range',
  'SELECT t.a, x.g FROM t, LATERAL (SELECT g * 10 AS g FROM generate_series(1, t.n) s(g) WHERE g > 1) x ORDER BY t.a, x.g',
  'SELECT t.a, x.c FROM t, LATERAL (SELECT count(*) AS c FROM range(t.n) r JOIN u ON u.v = r.range) x ORDER BY t.a NULLS FIRST',
  'SELECT p.id, r.range, x.v FROM p, LATERAL range(p.lim) r, LATERAL (SELECT v FROM u WHERE u.k = p.tk AND u.v > r.range * 3 ORDER BY v LIMIT 1) x ORDER BY p.id, r.range',
  // uncorrelated LATERAL and implicit lateral (DuckDB binds a FROM subquery naming an earlier item laterally)
  'SELECT t.a, x.c FROM t, LATERAL (SELECT count(*) AS c FROM u) x ORDER BY t.a NULLS FIRST',
  'SELECT t.a, x.v FROM t, (SELECT v FROM u WHERE u.k = t.k ORDER BY v LIMIT 1) x ORDER BY t.a',
  'SELECT t.a, x.v FROM t JOIN (SELECT v, k FROM u WHERE u.v > t.n) x ON x.k = t.k ORDER BY t.a, x.v',
];

describe('LATERAL as DuckDB', () => {
  for (const q of SAME) {
    it(q, async () => {
      const want = await duck.query(q);
      const ordered = /ORDER BY [^)]*$/i.test(q);
      expectSameResult(fromArrow(await env1.sql(q).collect()), want, { ordered });
      expectSameResult(fromArrow(await env2.sql(q).collect()), want, { ordered });
    });
  }
});

describe('LATERAL at parallelism 2 over tables large enough to ship', () => {
  const big = Array.from({ length: 210_000 }, (_, i) => ({ k: i % 997 === 5 ? null : i % 997, t: (i * 7919) % 210_000 }));
  const types = { k: 'INTEGER', t: 'INTEGER' } as const;

  it('top-2 per key', async () => {
    const q = 'SELECT b.k, x.t FROM (SELECT DISTINCT k FROM big) b, LATERAL (SELECT t FROM big WHERE big.k = b.k ORDER BY t DESC LIMIT 2) x ORDER BY b.k, x.t';
    const a = await expectSameAtP1AndP2('big', types, big, q);
    expect(a.rows.length).toBe(996 * 2);
    const first = a.rows.filter((r) => r[0] === 0).map((r) => r[1]);
    const want = big.filter((r) => r.k === 0).map((r) => r.t).sort((x, y) => y - x).slice(0, 2).sort((x, y) => x - y);
    expect(first).toEqual(want);
  });

  it('a count per row with LEFT JOIN LATERAL (0 for the NULL key)', async () => {
    const q = 'SELECT b.k, x.c FROM (SELECT DISTINCT k FROM big) b LEFT JOIN LATERAL (SELECT count(*) AS c FROM big WHERE big.k = b.k AND big.t > 1000) x ON true ORDER BY b.k NULLS FIRST';
    const a = await expectSameAtP1AndP2('big', types, big, q);
    expect(a.rows.length).toBe(997);
    expect(a.rows[0]).toEqual([null, 0]);
  });
});

describe('LATERAL range() at parallelism 2', () => {
  it('a series per row of a shipped table', async () => {
    const rows = Array.from({ length: 210_000 }, (_, i) => ({ id: i, n: i % 4 }));
    const q = 'SELECT sum(r.range) AS s, count(*) AS c FROM big, LATERAL range(big.n) r WHERE big.id % 3 = 0';
    const a = await expectSameAtP1AndP2('big', { id: 'INTEGER', n: 'INTEGER' }, rows, q);
    const want = rows.filter((r) => r.id % 3 === 0).reduce((acc, r) => ({ s: acc.s + (r.n * (r.n - 1)) / 2, c: acc.c + r.n }), { s: 0, c: 0 });
    expect(a.rows).toEqual([[want.s, want.c]]);
  });
});

describe('LATERAL with every subtree cached', () => {
  it('the domain of outer values does not run the left side\'s CacheSink a second time (its entry would hold every row twice)', async () => {
    const env = TableEnvironment.create({ cache: { cacheAllSubtrees: true } });
    try {
      for (const t of TABLES) env.registerTable(t.name, env.fromRecords(t.rows, t.types));
      const count = async (q: string): Promise<number> => (await env.sql(q).collect()).numRows;
      // A correlated scalar subquery decorrelated over the domain, then a LATERAL top-N: both cache their left side.
      expect(await count('SELECT t.a, (SELECT v FROM u WHERE u.k = t.k ORDER BY v LIMIT 1) AS v FROM t')).toBe(6);
      expect(await count('SELECT t.a, x.v FROM t, LATERAL (SELECT v FROM u WHERE u.k = t.k ORDER BY v DESC LIMIT 2) x')).toBe(7);
      const rows = fromArrow(await env.sql('SELECT count(*) AS n FROM t').collect()).rows;
      expect(rows).toEqual([[6]]);
      expect(await count('SELECT t.a, x.c FROM t, LATERAL (SELECT count(*) AS c FROM u WHERE u.k = t.k) x')).toBe(6);
    } finally {
      await env.close();
    }
  });
});

describe('LATERAL errors', () => {
  const fails = (q: string, msg: RegExp): void => {
    it(q, () => { expect(() => env1.sql(q)).toThrow(msg); });
  };
  fails('SELECT * FROM t RIGHT JOIN LATERAL (SELECT v FROM u WHERE u.k = t.k) x ON true', /RIGHT JOIN LATERAL is not supported: the lateral side reads the left side, so the join must be INNER, LEFT or CROSS/);
  fails('SELECT * FROM t FULL JOIN LATERAL (SELECT v FROM u WHERE u.k = t.k) x ON true', /FULL JOIN LATERAL is not supported/);
  it('a step of 0 fails the query', async () => {
    await expect(env1.sql('SELECT * FROM t, LATERAL range(0, t.n, t.n - t.n) r').collect()).rejects.toThrow(/the step must not be 0/);
  });
  fails('SELECT * FROM t, LATERAL range(t.s) r', /range\(\) takes integer arguments, got VARCHAR/);
  fails('SELECT * FROM t, LATERAL u', /LATERAL must be followed by a subquery or a table function/);
  fails('SELECT * FROM t JOIN LATERAL (SELECT k FROM u WHERE u.v > t.n) x USING (k)', /USING is not supported with a LATERAL item that reads the left side; write ON/);
  fails('SELECT * FROM t, LATERAL (SELECT v FROM u WHERE u.k = t.nope) x', /column "t.nope" not found/);
  fails('SELECT * FROM (SELECT v FROM u WHERE u.k = t.k) x, t', /column "t.k" not found: no table or alias "t"/);
  // One level of correlation: a subquery inside the lateral subquery cannot read the lateral's left side.
  fails('SELECT * FROM t, LATERAL (SELECT v FROM u WHERE u.v > (SELECT min(lim) FROM p WHERE p.tk = t.k)) x', /refers to a query two or more levels out/);
});

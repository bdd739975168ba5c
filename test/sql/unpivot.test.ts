/**
 * UNPIVOT (src/sql/binder/unpivot.ts) against DuckDB: the simplified statement and the standard form, column
 * order and names, default NAME / VALUE names, AS names, NULLs dropped or kept (INCLUDE NULLS), the common type
 * of mixed numeric columns, several value columns, UNPIVOT inside queries, generated data, parallelism 2; the
 * plan reads its source once; errors for mixed types and entries of the wrong width.
 */
import { describe, expect, it } from 'vitest';
import { expectSameResult, fromArrow, type ResultSet } from '../helpers/compare.js';
import { expectSameAtP1AndP2, oracleTable } from '../helpers/oracle-table.js';
import type { TableEnvironment } from '../../src/index.js';

const SALES = [
  { empid: 1, dept: 'electronics', jan: 1, feb: 2, mar: 3.5 },
  { empid: 2, dept: 'clothes', jan: null, feb: 20, mar: 30 },
  { empid: 3, dept: 'cars', jan: 100, feb: null, mar: null },
  { empid: 4, dept: null, jan: null, feb: null, mar: null },
];
const { duck, env } = oracleTable('ms', { empid: 'INTEGER', dept: 'VARCHAR', jan: 'INTEGER', feb: 'INTEGER', mar: 'DOUBLE' }, SALES);

async function run(e: TableEnvironment, q: string): Promise<ResultSet> {
  const r = await e.executeSql(q);
  if (r.kind !== 'rows') throw new Error(`expected rows from ${q}`);
  return fromArrow(r.table);
}

const SAME = [
  'UNPIVOT ms ON jan, feb INTO NAME month VALUE sales',
  'UNPIVOT ms ON jan, feb, mar INTO NAME month VALUE sales',
  'UNPIVOT ms ON jan, feb',
  'UNPIVOT ms ON mar, jan',
  'UNPIVOT ms ON jan AS j, feb AS f INTO NAME month VALUE sales',
  'UNPIVOT ms ON (jan, feb) AS q1, (mar, mar) AS q2 INTO NAME quarter VALUE a, b',
  'UNPIVOT ms ON (jan, feb), (mar, mar) INTO NAME quarter VALUE a, b',
  'UNPIVOT (SELECT empid, jan, feb FROM ms WHERE empid < 3) ON jan, feb',
  'SELECT * FROM ms UNPIVOT (sales FOR month IN (jan, feb))',
  'SELECT * FROM ms UNPIVOT EXCLUDE NULLS (sales FOR month IN (jan, feb, mar))',
  'SELECT * FROM ms UNPIVOT INCLUDE NULLS (sales FOR month IN (jan, feb)) AS u',
  "SELECT * FROM ms UNPIVOT (sales FOR month IN (jan AS 'J', feb AS 'F'))",
  'SELECT u.empid, u.month FROM ms UNPIVOT (sales FOR month IN (jan, feb)) u',
  'SELECT * FROM ms UNPIVOT ((a, b) FOR q IN ((jan, feb) AS q1, (mar, mar) AS q2))',
  'SELECT month, sum(sales) AS total, count(*) AS n FROM ms UNPIVOT (sales FOR month IN (jan, feb, mar)) GROUP BY month',
  'WITH u AS (UNPIVOT ms ON jan, feb INTO NAME month VALUE sales) SELECT dept, max(sales) AS m FROM u GROUP BY dept',
  'SELECT * FROM (UNPIVOT ms ON jan, feb) AS x JOIN ms USING (empid)',
];

describe('UNPIVOT as DuckDB', () => {
  for (const q of SAME) {
    it(q, async () => {
      expectSameResult(await run(env(), q), await duck().query(q));
    });
  }

  it('ORDER BY and LIMIT after the statement', async () => {
    const q = 'UNPIVOT ms ON jan, feb INTO NAME month VALUE sales ORDER BY sales DESC LIMIT 2';
    expectSameResult(await run(env(), q), await duck().query(q), { ordered: true });
  });

  it('works in the lazy env.sql() and in a view', async () => {
    const q = 'UNPIVOT ms ON jan, feb INTO NAME month VALUE sales';
    expectSameResult(fromArrow(await env().sql(q).collect()), await duck().query(q));
    await env().executeSql(`CREATE OR REPLACE VIEW uv AS ${q}`);
    expectSameResult(await run(env(), 'SELECT * FROM uv'), await duck().query(q));
  });

  it('plans a UNION ALL of one filtered projection per entry (INCLUDE NULLS: no filter)', async () => {
    const logical = (await env().sql('UNPIVOT ms ON jan, feb, mar').explain()).split('== Optimized Plan ==')[0]!;
    expect(logical.match(/Scan\(/g)?.length).toBe(3);
    expect(logical).toMatch(/Union\(all=\[true\]\)/);
    expect(logical).toMatch(/Project\(exprs=\[empid, dept, 'feb', CAST\(feb AS DOUBLE\)\]/);
    expect(logical).toMatch(/Filter\(condition=\[\(mar IS NOT NULL\)\]\)/);
    const kept = (await env().sql('SELECT * FROM ms UNPIVOT INCLUDE NULLS (v FOR n IN (jan, feb))').explain()).split('== Optimized Plan ==')[0]!;
    expect(kept).not.toMatch(/Filter/);
  });
});

describe('UNPIVOT over generated data', () => {
  const ROWS = Array.from({ length: 2000 }, (_, i) => ({
    id: i,
    a: i % 7 === 0 ? null : (i * 31) % 100,
    b: i % 5 === 0 ? null : ((i * 7919) % 1000) / 4,
    c: i % 3 === 0 ? null : i % 11,
  }));
  const t = oracleTable('gen', { id: 'INTEGER', a: 'INTEGER', b: 'DOUBLE', c: 'BIGINT' }, ROWS);
  const QUERIES = [
    'UNPIVOT gen ON a, b, c',
    'UNPIVOT gen ON a, c INTO NAME k VALUE v',
    'SELECT * FROM gen UNPIVOT INCLUDE NULLS (v FOR k IN (a, b, c))',
    'SELECT k, count(*) AS n, sum(v) AS s FROM gen UNPIVOT (v FOR k IN (a, b, c)) GROUP BY k',
  ];
  for (const q of QUERIES) {
    it(q, async () => {
      expectSameResult(await run(t.env(), q), await t.duck().query(q), { tolerance: 1e-9 });
    });
  }

  it('the same at parallelism 2 over a table large enough to ship', async () => {
    const big = Array.from({ length: 210_000 }, (_, i) => ({ id: i, x: i % 3 === 0 ? null : i % 50, y: i % 7 }));
    const r = await expectSameAtP1AndP2('big', { id: 'INTEGER', x: 'INTEGER', y: 'INTEGER' }, big, 'SELECT n, count(*) AS c, sum(v) AS s FROM (UNPIVOT big ON x, y INTO NAME n VALUE v) GROUP BY n ORDER BY n');
    expect(r.rows.map((row) => row[0])).toEqual(['x', 'y']);
    expect(r.rows[0]![1]).toBe(140_000);
  });
});

describe('UNPIVOT errors', () => {
  it('columns of types that do not mix', async () => {
    await expect(env().executeSql('UNPIVOT ms ON jan, dept')).rejects.toThrow(/cannot UNPIVOT columns of types INTEGER, VARCHAR into one value column "value": cast them to one type first/);
  });

  it('an entry with the wrong number of columns', async () => {
    await expect(env().executeSql('UNPIVOT ms ON (jan, feb), mar INTO NAME q VALUE a, b')).rejects.toThrow(/this UNPIVOT entry has 1 column, but there are 2 value columns \(a, b\)/);
  });

  it('an expression without a name', async () => {
    await expect(env().executeSql('UNPIVOT ms ON jan + 1, feb')).rejects.toThrow(/an UNPIVOT entry that is not a column needs a name/);
    const r = await run(env(), 'UNPIVOT ms ON jan + 1 AS j1, feb ORDER BY empid, name');
    expect(r.rows.slice(0, 2)).toEqual([[1, 'electronics', 3.5, 'feb', 2], [1, 'electronics', 3.5, 'j1', 2]]);
  });

  it('INTO spells NAME and VALUE', async () => {
    await expect(env().executeSql('UNPIVOT ms ON jan INTO NAMES m VALUE v')).rejects.toThrow(/unexpected "NAMES"; expected NAME/);
  });

  it('UNPIVOT takes INCLUDE or EXCLUDE NULLS', async () => {
    await expect(env().executeSql('SELECT * FROM ms UNPIVOT KEEP NULLS (v FOR n IN (jan))')).rejects.toThrow(/unexpected "KEEP"/);
  });
});

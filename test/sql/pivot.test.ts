/**
 * PIVOT (src/sql/binder/pivot.ts) against DuckDB: values, column names and their order for the simplified
 * statement and the standard form, IN lists with names, several ON items and aggregates, the implicit GROUP BY,
 * the values found by a query (env.executeSql), PIVOT inside queries, generated data, parallelism 2; and the
 * errors: env.sql() and views without an IN list, non-aggregates in USING, too many columns.
 */
import { describe, expect, it } from 'vitest';
import { expectSameResult, fromArrow, type ResultSet } from '../helpers/compare.js';
import { expectSameAtP1AndP2, oracleTable } from '../helpers/oracle-table.js';
import { TableEnvironment } from '../../src/index.js';

const CITIES = [
  ['NL', 'Amsterdam', 2000, 1005], ['NL', 'Amsterdam', 2010, 1065], ['NL', 'Amsterdam', 2020, 1158],
  ['US', 'Seattle', 2000, 564], ['US', 'Seattle', 2010, 608], ['US', 'Seattle', 2020, 738],
  ['US', 'New York City', 2000, 8015], ['US', 'New York City', 2010, 8175], ['US', 'New York City', 2020, 8772],
  [null, 'X', null, 5], ['DE', 'Berlin', 2010, null],
].map(([country, name, year, population]) => ({ country, name, year, population }));
const { duck, env } = oracleTable('cities', { country: 'VARCHAR', name: 'VARCHAR', year: 'INTEGER', population: 'INTEGER' }, CITIES);

/** The last statement's rows through env.executeSql (which finds PIVOT values). */
async function run(e: TableEnvironment, q: string): Promise<ResultSet> {
  const r = await e.executeSql(q);
  if (r.kind !== 'rows') throw new Error(`expected rows from ${q}`);
  return fromArrow(r.table);
}

const SAME = [
  'PIVOT cities ON year USING sum(population)',
  'PIVOT cities ON year USING sum(population) GROUP BY country',
  'PIVOT cities ON year IN (2000, 2010) USING sum(population) GROUP BY country',
  'PIVOT cities ON year IN (2000 AS y2000, 2010 AS "y 2010") USING sum(population) GROUP BY country',
  'PIVOT cities ON year USING sum(population) AS total, max(population) AS mx GROUP BY country',
  'PIVOT cities ON year USING sum(population), max(population) GROUP BY country',
  'PIVOT cities ON year USING sum(population) AS total GROUP BY country',
  'PIVOT cities ON year USING sum(population) total GROUP BY country',
  'PIVOT cities ON year',
  'PIVOT cities ON year GROUP BY country',
  'PIVOT cities ON country, year USING sum(population)',
  "PIVOT cities ON country IN ('NL', 'FR'), year IN (2000, 2020) USING sum(population)",
  'PIVOT cities USING sum(population) GROUP BY country',
  'PIVOT cities ON year + 1 USING sum(population) GROUP BY country',
  "PIVOT cities ON name IN ('Seattle', NULL) USING count(*) GROUP BY country",
  'PIVOT cities ON year IN (2010, NULL) USING count(*), sum(population) GROUP BY country',
  'PIVOT cities ON year USING count(*) + 1 GROUP BY country',
  'PIVOT cities ON year USING sum(population) / 2 GROUP BY country',
  'PIVOT cities ON year USING count(DISTINCT name) GROUP BY country',
  "PIVOT cities ON year USING string_agg(name, ',' ORDER BY name) GROUP BY country",
  'PIVOT cities ON year USING first(population) GROUP BY name',
  'PIVOT cities ON year USING bool_or(population > 1000) AS big, avg(population) AS a GROUP BY country',
  'PIVOT cities ON year USING coalesce(sum(population), -1) GROUP BY country',
  'PIVOT (SELECT * FROM cities WHERE year > 2000) ON year USING sum(population) GROUP BY country',
  'PIVOT (SELECT * FROM cities WHERE year > 3000) ON year USING sum(population) GROUP BY country',
  'PIVOT cities ON country USING avg(population) GROUP BY year',
  'SELECT * FROM cities PIVOT (sum(population) FOR year IN (2000, 2010) GROUP BY country)',
  'SELECT * FROM cities PIVOT (sum(population) FOR year IN (2000, 2010))',
  'SELECT * FROM cities PIVOT (sum(population) AS s, count(*) AS n FOR year IN (2000, 2010) GROUP BY country) AS p',
  "SELECT * FROM cities PIVOT (sum(population) FOR year IN (2000, 2010) country IN ('NL', 'US') GROUP BY name)",
  "PIVOT cities ON year IN ('2000', 2010) USING sum(population) GROUP BY country",
  "SELECT p.country, p.\"2000\" FROM cities PIVOT (sum(population) FOR year IN (2000, 2010) GROUP BY country) p WHERE p.country <> 'US'",
  "SELECT * FROM (PIVOT cities ON year USING sum(population) GROUP BY country) p WHERE country = 'NL'",
  'WITH p AS (PIVOT cities ON year USING sum(population) GROUP BY country) SELECT * FROM p',
  'PIVOT cities ON year USING sum(population) GROUP BY country UNION ALL SELECT \'z\', 1, 2, 3',
  "PIVOT (SELECT 1.5::DOUBLE AS d, 3.0::DOUBLE AS e, DATE '2020-01-02' AS dt, true AS b) ON d, e, dt, b",
  'PIVOT (SELECT 0.1::DOUBLE + 0.2::DOUBLE AS d, 1e300::DOUBLE * 10 AS big, 1.0::DOUBLE / 3 AS third) ON d, big, third',
];

describe('PIVOT as DuckDB', () => {
  for (const q of SAME) {
    it(q, async () => {
      expectSameResult(await run(env(), q), await duck().query(q));
    });
  }

  it('several aggregates in one USING expression (DuckDB allows one): each cell as FILTER would give it', async () => {
    const cell = (y: number): string => `count(population) FILTER (WHERE year = ${y}) * 10 + count(*) FILTER (WHERE year = ${y}) AS "${y}"`;
    const expected = await duck().query(`SELECT country, ${[2000, 2010, 2020].map(cell).join(', ')} FROM cities GROUP BY country`);
    expectSameResult(await run(env(), 'PIVOT cities ON year USING count(population) * 10 + count(*) GROUP BY country'), expected);
  });

  it('ORDER BY and LIMIT after the statement', async () => {
    const q = 'PIVOT cities ON year USING sum(population) GROUP BY country ORDER BY country NULLS FIRST LIMIT 2';
    expectSameResult(await run(env(), q), await duck().query(q), { ordered: true });
  });

  it('an IN list works in the lazy env.sql() and in a view', async () => {
    const q = 'PIVOT cities ON year IN (2000, 2010) USING sum(population) GROUP BY country';
    expectSameResult(fromArrow(await env().sql(q).collect()), await duck().query(q));
    await env().executeSql(`CREATE OR REPLACE VIEW pv AS ${q}`);
    expectSameResult(await run(env(), 'SELECT * FROM pv'), await duck().query(q));
  });

  it('the values are found again for each statement (new data, new columns)', async () => {
    const e = env();
    await e.executeSql('CREATE OR REPLACE TABLE c2 AS SELECT * FROM cities');
    expect((await run(e, 'PIVOT c2 ON year USING sum(population) GROUP BY country')).names).toEqual(['country', '2000', '2010', '2020']);
    await e.executeSql("INSERT INTO c2 VALUES ('NL', 'Utrecht', 2030, 400)");
    expect((await run(e, 'PIVOT c2 ON year USING sum(population) GROUP BY country')).names).toEqual(['country', '2000', '2010', '2020', '2030']);
  });
});

describe('PIVOT over generated data', () => {
  const ROWS = Array.from({ length: 3000 }, (_, i) => ({
    g: i % 13 === 0 ? null : `g${(i * 7) % 11}`,
    k: i % 17 === 0 ? null : (i * 31) % 9,
    h: i % 2 === 0 ? 'a' : 'b',
    v: i % 19 === 0 ? null : ((i * 7919) % 1000) / 8,
  }));
  const t = oracleTable('gen', { g: 'VARCHAR', k: 'INTEGER', h: 'VARCHAR', v: 'DOUBLE' }, ROWS);
  const QUERIES = [
    'PIVOT gen ON k USING sum(v) GROUP BY g',
    'PIVOT gen ON k, h USING sum(v), count(*) GROUP BY g',
    'PIVOT gen ON g USING min(v) AS lo, max(v) AS hi',
    'PIVOT gen ON h USING avg(v) AS a, count(v) AS n GROUP BY k',
    'SELECT * FROM gen PIVOT (sum(v) FOR k IN (0, 1, 2, 99) GROUP BY h)',
  ];
  for (const q of QUERIES) {
    it(q, async () => {
      expectSameResult(await run(t.env(), q), await t.duck().query(q), { tolerance: 1e-9 });
    });
  }

  it('the same at parallelism 2 over a table large enough to ship', async () => {
    const big = Array.from({ length: 210_000 }, (_, i) => ({ k: i % 97, y: i % 4, v: (i * 7919) % 1000 }));
    const r = await expectSameAtP1AndP2('big', { k: 'INTEGER', y: 'INTEGER', v: 'INTEGER' }, big, 'PIVOT big ON y IN (0, 1, 2, 3) USING sum(v) GROUP BY k ORDER BY k');
    expect(r.names).toEqual(['k', '0', '1', '2', '3']);
    expect(r.rows.length).toBe(97);
  });

  it('values found by a query at parallelism 2 give what they give at 1', async () => {
    const big = Array.from({ length: 210_000 }, (_, i) => ({ k: i % 5, y: `y${i % 7}`, v: (i * 7919) % 1000 }));
    const types = { k: 'INTEGER', y: 'VARCHAR', v: 'INTEGER' } as const;
    const q = 'PIVOT big ON y USING sum(v) AS s, count(*) AS n GROUP BY k ORDER BY k';
    const results: ResultSet[] = [];
    for (const parallelism of [1, 2]) {
      const e = TableEnvironment.create({ parallelism });
      try {
        e.registerTable('big', e.fromRecords(big, types));
        results.push(await run(e, q));
      } finally {
        await e.close();
      }
    }
    expect(results[1]!.names).toEqual(['k', ...Array.from({ length: 7 }, (_, i) => [`y${i}_s`, `y${i}_n`]).flat()]);
    expectSameResult(results[1]!, results[0]!, { ordered: true });
  });
});

describe('PIVOT beyond DuckDB', () => {
  it('group columns with one name from a join stay apart (DuckDB calls them ambiguous)', async () => {
    const e = env();
    await e.executeSql("CREATE OR REPLACE TABLE ja AS SELECT * FROM (VALUES (1, 'x', 10), (2, 'y', 20), (2, 'x', 5)) v(id, k, v)");
    await e.executeSql("CREATE OR REPLACE TABLE jb AS SELECT * FROM (VALUES (1, 'p'), (2, 'q')) v(id, w)");
    const r = await run(e, 'PIVOT (ja JOIN jb ON ja.id = jb.id) ON k USING sum(v) ORDER BY id');
    expect(r.names).toEqual(['id', 'id_1', 'w', 'x', 'y']);
    expect(r.rows).toEqual([[1, 1, 'p', 10, null], [2, 2, 'q', 5, 20]]);
  });
});

describe('PIVOT errors', () => {
  it('env.sql() cannot find the values: it asks for an IN list', () => {
    expect(() => env().sql('PIVOT cities ON year USING sum(population)')).toThrow(/PIVOT ON year without IN \(\.\.\.\) reads its distinct values first.*env\.executeSql\(\).*ON year IN \(\.\.\.\)/s);
  });

  it('a view without an IN list is refused, as in DuckDB', async () => {
    await expect(env().executeSql('CREATE VIEW pv2 AS PIVOT cities ON year USING sum(population)')).rejects.toThrow(/without IN \(\.\.\.\)/);
    expect(env().hasTable('pv2')).toBe(false);
  });

  it('USING takes aggregates', async () => {
    await expect(env().executeSql('PIVOT cities ON year IN (2000) USING population')).rejects.toThrow(/PIVOT \.\.\. USING takes aggregates .*not population/);
  });

  it('a value given twice is an error, as in DuckDB', async () => {
    await expect(env().executeSql('PIVOT cities ON year IN (2000, 2000) USING sum(population)')).rejects.toThrow(/the value "2000" is given twice in PIVOT \.\.\. IN \(\.\.\.\)/);
  });

  it('IN takes constants', async () => {
    await expect(env().executeSql('PIVOT cities ON year IN (2000 + 1) USING sum(population)')).rejects.toThrow(/IN \(\.\.\.\) takes constant values/);
  });

  it('a PIVOT needs ON, USING or GROUP BY', async () => {
    await expect(env().executeSql('PIVOT cities')).rejects.toThrow(/PIVOT needs at least one of ON, USING and GROUP BY/);
  });

  it('an unknown GROUP BY column is named', async () => {
    await expect(env().executeSql('PIVOT cities ON year GROUP BY contry')).rejects.toThrow(/column "contry" not found; did you mean "country"\?/);
  });

  it('more than 10000 columns is an error', async () => {
    await expect(env().executeSql('PIVOT range(10001) ON range')).rejects.toThrow(/PIVOT would make 10001 columns, more than 10000/);
  });
});

describe('PIVOT and UNPIVOT stay names', () => {
  it('a column and an alias named pivot still work', async () => {
    const r = await run(env(), 'SELECT pivot.country AS pivot FROM cities pivot WHERE pivot.year = 2000 ORDER BY 1');
    expect(r.names).toEqual(['pivot']);
    expect(r.rows).toEqual([['NL'], ['US'], ['US']]);
    const u = await run(env(), 'SELECT unpivot FROM (SELECT 1 AS unpivot) AS unpivot');
    expect(u.rows).toEqual([[1]]);
  });
});

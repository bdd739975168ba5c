/**
 * SQL text in Table methods is bound by the SQL binder (issue 7, bug 3 and
 * "one expression binder"): a corpus of expressions gives the same results
 * through `env.sql('SELECT <e> FROM t')` and through `select`, `filter`,
 * `addColumns` and `groupBy().select` — under both `integer_division`
 * settings, since session settings apply to both.
 */
import { describe, expect, it } from 'vitest';
import { TableEnvironment, type Table } from '../../src/index.js';

const ROWS = [
  { a: 7, b: 2, x: 1.5, s: 'apple', d: '1995-01-31', n: 3, g: 'p' },
  { a: -7, b: 3, x: -0.25, s: 'Banana', d: '1996-02-29', n: null, g: 'q' },
  { a: 0, b: 5, x: 2.75, s: ' cherry ', d: '1995-12-01', n: 0, g: 'p' },
  { a: 12, b: -4, x: 10, s: 'date', d: '1994-06-15', n: -2, g: 'r' },
  { a: 5, b: 1, x: 0, s: 'elder', d: '1995-06-01', n: null, g: 'q' },
];

/** Scalar expressions over t (each also used as `<e> AS r`). */
const SCALAR = [
  'a + b', 'a - b * 2', 'a * b', 'a / b', 'a % b', '-a', 'a / 2', '7 / 2', 'a / x', 'x / 2', 'a / b + 1', '(a + 1) / (b + 1)',
  'a = b', 'a <> b', 'a < b', 'a <= 7', 'a > b', 'x >= 1.5', 'NOT a > b', 'a > 0 AND b > 0', 'a > 0 OR n IS NULL',
  "CASE WHEN a > 5 THEN 'big' WHEN a > 0 THEN 'small' ELSE 'none' END", 'CASE g WHEN \'p\' THEN 1 ELSE 2 END', 'CASE WHEN n IS NULL THEN x END',
  'CAST(a AS DOUBLE) / b', 'CAST(x AS INTEGER)', "CAST(a AS VARCHAR) || 'x'", 'CAST(d AS VARCHAR)', 'CAST(-2.5 AS INTEGER)',
  'a BETWEEN 0 AND 7', 'a NOT BETWEEN b AND 10', 'a IN (0, 5, 7)', "g NOT IN ('p')", "s LIKE '%an%'", "s NOT LIKE '_a%'",
  'COALESCE(n, a)', 'COALESCE(n, -1) * 2', 'NULLIF(a, 0)', 'NULLIF(n, 3)', 'n IS NULL', 'n IS NOT NULL', 'n + 1', 'n / 2',
  'upper(s)', 'lower(s)', 'trim(s)', 'length(s)', 'substring(s, 2, 3)', "concat(s, '-', g)", 's || g', 'abs(a)', 'round(x, 1)', 'floor(x)', 'ceil(x)',
  "d + INTERVAL 1 MONTH", 'd - INTERVAL 3 DAY', 'd + INTERVAL 1 YEAR', 'year(d)', 'month(d)', 'extract(day FROM d)', "d < DATE '1995-06-01'", "d BETWEEN '1995-01-01' AND '1995-12-31'",
  'NULL', "'lit'", '1e-10 * a', '3000000000 + a',
];

/** Boolean expressions, also used as filters. */
const CONDITIONS = SCALAR.filter((e) => /[<>=]|BETWEEN|\bIN\b|LIKE|IS (NOT )?NULL|AND|OR|NOT /.test(e) && !/^CASE|\|\||concat|COALESCE|NULLIF|d [+-]/.test(e));

/** Aggregates in groupBy(g).select(...). */
const AGGREGATES = ['count(*)', 'count(n)', 'sum(a)', 'sum(a) / count(*)', 'avg(x)', 'min(s)', 'max(d)', 'sum(a / b)', 'count(DISTINCT b % 2)', 'max(a) - min(b)', "sum(CASE WHEN n IS NULL THEN 1 ELSE 0 END)"];

async function environment(integerDivision: boolean): Promise<{ env: TableEnvironment; t: Table }> {
  const env = TableEnvironment.create();
  env.registerTable('t', env.fromRecords(ROWS, { a: 'INTEGER', b: 'INTEGER', x: 'DOUBLE', s: 'VARCHAR', d: 'DATE', n: 'INTEGER', g: 'VARCHAR' }));
  await env.executeSql(`SET integer_division = ${integerDivision}`);
  return { env, t: env.from('t') };
}

const show = (rows: readonly Record<string, unknown>[]): string[] => rows.map((r) => JSON.stringify(r, (_, v) => (typeof v === 'bigint' ? `${v}n` : v)));

describe('SQL text in Table methods = env.sql', () => {
  it('bug 3: SET integer_division applies to t.select(\'a / b\') as to env.sql', async () => {
    const { env, t } = await environment(true);
    expect(await env.sql('SELECT a / b AS q FROM t').toArray()).toEqual(await t.select('a / b AS q').toArray());
    expect((await t.filter('a = 7').select('a / b AS q').toArray())[0]).toEqual({ q: 3 });
    expect((await t.filter('a = 7').addColumns('a / b AS q').select('q').toArray())[0]).toEqual({ q: 3 });
    await env.executeSql('SET integer_division = false');
    expect((await env.from('t').filter('a = 7').select('a / b AS q').toArray())[0]).toEqual({ q: 3.5 });
  });

  it('has a corpus of about 60 expressions', () => {
    expect(SCALAR.length).toBeGreaterThanOrEqual(60);
    expect(CONDITIONS.length).toBeGreaterThanOrEqual(15);
  });

  for (const integerDivision of [false, true]) {
    it(`select, addColumns and filter (integer_division = ${integerDivision})`, async () => {
      const { env, t } = await environment(integerDivision);
      for (const e of SCALAR) {
        const viaSql = show(await env.sql(`SELECT ${e} AS r FROM t`).toArray());
        expect(show(await t.select(`${e} AS r`).toArray()), `select: ${e}`).toEqual(viaSql);
        expect(show(await t.addColumns(`${e} AS r`).select('r').toArray()), `addColumns: ${e}`).toEqual(viaSql);
        // Unaliased, the output name is the one env.sql gives (DuckDB's); a bare word is a column name in Table methods.
        if (/^\w+$/.test(e)) continue;
        const named = await env.sql(`SELECT ${e} FROM t`).collect();
        expect((await t.select(e).collect()).schema.fields.map((f) => f.name), `name: ${e}`).toEqual(named.schema.fields.map((f) => f.name));
      }
      for (const c of CONDITIONS) {
        const viaSql = show(await env.sql(`SELECT a, s FROM t WHERE ${c}`).toArray());
        expect(show(await t.filter(c).select('a', 's').toArray()), `filter: ${c}`).toEqual(viaSql);
      }
    });

    it(`groupBy().select with aggregates (integer_division = ${integerDivision})`, async () => {
      const { env, t } = await environment(integerDivision);
      for (const a of AGGREGATES) {
        const viaSql = show(await env.sql(`SELECT g, ${a} AS r FROM t GROUP BY g`).toArray()).sort();
        expect(show(await t.groupBy('g').select(`g, ${a} AS r`).toArray()).sort(), `groupBy: ${a}`).toEqual(viaSql);
        expect(show(await t.groupBy('g').select('g', `${a} AS r`).toArray()).sort(), `groupBy items: ${a}`).toEqual(viaSql);
        const global = show(await env.sql(`SELECT ${a} AS r FROM t`).toArray());
        expect(show(await t.select(`${a} AS r`).toArray()), `global: ${a}`).toEqual(global);
      }
    });
  }
});

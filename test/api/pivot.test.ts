/**
 * `table.pivot` / `table.unpivot` (src/api/pivot.ts): the same rows and column names as the SQL statements they
 * stand for (checked against DuckDB in test/sql/pivot.test.ts and unpivot.test.ts), composition with other
 * Table methods, and the Table API's errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment, type Table } from '../../src/index.js';
import { expectSameResult, fromArrow, type ResultSet } from '../helpers/compare.js';

let env: TableEnvironment;
let sales: Table;

beforeAll(() => {
  env = TableEnvironment.create({ parallelism: 1 });
  sales = env.fromRecords([
    { region: 'NL', year: 2000, amount: 10, qty: 1 }, { region: 'NL', year: 2010, amount: 20, qty: null },
    { region: 'US', year: 2000, amount: 30, qty: 3 }, { region: 'US', year: 2000, amount: 5, qty: 4 },
    { region: null, year: null, amount: 7, qty: 7 },
  ], { region: 'VARCHAR', year: 'INTEGER', amount: 'DOUBLE', qty: 'INTEGER' });
  env.registerTable('sales', sales);
});
afterAll(async () => { await env.close(); });

async function sqlRows(q: string): Promise<ResultSet> {
  const r = await env.executeSql(q);
  if (r.kind !== 'rows') throw new Error('expected rows');
  return fromArrow(r.table);
}

describe('table.pivot', () => {
  it('equals PIVOT ... ON ... IN (...) USING ... GROUP BY ...', async () => {
    const t = sales.pivot({ on: 'year', values: [2000, 2010], using: 'sum(amount) AS total, count(*) AS n', groupBy: 'region' });
    expect(t.columns).toEqual(['region', '2000_total', '2000_n', '2010_total', '2010_n']);
    expectSameResult(fromArrow(await t.collect()), await sqlRows('PIVOT sales ON year IN (2000, 2010) USING sum(amount) AS total, count(*) AS n GROUP BY region'));
  });

  it('defaults: count(*), grouped by the columns it does not name; several on columns', async () => {
    const t = sales.pivot({ on: ['region', 'year'], values: [['NL', 'US'], [2000, null]] });
    expect(t.columns).toEqual(['amount', 'qty', 'NL_2000', 'NL_NULL', 'US_2000', 'US_NULL']);
    expectSameResult(fromArrow(await t.collect()), await sqlRows("PIVOT sales ON region IN ('NL', 'US'), year IN (2000, NULL)"));
  });

  it('composes with other methods', async () => {
    const rows = await sales.filter('amount > 6').pivot({ on: 'region', values: ['NL', 'US'], using: 'max(amount)', groupBy: [] }).toArray();
    expect(rows).toEqual([{ NL: 20, US: 30 }]);
  });

  it('errors name the problem', () => {
    expect(() => sales.pivot({ on: 'yr', values: [2000] })).toThrow(/column "yr" not found; did you mean "year"\?/);
    expect(() => sales.pivot({ on: ['region', 'year'], values: ['NL'] })).toThrow(/one list of values per `on` column \(2\)/);
    expect(() => sales.pivot({ on: 'year', values: [2000], using: 'amount' })).toThrow(/USING takes aggregates/);
  });
});

describe('table.unpivot', () => {
  it('equals UNPIVOT ... ON ... INTO NAME ... VALUE ...', async () => {
    const t = sales.unpivot({ on: ['amount', 'qty'], name: 'measure', value: 'v' });
    expect(t.columns).toEqual(['region', 'year', 'measure', 'v']);
    expectSameResult(fromArrow(await t.collect()), await sqlRows('UNPIVOT sales ON amount, qty INTO NAME measure VALUE v'));
  });

  it('INCLUDE NULLS, default names, groups of columns', async () => {
    expectSameResult(fromArrow(await sales.unpivot({ on: ['amount', 'qty'], includeNulls: true }).collect()), await sqlRows('SELECT * FROM sales UNPIVOT INCLUDE NULLS (value FOR name IN (amount, qty))'));
    const g = sales.unpivot({ on: [['amount', 'qty'], ['qty', 'amount']], value: ['a', 'b'] });
    expect(g.columns).toEqual(['region', 'year', 'name', 'a', 'b']);
    expect((await g.toArray()).length).toBe(8);
  });

  it('errors name the problem', () => {
    expect(() => sales.unpivot({ on: [] })).toThrow(/at least one `on` column/);
    expect(() => sales.unpivot({ on: ['amount', 'region'] })).toThrow(/cannot UNPIVOT columns of types DOUBLE, VARCHAR/);
  });
});

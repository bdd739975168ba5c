/**
 * The Table API's aggregate `filter(condition)` (SQL `FILTER (WHERE ...)`): same answers as the SQL form,
 * grouped and global, count(*) included, under over(), and refused for first/last and non-aggregates.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment, avg, col, corr, countStar, first, lit, quantileCont, stringAgg, sum, window } from '../../src/index.js';

const ROWS = [
  { g: 'a', x: 1, y: 1.5, ok: true }, { g: 'a', x: 2, y: null, ok: false }, { g: 'b', x: null, y: 2.5, ok: null },
  { g: 'b', x: 4, y: 4.5, ok: true }, { g: 'b', x: 5, y: -1, ok: true }, { g: 'c', x: 6, y: 0, ok: false },
];
let env: TableEnvironment;

beforeAll(() => {
  env = TableEnvironment.create({ parallelism: 1 });
  env.registerTable('t', env.fromRecords(ROWS, { g: 'VARCHAR', x: 'INTEGER', y: 'DOUBLE', ok: 'BOOLEAN' }));
});
afterAll(() => env.close());

const plain = (rows: Record<string, unknown>[]): unknown[] => rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v])));

describe('aggregate filter(condition) in the Table API', () => {
  it('grouped, as SQL FILTER', async () => {
    const api = await env.from('t').groupBy('g').select('g',
      countStar().filter('ok').as('n'), sum('x').filter(col('y').gt(0)).as('s'), avg('y').filter(col('x').ge(2)).as('a'),
      stringAgg('g', { separator: '|' }).filter('ok').as('gs'), quantileCont('y', 0.5).filter(col('x').lt(6)).as('q'), corr('x', 'y').filter('ok').as('c'),
    ).orderBy('g').toArray();
    const sql = await env.sql(`SELECT g, count(*) FILTER (WHERE ok) AS n, sum(x) FILTER (WHERE y > 0) AS s, avg(y) FILTER (WHERE x >= 2) AS a,
      string_agg(g, '|') FILTER (WHERE ok) AS gs, quantile_cont(y, 0.5) FILTER (WHERE x < 6) AS q, corr(x, y) FILTER (WHERE ok) AS c FROM t GROUP BY g ORDER BY g`).toArray();
    expect(plain(api)).toEqual(plain(sql));
    expect(plain(api)[1]).toMatchObject({ g: 'b', n: 2, s: 4 });
  });

  it('global, and under over()', async () => {
    const g = await env.from('t').select(countStar().filter(col('g').eq(lit('b'))).as('n')).toArray();
    expect(plain(g)).toEqual([{ n: 3 }]);
    const w = await env.from('t').select('x', sum('x').filter('ok').over(window().orderBy('x')).as('r')).orderBy('x').toArray();
    const s = await env.sql('SELECT x, sum(x) FILTER (WHERE ok) OVER (ORDER BY x) AS r FROM t ORDER BY x').toArray();
    expect(plain(w)).toEqual(plain(s));
  });

  it('refuses what it cannot mean', () => {
    expect(() => first('x').filter('ok')).toThrow(/not supported for first\(\), which keeps NULL values/);
    expect(() => col('x').filter('ok')).toThrow(/applies to an aggregate/);
  });
});

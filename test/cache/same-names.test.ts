/**
 * Issue 7, bug 1: a cached result must never answer a different query. Over a
 * join where both sides have `id`, `orderBy('a.id', 'b.id')` and
 * `orderBy('b.id', 'a.id')` are different queries; with the first cached, the
 * second must still return its own order (checked against DuckDB).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/environment.js';
import type { Table } from '../../src/api/table.js';
import { col } from '../../src/api/expr.js';
import { openDuck, type Duck } from '../helpers/duckdb.js';
import { fromArrow } from '../helpers/compare.js';

const P = [
  { id: 1, k: 1 }, { id: 2, k: 1 }, { id: 3, k: 2 }, { id: 4, k: 2 },
];
const Q = [
  { id: 20, k: 1 }, { id: 10, k: 1 }, { id: 40, k: 2 }, { id: 30, k: 2 },
];

describe('same-named columns never share a cache entry', () => {
  let env: TableEnvironment;
  let duck: Duck;
  beforeAll(async () => {
    env = TableEnvironment.create({ parallelism: 1 });
    env.registerTable('p', env.fromRecords(P, { id: 'INTEGER', k: 'INTEGER' }));
    env.registerTable('q', env.fromRecords(Q, { id: 'INTEGER', k: 'INTEGER' }));
    duck = await openDuck();
    await duck.run('CREATE TABLE p (id INTEGER, k INTEGER)');
    await duck.run(`INSERT INTO p VALUES ${P.map((r) => `(${r.id}, ${r.k})`).join(', ')}`);
    await duck.run('CREATE TABLE q (id INTEGER, k INTEGER)');
    await duck.run(`INSERT INTO q VALUES ${Q.map((r) => `(${r.id}, ${r.k})`).join(', ')}`);
  });
  afterAll(async () => { await env.close(); duck.close(); });

  const joined = (): Table => env.from('p').as('a').join(env.from('q').as('b'), col('a.k').eq(col('b.k')));
  const rows = async (t: Table): Promise<unknown[][]> => fromArrow(await t.collect()).rows;

  it('orderBy(a.id, b.id) cached does not answer orderBy(b.id, a.id)', async () => {
    const first = joined().orderBy('a.id', 'b.id').select('a.id', 'b.id').cache();
    const firstRows = await rows(first);
    expect(env.cacheManager.stats().entries).toBe(1);
    const second = joined().orderBy('b.id', 'a.id').select('a.id', 'b.id');
    const secondRows = await rows(second);
    const duckFirst = await duck.query('SELECT a.id, b.id FROM p a JOIN q b ON a.k = b.k ORDER BY a.id, b.id');
    const duckSecond = await duck.query('SELECT a.id, b.id FROM p a JOIN q b ON a.k = b.k ORDER BY b.id, a.id');
    expect(firstRows).toEqual(duckFirst.rows);
    expect(secondRows).toEqual(duckSecond.rows);
    expect(secondRows).not.toEqual(firstRows);
  });
});

/**
 * Issue 7, bug 1: a cached result must never answer a different query. Over a
 * join where both sides have `id`, `orderBy('a.id', 'b.id')` and
 * `orderBy('b.id', 'a.id')` are different queries; with the first cached, the
 * second must still return its own order (checked against DuckDB). A
 * lookup is confirmed by structural equality: a digest key alone never hits.
 * Output names are not part of the digest: a renamed query reads the entry
 * and gets its own names. (The grouping and SQL cases passed before the fix
 * too — their plans put a Project with ordinals under the Aggregate/Sort —
 * and guard the end-to-end paths; the Table API orderBy case is the bug.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { col, sum, TableEnvironment, type Table } from '../../src/index.js';
import { digest } from '../../src/relnode/digest.js';
import * as rel from '../../src/relnode/rel.js';
import { field, schemaOf } from '../../src/relnode/types.js';
import { substituteCaches } from '../../src/planner/cache-substitution.js';
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

  it('the same join and sort with a renamed output reads the entry and keeps its own names', async () => {
    const before = env.cacheManager.stats();
    const renamed = joined().orderBy('a.id', 'b.id').select(col('a.id').as('left_id'), col('b.id').as('right_id'));
    const t = await renamed.collect();
    expect(t.schema.fields.map((f) => f.name)).toEqual(['left_id', 'right_id']);
    const duckFirst = await duck.query('SELECT a.id, b.id FROM p a JOIN q b ON a.k = b.k ORDER BY a.id, b.id');
    expect(fromArrow(t).rows).toEqual(duckFirst.rows);
    expect(env.cacheManager.stats().hits).toBe(before.hits + 1);
  });
  it('groupBy(a.id) summing b.id cached does not answer groupBy(b.id) summing a.id', async () => {
    await joined().groupBy('a.id').select(col('a.id').as('g'), sum('b.id').as('s')).cache().collect();
    const got = fromArrow(await joined().groupBy('b.id').select(col('b.id').as('g'), sum('a.id').as('s')).collect()).rows;
    const want = (await duck.query('SELECT b.id AS g, sum(a.id) AS s FROM p a JOIN q b ON a.k = b.k GROUP BY b.id')).rows;
    const key = (r: unknown[]): string => JSON.stringify(r, (_k, v) => (typeof v === 'bigint' ? Number(v) : v));
    expect(got.map(key).sort()).toEqual(want.map(key).sort());
  });

  it('SQL: ORDER BY a.id, b.id cached does not answer ORDER BY b.id, a.id', async () => {
    const q = (order: string): string => `SELECT a.id AS x, b.id AS y FROM p a JOIN q b ON a.k = b.k ORDER BY ${order}`;
    const first = env.sql(q('a.id, b.id')).cache();
    expect(fromArrow(await first.collect()).rows).toEqual((await duck.query(q('a.id, b.id'))).rows);
    const before = env.cacheManager.stats().entries;
    expect(fromArrow(await env.sql(q('b.id, a.id')).collect()).rows).toEqual((await duck.query(q('b.id, a.id'))).rows);
    expect(fromArrow(await env.sql(q('b.id DESC, a.id')).collect()).rows).toEqual((await duck.query(q('b.id DESC, a.id'))).rows);
    expect(env.cacheManager.stats().entries).toBe(before);
  });

  it('grouping by one side\'s id and summing the other\'s is not the reverse', async () => {
    const q = (g: string, s: string): string => `SELECT ${g}.id AS g, sum(${s}.id) AS s FROM p a JOIN q b ON a.k = b.k GROUP BY ${g}.id`;
    await env.sql(q('a', 'b')).cache().collect();
    const got = fromArrow(await env.sql(q('b', 'a')).collect()).rows;
    const want = (await duck.query(q('b', 'a'))).rows;
    const key = (r: unknown[]): string => JSON.stringify(r, (_k, v) => (typeof v === 'bigint' ? Number(v) : v));
    expect(got.map(key).sort()).toEqual(want.map(key).sort());
  });
});

describe('a digest key alone is no hit', () => {
  const v = rel.values([[1], [2]], schemaOf([field('v', 'INTEGER')]));
  // Two plans whose digest strings collide (an entry id spelling the other's projection term).
  const a = rel.cacheSource('e;columns=[$0]', v);
  const b = rel.cacheSource('e', v, [0]);

  it('marks, writes and entries are confirmed by structural equality', async () => {
    const env = TableEnvironment.create({ parallelism: 1 });
    try {
      const m = env.cacheManager;
      expect(digest(a)).toBe(digest(b));
      m.mark(a);
      expect(m.markFor(a)).toBeDefined();
      expect(m.markFor(b)).toBeUndefined();
      expect(m.conflictOf(b)).toBe('mark');
      const sub = substituteCaches(rel.limit(b, 5), m);
      expect(sub.sinks).toHaveLength(0);
      expect(sub.notes.join('\n')).toMatch(/not cached: its digest is the key of a different plan's mark/);

      const w = m.beginWrite(a, []);
      if (!('pending' in w)) throw new Error('expected to write');
      expect(m.conflictOf(b)).toBe('write');
      expect(() => m.beginWrite(b, [])).toThrow(/different plan/);
      w.pending.open(0, 1);
      w.pending.finish(0);
      expect(await m.commit(w.pending)).toBe(true);
      expect(m.entryOf(digest(b))).toBeDefined(); // the key alone would have answered b from a's entry
      expect(m.entryFor(a)).toBeDefined();
      expect(m.entryFor(b)).toBeUndefined();
      expect(m.conflictOf(b)).toBe('entry');
      const again = substituteCaches(rel.limit(b, 5), m);
      expect(again.sources).toHaveLength(0);
      expect(substituteCaches(rel.limit(a, 5), m).sources).toHaveLength(1);
    } finally {
      await env.close();
    }
  });
});

describe('marks over a changed source', () => {
  it('let go of their subtree (it can never match again) and keep their other tables\' marks', async () => {
    const env = TableEnvironment.create({ parallelism: 1 });
    try {
      env.registerTable('x', env.fromRecords([{ k: 1 }, { k: 2 }], { k: 'INTEGER' }));
      env.registerTable('y', env.fromRecords([{ k: 1 }], { k: 'INTEGER' }));
      const mx = env.cacheManager.mark(env.from('x').filter(col('k').gt(0)).plan);
      const my = env.cacheManager.mark(env.from('y').filter(col('k').gt(0)).plan);
      expect(mx.plan).toBeDefined();
      await env.insertInto('x', env.fromRecords([{ k: 3 }], { k: 'INTEGER' }));
      expect(mx.plan).toBeUndefined();
      expect(my.plan).toBeDefined();
      expect(await env.from('x').filter(col('k').gt(0)).count()).toBe(3);
    } finally {
      await env.close();
    }
  });
});

/**
 * Reuse of optimized plans and job graphs (src/api/physical-plans.ts): a text run again through
 * env.sql, a prepared statement run with values it saw before and a Table collected twice skip
 * optimizing and lowering — but the next run must still see a changed table, a new cache, an
 * invalidated cache and the clock, and concurrent runs of one plan must not share a graph.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/index.js';
import { physicalPlanStats } from '../../src/api/physical-plans.js';

const envs: TableEnvironment[] = [];
function makeEnv(): TableEnvironment {
  const env = TableEnvironment.create({ parallelism: 1 });
  env.registerTable('t', env.fromRecords(Array.from({ length: 10 }, (_, i) => ({ a: i, b: ['x', 'y', 'z'][i % 3]! })), { a: 'INTEGER', b: 'VARCHAR' }));
  envs.push(env);
  return env;
}
afterEach(async () => { for (const e of envs.splice(0)) await e.close(); });

const q = 'SELECT count(*) AS n, sum(a) AS s FROM t WHERE a > 3';

describe('reused physical plans', () => {
  it('env.sql of a text seen before and a prepared statement with values seen before reuse the plan', async () => {
    const env = makeEnv();
    const prepared = env.prepare('SELECT count(*) AS n, sum(a) AS s FROM t WHERE a > $1');
    for (let i = 0; i < 2; i++) { // the second run keeps the plan (a tree run once is not kept)
      expect(await env.sql(q).toArray()).toEqual([{ n: 6n, s: 39n }]);
      expect(await prepared.toArray(3)).toEqual([{ n: 6n, s: 39n }]);
    }
    const hits = physicalPlanStats.hits;
    expect(await env.sql(q).toArray()).toEqual([{ n: 6n, s: 39n }]);
    expect(await prepared.toArray(3)).toEqual([{ n: 6n, s: 39n }]);
    expect(physicalPlanStats.hits).toBe(hits + 2);
    expect(await prepared.toArray(8)).toEqual([{ n: 1n, s: 9n }]);
    expect(await prepared.toArray(3)).toEqual([{ n: 6n, s: 39n }]);
    expect(await prepared.toArray(8)).toEqual([{ n: 1n, s: 9n }]);
    expect(physicalPlanStats.hits).toBe(hits + 3); // 3 again (the plan kept), 8 twice (planned, then kept)
  });

  it('sees a changed table at the next run (env.sql, prepared, EXECUTE)', async () => {
    const env = makeEnv();
    const prepared = env.prepare('SELECT count(*) AS n, sum(a) AS s FROM t WHERE a > $1');
    await env.executeSql('PREPARE p AS SELECT count(*) AS n FROM t WHERE a > ?');
    const named = async (): Promise<unknown> => {
      const r = await env.executeSql('EXECUTE p(3)');
      return r.kind === 'rows' ? r.table.toArray().map((row) => ({ ...row.toJSON() })) : r.message;
    };
    for (let i = 0; i < 2; i++) {
      expect(await env.sql(q).toArray()).toEqual([{ n: 6n, s: 39n }]);
      expect(await prepared.toArray(3)).toEqual([{ n: 6n, s: 39n }]);
      expect(await named()).toEqual([{ n: 6n }]);
    }
    await env.executeSql("INSERT INTO t VALUES (20, 'x')");
    expect(await env.sql(q).toArray()).toEqual([{ n: 7n, s: 59n }]);
    expect(await prepared.toArray(3)).toEqual([{ n: 7n, s: 59n }]);
    expect(await named()).toEqual([{ n: 7n }]);
    env.registerTable('t', env.fromRecords([{ a: 5, b: 'q' }], { a: 'INTEGER', b: 'VARCHAR' }));
    expect(await env.sql(q).toArray()).toEqual([{ n: 1n, s: 5n }]);
    expect(await prepared.toArray(3)).toEqual([{ n: 1n, s: 5n }]);
    expect(await named()).toEqual([{ n: 1n }]);
  });

  it('reads a cache created after the plan was made, and recreates it after it was invalidated', async () => {
    const env = makeEnv();
    const prepared = env.prepare('SELECT count(*) AS n, sum(a) AS s FROM t WHERE a > $1');
    const held = env.sql(q);
    for (let i = 0; i < 2; i++) {
      expect(await env.sql(q).toArray()).toEqual([{ n: 6n, s: 39n }]);
      expect(await prepared.toArray(3)).toEqual([{ n: 6n, s: 39n }]);
      expect(await held.toArray()).toEqual([{ n: 6n, s: 39n }]);
    }
    const cached = await env.cacheTable('t');
    expect(env.cacheManager.stats().entries).toBe(1);
    let hits = env.cacheManager.stats().hits;
    for (const run of [() => env.sql(q).toArray(), () => prepared.toArray(3), () => held.toArray()]) {
      expect(await run()).toEqual([{ n: 6n, s: 39n }]);
      expect(env.cacheManager.stats().hits).toBe(++hits);
    }
    await cached.invalidateCache();
    expect(env.cacheManager.stats().entries).toBe(0);
    for (const run of [() => env.sql(q).toArray(), () => prepared.toArray(3), () => held.toArray()]) {
      expect(await run()).toEqual([{ n: 6n, s: 39n }]);
      expect(env.cacheManager.stats().entries).toBe(1); // the first run re-created the entry, the others read it
    }
    expect(env.cacheManager.stats().hits).toBe(hits + 2);
    await env.uncacheTable('t');
    expect(env.cacheManager.isEmpty()).toBe(true);
    const before = env.cacheManager.stats().hits;
    expect(await env.sql(q).toArray()).toEqual([{ n: 6n, s: 39n }]);
    expect(env.cacheManager.stats().hits).toBe(before);
  });

  it('does not reuse a plan whose compiled kernels hold the clock', async () => {
    const env = makeEnv();
    const text = 'SELECT epoch(now()) AS t FROM t LIMIT 1';
    const seen: unknown[] = [];
    for (let i = 0; i < 3; i++) { // a plan is kept at its second run, reused from the third
      seen.push((await env.sql(text).toArray())[0]!.t);
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(new Set(seen).size).toBe(3);
  });

  it('runs of one tree at the same time each get a graph (joins with runtime filters)', async () => {
    const env = makeEnv();
    const t = env.sql('SELECT l.b, count(*) AS n FROM t AS l JOIN t AS r ON l.a = r.a WHERE r.a < 5 GROUP BY l.b ORDER BY l.b');
    const want = await t.toArray();
    expect(want).toEqual([{ b: 'x', n: 2n }, { b: 'y', n: 2n }, { b: 'z', n: 1n }]);
    const all = await Promise.all([t.toArray(), t.toArray(), t.toArray()]);
    for (const got of all) expect(got).toEqual(want);
    expect(await t.explain({ analyze: true })).toMatch(/rows=/);
  });

  it('a value the optimizer folds gives each value list its own plan', async () => {
    const env = makeEnv();
    const p = env.prepare('SELECT count(*) AS n FROM t WHERE $1 > 5 AND a > 2');
    for (let i = 0; i < 3; i++) {
      expect(await p.toArray(3)).toEqual([{ n: 0n }]);
      expect(await p.toArray(8)).toEqual([{ n: 7n }]);
      expect(await p.toArray(2)).toEqual([{ n: 0n }]);
    }
  });

  it('a prepared statement with new values sees a changed table, a new cache and an invalidated cache', async () => {
    const env = makeEnv();
    const p = env.prepare('SELECT count(*) AS n, sum(a) AS s FROM t WHERE a > $1');
    expect(await p.toArray(3)).toEqual([{ n: 6n, s: 39n }]);
    expect(await p.toArray(4)).toEqual([{ n: 5n, s: 35n }]);
    await env.executeSql("INSERT INTO t VALUES (20, 'x')");
    expect(await p.toArray(5)).toEqual([{ n: 5n, s: 50n }]);
    expect(await p.toArray(6)).toEqual([{ n: 4n, s: 44n }]);
    const cached = await env.cacheTable('t');
    let hits = env.cacheManager.stats().hits;
    expect(await p.toArray(7)).toEqual([{ n: 3n, s: 37n }]);
    expect(env.cacheManager.stats().hits).toBe(++hits);
    await cached.invalidateCache();
    expect(await p.toArray(8)).toEqual([{ n: 2n, s: 29n }]);
    expect(env.cacheManager.stats().entries).toBe(1); // re-created by that run
    expect(await p.toArray(1)).toEqual([{ n: 9n, s: 64n }]);
    expect(env.cacheManager.stats().hits).toBe(++hits);
  });
});

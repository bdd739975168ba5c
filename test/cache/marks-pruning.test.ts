/**
 * Marks over replaced or dropped tables do not keep state forever (issue 11):
 * a stale mark is superseded by a newer mark of the same query, at most
 * MAX_STALE_MARKS stale marks are kept, and what the manager remembered about
 * dropped digests (ids, drop reasons, loss counts) goes with them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/environment.js';
import { col } from '../../src/api/expr.js';
import { MAX_STALE_MARKS } from '../../src/cache/marks.js';

let env: TableEnvironment;
afterEach(async () => { await env.close(); });

const data = (e: TableEnvironment, n: number) => e.fromRecords(Array.from({ length: n }, (_, k) => ({ k })), { k: 'INTEGER' });

describe('pruning marks of replaced tables', () => {
  it('re-caching the same query over a table replaced 100 times keeps one mark', async () => {
    env = TableEnvironment.create({ cache: { cacheAllSubtrees: false } });
    for (let i = 1; i <= 100; i++) {
      env.registerTable('t', data(env, i));
      expect(await env.from('t').filter(col('k').ge(0)).cache().count()).toBe(i);
    }
    await Promise.resolve();
    expect(env.cacheManager.bookkeeping()).toMatchObject({ marks: 1, staleMarks: 0 });
    expect(env.cacheManager.bookkeeping().digests).toBeLessThanOrEqual(2);
    expect(env.cacheManager.bookkeeping().dropReasons).toBeLessThanOrEqual(1);
    expect(env.cacheManager.list()).toHaveLength(1);
  });

  it('stale marks of many different queries are capped; the newest still explain "changed source"', async () => {
    env = TableEnvironment.create();
    for (let i = 0; i < 3 * MAX_STALE_MARKS; i++) {
      env.registerTable(`t${i}`, data(env, 3));
      expect(await env.from(`t${i}`).filter(col('k').ge(i)).cache().count()).toBe(Math.max(0, 3 - i));
      env.dropTable(`t${i}`);
    }
    await new Promise((r) => setTimeout(r, 0));
    const b = env.cacheManager.bookkeeping();
    expect(b.staleMarks).toBe(MAX_STALE_MARKS);
    expect(b.marks).toBe(MAX_STALE_MARKS);
    expect(b.digests).toBeLessThanOrEqual(MAX_STALE_MARKS);
    expect(b.dropReasons).toBeLessThanOrEqual(MAX_STALE_MARKS);
    // The latest stale mark still explains why a query over the new table does not use it.
    const last = 3 * MAX_STALE_MARKS - 1;
    env.registerTable(`t${last}`, data(env, 3));
    expect(await env.from(`t${last}`).filter(col('k').ge(last)).explain()).toMatch(/not used: changed source/);
  });

  it('a table replaced while its mark is stale, then cached again: the old mark goes', async () => {
    env = TableEnvironment.create();
    env.registerTable('t', data(env, 5));
    const t1 = env.from('t').filter(col('k').gt(1)).cache();
    await t1.count();
    env.registerTable('t', data(env, 6));
    await new Promise((r) => setTimeout(r, 0));
    expect(env.cacheManager.bookkeeping()).toMatchObject({ marks: 1, staleMarks: 1 });
    const t2 = env.from('t').filter(col('k').gt(1)).cache();
    expect(env.cacheManager.bookkeeping()).toMatchObject({ marks: 1, staleMarks: 0 });
    expect(await t2.count()).toBe(4);
    expect(env.cacheManager.stats().entries).toBe(1);
  });
});

/**
 * Correctness (CACHE-SEMANTICS.md C8–C10): the same answers with and without
 * the cache (TPC-H and table-method queries with every subtree cached, with
 * spilling, with instances killed between queries), no stale reads after the
 * data changes, and no caching of non-deterministic subtrees.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/environment.js';
import type { Table } from '../../src/api/table.js';
import { col, countStar, lit, now, random, sum } from '../../src/api/expr.js';
import { flip36B, TPCH_QUERIES } from '../diff/tpch-queries.js';
import { SF, registerNullTables } from '../diff/harness.js';
import { generateTpch, TPCH_TABLES } from '../../src/io/tpch/index.js';
import { expectSameRows, numsTable } from './helpers.js';

/** Queries over the small NULL-laden tables of the differential harness. */
const SMALL_QUERIES: readonly { name: string; build: (env: TableEnvironment) => Table; ordered?: boolean }[] = [
  { name: 'nulls group by', build: (e) => e.from('nulls').groupBy('g').select('g', sum('i').as('si'), countStar().as('c')) },
  { name: 'nulls left join', build: (e) => e.from('nulls').leftJoin(e.from('nulls_r'), col('i').eq(col('j'))).select('k', 's', 'w') },
  { name: 'nulls anti join', build: (e) => e.from('nulls').antiJoin(e.from('nulls_r'), col('i').eq(col('j'))) },
  { name: 'nulls filter and sort', build: (e) => e.from('nulls').filter(col('d').isNotNull()).orderBy('k').select('k', 'd'), ordered: true },
  { name: 'strs distinct', build: (e) => e.from('strs').select('u').distinct() },
  { name: 'bigs union', build: (e) => e.from('bigs').unionAll(e.from('bigs').filter(col('v').gt(lit(0n)))) },
];

interface Case { readonly name: string; readonly build: (env: TableEnvironment) => Table; readonly ordered: boolean }
const CASES: readonly Case[] = [
  ...TPCH_QUERIES.map((q) => ({ name: q.name, build: q.build, ordered: q.ordered })),
  { name: 'FLIP-36 b', build: flip36B, ordered: false },
  ...SMALL_QUERIES.map((q) => ({ name: q.name, build: q.build, ordered: q.ordered ?? false })),
];

let tpch: ReturnType<typeof generateTpch> | undefined;

async function makeEnv(cache?: NonNullable<Parameters<typeof TableEnvironment.create>[0]>['cache']): Promise<TableEnvironment> {
  const env = TableEnvironment.create({ parallelism: 2, batchSize: 4096, ...(cache ? { cache } : {}) });
  tpch ??= generateTpch(SF, { batchSize: 4096 });
  for (const name of TPCH_TABLES) env.registerTable(name, tpch[name]);
  await registerNullTables(env, 4);
  return env;
}

describe('C8 same answers with and without the cache', () => {
  let plain: TableEnvironment;
  const expected = new Map<string, Awaited<ReturnType<Table['collect']>>>();
  beforeAll(async () => {
    plain = await makeEnv();
    for (const c of CASES) expected.set(c.name, await c.build(plain).collect());
  });
  afterAll(async () => { await plain.close(); });

  it('C8: every subtree cached: first run writes, second run reads, a third pass reuses entries across queries', async () => {
    const env = await makeEnv({ cacheAllSubtrees: true, instances: 3 });
    for (const c of CASES) {
      await expectSameRows(await c.build(env).collect(), expected.get(c.name)!, { ordered: c.ordered });
      await expectSameRows(await c.build(env).collect(), expected.get(c.name)!, { ordered: c.ordered });
    }
    const s1 = env.cacheManager.stats();
    expect(s1.entries).toBeGreaterThan(CASES.length);
    expect(s1.hits).toBeGreaterThanOrEqual(CASES.length);
    for (const c of CASES) await expectSameRows(await c.build(env).collect(), expected.get(c.name)!, { ordered: c.ordered });
    expect(env.cacheManager.stats().misses).toBe(s1.misses); // nothing recomputed on the third pass
    await env.close();
  });

  it('C8: every subtree cached under a small budget (spilling) gives the same answers', async () => {
    const env = await makeEnv({ cacheAllSubtrees: true, instances: 2, memoryBudgetBytes: 256 * 1024 });
    for (const c of CASES.filter((_, i) => i % 2 === 0)) {
      await c.build(env).collect();
      await expectSameRows(await c.build(env).collect(), expected.get(c.name)!, { ordered: c.ordered });
    }
    const s = env.cacheManager.stats();
    expect(s.diskBytes).toBeGreaterThan(0);
    for (const i of env.cacheManager.instances) expect(i.memoryBytes()).toBeLessThanOrEqual(i.budgetBytes);
    await env.close();
  });

  it('C8: every subtree cached, with a cache instance killed before each query', async () => {
    const env = await makeEnv({ cacheAllSubtrees: true, instances: 2 });
    for (const c of CASES) await c.build(env).collect();
    let k = 0;
    for (const c of CASES) {
      env.cacheManager.instances[k++ % 2]!.kill();
      await expectSameRows(await c.build(env).collect(), expected.get(c.name)!, { ordered: c.ordered });
    }
    expect(env.cacheManager.stats().lost).toBeGreaterThan(0);
    await env.close();
  });
});

describe('C9 no stale reads', () => {
  let env: TableEnvironment;
  beforeAll(async () => {
    env = TableEnvironment.create({ parallelism: 2 });
  });
  afterAll(async () => { await env.close(); });

  const fresh = async (): Promise<void> => {
    await env.clearCache();
    env.registerTable('x', await numsTable(env, 4, 50));
    env.registerTable('y', await numsTable(env, 2, 50));
  };

  it('C9: re-registering a table releases its entries at once and the next query sees the new data', async () => {
    await fresh();
    const q = () => env.from('x').filter(col('g').eq(1));
    q().cache();
    expect(await q().count()).toBe(29);
    expect(env.cacheManager.stats().entries).toBe(1);
    env.registerTable('x', await numsTable(env, 2, 50));
    expect(env.cacheManager.stats().entries).toBe(0);
    expect(await q().count()).toBe(15);
    expect(env.cacheManager.events().some((e) => e.kind === 'invalidated' && e.detail === 'changed source')).toBe(true);
  });

  it('C9: INSERT INTO releases dependents transitively (a cache built on a cache), other tables keep theirs', async () => {
    await fresh();
    const e1 = env.from('x').filter(col('g').lt(3)).cache();
    const e2 = e1.groupBy('g').select('g', countStar().as('c')).cache();
    const e3 = env.from('y').filter(col('g').lt(3)).cache();
    await e2.collect();
    await e3.count();
    await e2.invalidateCache();
    await e2.collect(); // re-created from e1's entry: e2 now depends on e1
    expect(env.cacheManager.stats().entries).toBe(3);
    const inserted = await env.insertInto('x', env.fromRecords([{ k: 1000, g: 1, v: 1.5, s: 'new', n: null }], { k: 'INTEGER', g: 'INTEGER', v: 'DOUBLE', s: 'VARCHAR', n: 'INTEGER' }));
    expect(inserted).toBe(1);
    expect(env.cacheManager.list().filter((e) => e.state === 'materialized').map((e) => e.tables)).toEqual([['y']]);
    const now1 = await env.from('x').filter(col('g').lt(3)).groupBy('g').select('g', countStar().as('c')).orderBy('g').toArray();
    expect(Number(now1.find((r) => r['g'] === 1)!['c'])).toBe(30);
  });

  it('C9: CREATE OR REPLACE (createTable) and DROP release entries', async () => {
    await fresh();
    const q = () => env.from('y').select('k');
    q().cache();
    await q().count();
    env.createTable('y', { k: 'INTEGER' }, { orReplace: true });
    expect(env.cacheManager.stats().entries).toBe(0);
    expect(await q().count()).toBe(0);
    await q().cache().count();
    expect(env.cacheManager.stats().entries).toBe(1);
    env.dropTable('y');
    expect(env.cacheManager.stats().entries).toBe(0);
  });

  it('C9: a cached view is released when its underlying table changes', async () => {
    await fresh();
    env.registerTable('v', env.from('x').filter(col('k').lt(20)));
    await env.cacheTable('v');
    expect(env.cacheManager.stats().entries).toBe(1);
    await env.insertInto('x', env.fromRecords([{ k: 1, g: 1, v: 1, s: 'z', n: 1 }], { k: 'INTEGER', g: 'INTEGER', v: 'DOUBLE', s: 'VARCHAR', n: 'INTEGER' }));
    expect(env.cacheManager.stats().entries).toBe(0);
  });
});

describe('C10 non-determinism', () => {
  let env: TableEnvironment;
  beforeAll(async () => {
    env = TableEnvironment.create({ cache: { cacheAllSubtrees: true } });
    env.registerTable('nums', await numsTable(env, 2, 50));
  });
  afterAll(async () => { await env.close(); });

  it('C10: a subtree with random() is not cached, even when marked; EXPLAIN says so', async () => {
    const t = env.from('nums').select('k', random().as('r')).cache();
    const a = (await t.toArray()).map((r) => r['r']);
    const b = (await t.toArray()).map((r) => r['r']);
    expect(a).not.toEqual(b);
    const id = env.cacheManager.idFor(t.plan);
    expect(env.cacheManager.entryById(id)).toBeUndefined();
    expect(await t.explain()).toContain(`cache for ${id} not used: non-deterministic (random() give a different result on every run)`);
    expect(env.cacheManager.list().find((e) => e.id === id)).toMatchObject({ state: 'not cacheable', reason: 'non-deterministic: random()' });
  });

  it('C10: now() and a filter on random() are not cached; deterministic subtrees below them are', async () => {
    const t = env.from('nums').filter(col('g').eq(2)).select('k', now().as('t'));
    await t.collect();
    const f = env.from('nums').filter(col('g').eq(2)).filter(random().lt(0.5));
    const counts = new Set<number>();
    for (let i = 0; i < 8; i++) counts.add(await f.count());
    expect(counts.size).toBeGreaterThan(1);
    const labels = env.cacheManager.list().filter((e) => e.state === 'materialized').map((e) => e.label);
    expect(labels.some((l) => l.includes('random') || l.includes('now'))).toBe(false);
    expect(labels.some((l) => l.startsWith('Filter(condition=[(g = 2)])'))).toBe(true);
  });
});

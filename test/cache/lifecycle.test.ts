/**
 * Cache lifecycle (CACHE-SEMANTICS.md C1–C5, C15): lazy marking, reuse by
 * plan digest, idempotence, invalidation, the API behind the SQL statements,
 * and what EXPLAIN shows.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/environment.js';
import { col, countStar, date, lit, max, min, sum } from '../../src/api/expr.js';
import { visit } from '../../src/relnode/rel.js';
import { flip36B } from '../diff/tpch-queries.js';
import { expectSameRows, filesUnder, numsTable, registerProbed, type Probe } from './helpers.js';

let env: TableEnvironment;
let probe: Probe;

beforeEach(async () => {
  env = TableEnvironment.create({ parallelism: 2, batchSize: 8192 });
  probe = { scans: 0, batches: 0 };
  registerProbed(env, 'nums', await numsTable(env), probe);
});
afterEach(async () => { await env.close(); });

const base = () => env.from('nums').filter(col('k').ge(100)).select('k', 'g', col('v').times(2).as('v2'), 's');

describe('C1 lazy', () => {
  it('C1: cache() runs nothing; the first action materializes once, later actions read the cache', async () => {
    const t = base().cache();
    expect(probe.scans).toBe(0);
    expect(env.cacheManager.stats()).toMatchObject({ entries: 0, marks: 1, misses: 0 });
    expect(env.cacheManager.list()[0]).toMatchObject({ state: 'marked' });

    const n = await t.count();
    expect(n).toBe(900);
    const scansAfterFirst = probe.scans;
    expect(scansAfterFirst).toBeGreaterThan(0);
    expect(env.cacheManager.stats()).toMatchObject({ entries: 1, misses: 1 });

    // b.max(); b.min(); b.sum(): no further source reads.
    expect(await t.max('k')).toBe(999);
    expect(await t.min('k')).toBe(100);
    expect(await t.sum('g')).toBeGreaterThan(0);
    expect(probe.scans).toBe(scansAfterFirst);
    expect(env.cacheManager.stats()).toMatchObject({ entries: 1, misses: 1, hits: 3 });
  });

  it('C1: the FLIP-36 motivating example computes b once', async () => {
    env.registerTpch(0.01);
    const b = flip36B(env).cache();
    const max1 = await b.max('revenue');
    const stats1 = env.cacheManager.stats();
    const min1 = await b.min('revenue');
    const count = await b.count();
    expect(env.cacheManager.stats().misses).toBe(stats1.misses);
    expect(env.cacheManager.stats().hits).toBe(2);
    const fresh = TableEnvironment.create();
    fresh.registerTpch(0.01);
    const nb = flip36B(fresh);
    expect([max1, min1, count]).toEqual([await nb.max('revenue'), await nb.min('revenue'), await nb.count()]);
    await fresh.close();
  });
});

describe('C2 reuse by plan, not by object', () => {
  it('C2: two separately built equal tables share one entry', async () => {
    base().cache();
    await base().count(); // a different Table object with an equal plan
    expect(env.cacheManager.stats()).toMatchObject({ entries: 1, misses: 1 });
    const scans = probe.scans;
    const t2 = env.from('nums').filter(col('k').ge(100)).select('k', 'g', col('v').times(2).as('v2'), 's');
    expect(await t2.groupBy('g').select('g', countStar().as('c')).count()).toBe(7);
    expect(probe.scans).toBe(scans);
    expect(env.cacheManager.stats().hits).toBe(1);
  });

  it('C2: equal digests across commuted conjuncts and flipped comparisons', async () => {
    env.from('nums').filter(col('k').ge(100).and(col('g').lt(3))).cache();
    await env.from('nums').filter(col('k').ge(100).and(col('g').lt(3))).count();
    const scans = probe.scans;
    const other = env.from('nums').filter(col('g').lt(3).and(lit(100).le(col('k'))));
    expect(await other.count()).toBeGreaterThan(0);
    expect(probe.scans).toBe(scans);
  });

  it('C2: the largest cached subtree wins', async () => {
    const inner = base().cache();
    const outer = inner.groupBy('g').select('g', sum('v2').as('s')).cache();
    await outer.collect(); // writes both (cache inside cache)
    expect(env.cacheManager.stats()).toMatchObject({ entries: 2, misses: 2 });
    const plan = env.plan(outer.orderBy('g').plan);
    const sources: string[] = [];
    visit(plan.optimized, (n) => { if (n.kind === 'CacheSource') sources.push(n.entryId); });
    const outerId = env.cacheManager.idFor(outer.plan);
    expect(sources).toEqual([outerId]);
  });

  it('C2: caches inside caches: after the outer entry is invalidated, it is rebuilt from the inner one', async () => {
    const inner = base().cache();
    const outer = inner.groupBy('g').select('g', sum('v2').as('s')).cache();
    const expected = await outer.collect();
    await outer.invalidateCache();
    const scans = probe.scans;
    const text = await outer.explain();
    expect(text).toMatch(/CacheSink\(entry=\[c[0-9a-f]+\]\)/);
    expect(text).toMatch(/CacheSource\(entry=\[c[0-9a-f]+\]/);
    await expectSameRows(await outer.collect(), expected);
    expect(probe.scans).toBe(scans); // the inner cache fed the rebuild
    expect(env.cacheManager.stats().entries).toBe(2);
  });

  it('C2: a subquery is just a subtree (semi join against a cached table)', async () => {
    const keys = env.from('nums').filter(col('g').eq(3)).select('k').cache();
    await keys.count();
    const scans = probe.scans;
    const q = env.from('nums').semiJoin(env.from('nums').filter(col('g').eq(3)).select('k').as('x'), col('nums.k').eq(col('x.k')));
    expect(await q.count()).toBe(await keys.count());
    expect(probe.scans).toBe(scans + 10); // only the outer side was scanned (10 batches, one partition each)
  });
});

describe('C3 idempotent', () => {
  it('C3: caching twice, or caching the handle, is one mark and one entry', async () => {
    const t = base();
    const h1 = t.cache();
    const h2 = t.cache();
    const h3 = h1.cache().cache();
    expect(env.cacheManager.stats().marks).toBe(1);
    await h1.count(); await h2.count(); await h3.count();
    expect(env.cacheManager.stats()).toMatchObject({ entries: 1, marks: 1, misses: 1 });
    expect(env.cacheManager.list()).toHaveLength(1);
  });
});

describe('C4 invalidate', () => {
  it('C4: drops the entry, frees memory and disk, settles a Promise, and the next query re-creates it', async () => {
    await env.close();
    env = TableEnvironment.create({ parallelism: 2, cache: { memoryBudgetBytes: 16 * 1024 } });
    registerProbed(env, 'nums', await numsTable(env), probe);
    const t = base().cache();
    await t.count();
    const s = env.cacheManager.stats();
    expect(s.entries).toBe(1);
    expect(s.diskBytes).toBeGreaterThan(0); // the budget forced spilling
    expect(filesUnder(env.cacheManager.spillDirectory).length).toBeGreaterThan(0);
    const p = t.invalidateCache();
    expect(p).toBeInstanceOf(Promise);
    await p;
    expect(env.cacheManager.stats()).toMatchObject({ entries: 0, memoryBytes: 0, diskBytes: 0, marks: 1 });
    expect(filesUnder(env.cacheManager.spillDirectory)).toEqual([]);
    const scans = probe.scans;
    expect(await t.count()).toBe(900);
    expect(probe.scans).toBeGreaterThan(scans); // recomputed from the sources
    expect(env.cacheManager.stats().entries).toBe(1); // and cached again: t is still marked
  });

  it('C4: invalidating a never-cached table is safe, and invalidating twice is fine', async () => {
    await base().invalidateCache();
    const t = base().cache();
    await t.count();
    await Promise.all([t.invalidateCache(), t.invalidateCache()]);
    await t.invalidateCache();
    expect(env.cacheManager.stats().entries).toBe(0);
  });

  it('C4: close() releases everything, spill directory included', async () => {
    await env.close();
    env = TableEnvironment.create({ cache: { memoryBudgetBytes: 8 * 1024 } });
    registerProbed(env, 'nums', await numsTable(env), probe);
    await base().cache().count();
    const dir = env.cacheManager.spillDirectory;
    expect(filesUnder(dir).length).toBeGreaterThan(0);
    await env.close();
    expect(filesUnder(dir)).toEqual([]);
    expect(env.cacheManager.stats()).toMatchObject({ entries: 0, marks: 0, memoryBytes: 0, diskBytes: 0 });
    expect(() => env.from('nums')).toThrow(/closed/);
  });
});

describe('C5 the API behind CACHE / UNCACHE / CLEAR CACHE / SHOW CACHES', () => {
  it('C5: cacheTable materializes at once; lazy defers; uncacheTable and clearCache drop', async () => {
    await env.cacheTable('big', base());
    expect(env.cacheManager.list()).toEqual([expect.objectContaining({ state: 'materialized', rows: 900, tables: ['nums'], hits: 0 })]);
    const scans = probe.scans;
    expect(await env.from('big').count()).toBe(900);
    expect(probe.scans).toBe(scans);

    await env.cacheTable('few', env.from('nums').filter(col('g').eq(0)), { lazy: true });
    expect(env.cacheManager.list().map((e) => e.state).sort()).toEqual(['marked', 'materialized']);
    await env.from('few').count();
    expect(env.cacheManager.list().map((e) => e.state)).toEqual(['materialized', 'materialized']);

    expect(await env.uncacheTable('big')).toBe(true);
    expect(await env.uncacheTable('big')).toBe(false);
    expect(await env.uncacheTable('nope', { ifExists: true })).toBe(false);
    await expect(env.uncacheTable('nope')).rejects.toThrow(/not found/);
    expect(env.cacheManager.list()).toHaveLength(1);
    await env.clearCache();
    expect(env.cacheManager.list()).toEqual([]);
    expect(env.cacheManager.stats()).toMatchObject({ entries: 0, marks: 0, memoryBytes: 0 });
  });

  it('C5: cacheTable on an existing table name caches its scan', async () => {
    await env.cacheTable('nums');
    const scans = probe.scans;
    expect(await env.from('nums').filter(col('k').lt(10)).count()).toBe(10);
    expect(probe.scans).toBe(scans);
  });
});

describe('C15 EXPLAIN', () => {
  it('C15: CacheSink and the "not yet materialized" note before; CacheSource with entry, rows, bytes, tier after', async () => {
    const t = base().cache();
    const id = env.cacheManager.list()[0]!.id;
    const before = await t.explain();
    expect(before).toContain(`CacheSink(entry=[${id}])`);
    expect(before).toContain(`cache for ${id} not used: not yet materialized (this run writes it)`);
    expect(before).toMatch(new RegExp(`CacheSink\\(entry=${id}\\) \\[p=\\d\\] tees `));
    await t.count();
    const after = await t.filter(col('g').eq(1)).explain();
    expect(after).toMatch(new RegExp(`CacheSource\\(entry=\\[${id}\\], filters=\\[\\(g = 1\\)\\]\\) rows=900 bytes=[0-9.]+ KiB tier=memory partitions=\\d`));
    expect(after).toContain(`reads ${id} (rows=900`);
    expect(after).not.toContain('not used');
  });

  it('C15: says why a marked table is not used: invalidated, changed source, non-deterministic, another query writing it', async () => {
    const t = base().cache();
    const id = env.cacheManager.list()[0]!.id;
    await t.count();
    await t.invalidateCache();
    expect(await t.explain()).toContain(`cache for ${id} not used: invalidated (this run re-creates it)`);

    env.registerTable('nums', await numsTable(env, 3)); // replaces the table: a new version
    const fresh = base();
    expect(await fresh.explain()).toContain(`cache for ${id} not used: changed source (nums changed since cache() was called`);

    const { random } = await import('../../src/api/expr.js');
    const r = env.from('nums').select('k', random().as('r')).cache();
    expect(await r.explain()).toMatch(/cache for c[0-9a-f]+ not used: non-deterministic \(random\(\)/);

    probe.delayMs = 5;
    registerProbed(env, 'slow', await numsTable(env, 3), probe);
    const s = env.from('slow').filter(col('k').gt(5)).cache();
    const running = s.count(); // registers its write synchronously, then runs for ≥ 15 ms
    expect(await s.explain()).toContain('not yet materialized (another query is writing it; this run waits for it)');
    await running;
  });

  it('C15: EXPLAIN ANALYZE through the cache shows the CacheSource metrics', async () => {
    const t = base().cache();
    await t.count();
    // (a sum reads the rows; min/max/count alone are answered from the entry's statistics: stats-answer.test.ts)
    const text = await t.select(max('k').as('m'), sum('k').as('n')).explain({ analyze: true });
    // At parallelism 2 a read runs the parallelism-1 graph on the calling thread, as a run does (run-graphs.ts).
    expect(text).toMatch(/CacheSource\(entry=c[0-9a-f]+: k\) \[p=1\]( <- global)?  rows=900/);
  });
});

describe('dates and strings survive the cache', () => {
  it('a cached TPC-H subtree with DATE, VARCHAR and DOUBLE columns gives the same rows', async () => {
    env.registerTpch(0.01);
    const q = () => env.from('orders').filter(col('o_orderdate').lt(date('1993-01-01'))).select('o_orderkey', 'o_orderdate', 'o_orderpriority', 'o_totalprice', 'o_comment');
    const plain = await q().collect();
    q().cache();
    await q().count();
    await expectSameRows(await q().collect(), plain);
  });
});

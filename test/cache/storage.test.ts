/**
 * Storage (CACHE-SEMANTICS.md C11–C13): bounded memory with spilling or
 * dropping, partitions spread over the instances, and pruning by projection
 * and per-batch min/max/null statistics.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment, type EnvironmentOptions } from '../../src/api/environment.js';
import { col, date, lit } from '../../src/api/expr.js';
import { ValidationError } from '../../src/relnode/errors.js';
import type { EvictionEvent } from '../../src/cache/instance.js';
import { expectSameRows, filesUnder, numsTable, registerProbed, type Probe } from './helpers.js';

let env: TableEnvironment;
let plain: TableEnvironment | undefined;
afterEach(async () => { await env.close(); await plain?.close(); plain = undefined; });

async function setup(options: EnvironmentOptions, batches = 10, rows = 100): Promise<Probe> {
  // Blocks of one source batch each (the sink coalesces smaller batches up to the batch size): the per-block counts below rely on it.
  env = TableEnvironment.create({ batchSize: rows, ...options });
  const probe: Probe = { scans: 0, batches: 0 };
  registerProbed(env, 'nums', await numsTable(env, batches, rows), probe);
  return probe;
}

describe('C11 bounded memory', () => {
  it('C11: a workload larger than the budget spills LRU batches; resident bytes never exceed the budget', async () => {
    await setup({ parallelism: 2, cache: { instances: 2, memoryBudgetBytes: 64 * 1024 } }, 20, 500);
    const evictions: EvictionEvent[] = [];
    env.cacheManager.hooks.onEvict = (e) => {
      evictions.push(e);
      expect(e.memoryBytes).toBeLessThanOrEqual(e.budgetBytes); // at spill time
    };
    plain = TableEnvironment.create({ parallelism: 2 });
    plain.registerTable('nums', await numsTable(plain, 20, 500));
    const queries = [
      (e: TableEnvironment) => e.from('nums').filter(col('g').lt(4)),
      (e: TableEnvironment) => e.from('nums').select('k', 's', col('v').times(3).as('v3')),
      (e: TableEnvironment) => e.from('nums').filter(col('n').isNotNull()).select('s', 'n'),
    ];
    for (const q of queries) {
      q(env).cache();
      await q(env).count();
      for (const i of env.cacheManager.instances) expect(i.memoryBytes()).toBeLessThanOrEqual(i.budgetBytes);
    }
    const total = env.cacheManager.list().reduce((n, e) => n + e.bytes, 0);
    expect(total).toBeGreaterThan(3 * 64 * 1024); // the workload is several times the budget
    const s = env.cacheManager.stats();
    expect(s.memoryBytes).toBeLessThanOrEqual(64 * 1024);
    expect(s.diskBytes).toBeGreaterThan(0);
    expect(evictions.some((e) => e.outcome === 'spilled')).toBe(true);
    expect(env.cacheManager.list().some((e) => e.tier === 'disk' || e.tier === 'memory+disk')).toBe(true);
    // Spilled data reads back identical, and reading it keeps the budget.
    for (const q of queries) {
      await expectSameRows(q(env), q(plain));
      for (const i of env.cacheManager.instances) expect(i.memoryBytes()).toBeLessThanOrEqual(i.budgetBytes);
    }
    expect(env.cacheManager.stats().hits).toBe(3);
    // Files go with their entry; close removes the rest and the directory.
    const dir = env.cacheManager.spillDirectory!;
    const before = filesUnder(dir).length;
    expect(before).toBeGreaterThan(0);
    await queries[0]!(env).invalidateCache();
    const after = filesUnder(dir).length;
    expect(after).toBeLessThan(before);
    expect(env.cacheManager.instances.reduce((n, i) => n + i.fileCount(), 0)).toBe(after);
    await env.close();
    expect(filesUnder(dir)).toEqual([]);
  });

  it('C11: a batch larger than the whole budget goes straight to disk and reads back', async () => {
    await setup({ cache: { instances: 1, memoryBudgetBytes: 1000 } }, 3, 400);
    const t = env.from('nums').select('k', 's').cache();
    const expected = await env.from('nums').select('k', 's').filter(lit(true)).collect();
    await t.count();
    expect(env.cacheManager.stats().memoryBytes).toBe(0);
    expect(env.cacheManager.list()[0]!.tier).toBe('disk');
    await expectSameRows(t, expected);
  });

  it('C11: MEMORY_ONLY drops evicted data: the entry is lost, the next read recomputes it (right answer, lost event, re-created)', async () => {
    const probe = await setup({ cache: { instances: 1, memoryBudgetBytes: 48 * 1024 } }, 10, 200);
    const a = env.from('nums').filter(col('g').eq(0)).select('k', 's').cache({ storageLevel: 'MEMORY_ONLY' });
    const expected = await env.from('nums').filter(col('g').eq(0)).select('k', 's').filter(lit(true)).collect();
    await a.count();
    expect(env.cacheManager.list()[0]).toMatchObject({ storageLevel: 'MEMORY_ONLY', tier: 'memory' });
    const dropped: EvictionEvent[] = [];
    env.cacheManager.hooks.onEvict = (e) => { if (e.outcome === 'dropped') dropped.push(e); };
    await env.from('nums').select('k', 'g', 'v', 's').cache().count(); // MEMORY_AND_DISK, bigger than the budget: pushes a out
    expect(dropped.length).toBeGreaterThan(0);
    expect(env.cacheManager.list().find((e) => e.id === env.cacheManager.idFor(a.plan))!.tier).toBe('lost');
    const scans = probe.scans;
    await expectSameRows(a, expected);
    expect(probe.scans).toBeGreaterThan(scans); // recomputed
    expect(env.cacheManager.stats().lost).toBe(1);
    expect(env.cacheManager.events().filter((e) => e.kind === 'lost')[0]!.detail).toMatch(/dropped under MEMORY_ONLY/);
    expect(env.cacheManager.list().find((e) => e.id === env.cacheManager.idFor(a.plan))).toMatchObject({ state: 'materialized', tier: 'memory', losses: 1 });
    expect(env.cacheManager.spillDirectory === undefined || filesUnder(env.cacheManager.spillDirectory).every((f) => !f.includes(env.cacheManager.idFor(a.plan)))).toBe(true);
  });

  it('C11: a MEMORY_ONLY result larger than the budget is never committed, and queries still answer', async () => {
    await setup({ cache: { instances: 1, memoryBudgetBytes: 8 * 1024, storageLevel: 'MEMORY_ONLY' } }, 10, 200);
    const t = env.from('nums').select('k', 's').cache();
    expect(await t.count()).toBe(2000);
    expect(await t.count()).toBe(2000);
    expect(env.cacheManager.stats()).toMatchObject({ entries: 0, diskBytes: 0 });
    expect(env.cacheManager.events().filter((e) => e.kind === 'lost').map((e) => e.detail)).toEqual([expect.stringMatching(/^not committed: partition 0 \(batch \d+\) on instance 0 was lost while it was written/), expect.stringMatching(/^not committed/)]);
  });

  it('C11: storage levels are validated', async () => {
    await setup({});
    expect(() => env.from('nums').cache({ storageLevel: 'DISK_ONLY' as never })).toThrow(ValidationError);
    expect(() => TableEnvironment.create({ cache: { storageLevel: 'X' as never } })).toThrow(/unknown storage level "X"; use one of MEMORY_AND_DISK, MEMORY_ONLY/);
    expect(() => TableEnvironment.create({ cache: { instances: 0 } })).toThrow(ValidationError);
  });
});

describe('C12 partitioned', () => {
  it('C12: a result with 4 partitions spreads over 3 instances (partition i on instance i mod 3); each reports bytes and entries', async () => {
    await setup({ parallelism: 4, cache: { instances: 3 } }, 8, 100);
    const t = env.from('nums').filter(col('g').ne(3)).cache();
    await t.count();
    const [info] = env.cacheManager.list();
    expect(info).toMatchObject({ partitions: 4, state: 'materialized' });
    const inst = env.cacheManager.instances;
    expect(inst.map((i) => i.entryCount())).toEqual([1, 1, 1]);
    expect(inst.map((i) => i.blockCount())).toEqual([4, 2, 2]); // partitions 0 and 3 on instance 0, two batches each
    for (const i of inst) expect(i.memoryBytes()).toBeGreaterThan(0);
    expect(inst.reduce((n, i) => n + i.memoryBytes(), 0)).toBe(info!.bytes);
    const entry = env.cacheManager.entryById(info!.id)!;
    expect(entry.partitions.map((p) => p.instance)).toEqual([0, 1, 2, 0]);
    // A read runs at parallelism 1 on the calling thread (run-graphs.ts), over every partition; the
    // parallel graph (a cache write's) reads with up to `parallelism` subtasks.
    expect(await t.select('k').explain()).toMatch(/CacheSource\(entry=c[0-9a-f]+: k\) \[p=1\]/);
    expect(await t.count()).toBe(686);
  });

  it('C12: instances default to the parallelism', async () => {
    await setup({ parallelism: 3 });
    expect(env.cacheManager.instances).toHaveLength(3);
  });
});

describe('C13 pruning', () => {
  async function cachedNums(): Promise<void> {
    await setup({ parallelism: 1 });
    plain = TableEnvironment.create({ parallelism: 1 });
    plain.registerTable('nums', await numsTable(plain));
    await env.from('nums').cache().count();
  }

  /** Runs a filter on the cached and the plain table; returns the batches read and skipped. */
  async function pruned(cond: (e: TableEnvironment) => ReturnType<typeof col>): Promise<{ read: number; skipped: number; rows: number }> {
    const before = env.cacheManager.stats();
    const rows = await env.from('nums').filter(cond(env)).collect();
    const after = env.cacheManager.stats();
    await expectSameRows(rows, await plain!.from('nums').filter(cond(plain!)).collect());
    return { read: after.blocksRead - before.blocksRead, skipped: after.blocksSkipped - before.blocksSkipped, rows: rows.numRows };
  }

  it('C13: min/max statistics skip batches: ranges, equality, IN, OR, BETWEEN, strings', async () => {
    await cachedNums();
    expect(await pruned(() => col('k').ge(850))).toEqual({ read: 2, skipped: 8, rows: 150 });
    expect(await pruned(() => col('k').lt(100))).toEqual({ read: 1, skipped: 9, rows: 100 });
    expect(await pruned(() => lit(420).ge(col('k')).and(col('k').ge(380)))).toEqual({ read: 2, skipped: 8, rows: 41 });
    expect(await pruned(() => col('k').between(420, 480))).toEqual({ read: 1, skipped: 9, rows: 61 });
    expect(await pruned(() => col('k').eq(42))).toEqual({ read: 1, skipped: 9, rows: 1 });
    expect(await pruned(() => col('k').in([5, 950]))).toEqual({ read: 2, skipped: 8, rows: 2 });
    expect(await pruned(() => col('k').lt(50).or(col('k').gt(950)))).toEqual({ read: 2, skipped: 8, rows: 99 });
    expect(await pruned(() => col('s').ge(lit('name00900')))).toEqual({ read: 1, skipped: 9, rows: 100 });
    expect(await pruned(() => col('v').gt(lit(499.0)))).toEqual({ read: 1, skipped: 9, rows: 1 });
    expect(await pruned(() => col('k').gt(5000))).toEqual({ read: 0, skipped: 10, rows: 0 });
  });

  it('C13: null counts skip batches for IS NULL / IS NOT NULL and comparisons on all-NULL batches', async () => {
    await cachedNums();
    expect(await pruned(() => col('n').isNull())).toEqual({ read: 4, skipped: 6, rows: 400 });
    expect(await pruned(() => col('n').isNotNull())).toEqual({ read: 6, skipped: 4, rows: 600 });
    expect(await pruned(() => col('n').ge(0))).toEqual({ read: 6, skipped: 4, rows: 600 });
  });

  it('C13: filters the statistics cannot decide read every batch (and stay correct)', async () => {
    await cachedNums();
    expect(await pruned(() => col('k').times(2).gt(1000))).toEqual({ read: 10, skipped: 0, rows: 499 });
    expect(await pruned(() => col('g').eq(3))).toEqual({ read: 10, skipped: 0, rows: 143 });
  });

  it('C13: a cache source reads only the columns the query needs, without copying them', async () => {
    await cachedNums();
    const q = env.from('nums').filter(col('k').gt(10)).select('s');
    const text = await q.explain();
    expect(text).toMatch(/CacheSource\(entry=\[c[0-9a-f]+\], columns=\[k, s\], filters=\[\(k > 10\)\]\)/);
    const entry = env.cacheManager.entryById(env.cacheManager.idFor(env.from('nums').plan))!;
    const src = env.cacheManager.sourceFor(entry.id, [3])!;
    const inst = await src.factory({ name: 't', subtaskIndex: 0, parallelism: 1, batchSize: 100, signal: new AbortController().signal, shared: () => { throw new Error('unused'); } });
    const b = await inst.next();
    expect(b && 'numRows' in b ? b.numCols : -1).toBe(1);
    const stored = env.cacheManager.instances[0]!.get(entry.partitions[0]!.blocks[0]!.key, entry.store)!;
    expect((b as typeof stored).data.children[0]).toBe(stored.data.children[3]);
  });

  it('C13: DATE statistics prune TPC-H data cached from a date-ordered source', async () => {
    env = TableEnvironment.create({ parallelism: 1, batchSize: 2000 });
    env.registerTpch(0.01);
    const sorted = env.from('orders').orderBy('o_orderdate').select('o_orderkey', 'o_orderdate', 'o_totalprice');
    await env.cacheTable('byDate', sorted);
    const before = env.cacheManager.stats();
    const n = await env.from('byDate').filter(col('o_orderdate').ge(date('1998-06-01'))).count();
    const after = env.cacheManager.stats();
    expect(n).toBe(await env.from('orders').filter(col('o_orderdate').ge(date('1998-06-01'))).count());
    expect(after.blocksSkipped - before.blocksSkipped).toBeGreaterThan(0);
  });
});

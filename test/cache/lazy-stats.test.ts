/**
 * Zone maps computed on the first question (src/cache/lazy-stats.ts): nothing
 * is computed while an entry is written; a filtered read computes only the
 * columns it filters on, with the answers and the skipped blocks of the eager
 * statistics; a block that spills has all its statistics computed before it
 * leaves memory (and pruning then skips it without reading its file); a block
 * lost before anything was asked proves nothing, and the query still answers
 * right.
 */
import type { RecordBatch } from 'apache-arrow';
import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment, type EnvironmentOptions } from '../../src/api/environment.js';
import type { Table } from '../../src/api/table.js';
import { col, max, min } from '../../src/api/expr.js';
import type { BlockRef } from '../../src/cache/entry.js';
import { LazyBlockStats } from '../../src/cache/lazy-stats.js';
import { blockStats, canSkipBlock } from '../../src/cache/stats.js';
import { expectSameRows, numsTable } from './helpers.js';

const WIDTH = 5; // nums: k, g, v, s, n

let env: TableEnvironment;
let plain: TableEnvironment;
afterEach(async () => { await env.close(); await plain.close(); });

async function setup(options: EnvironmentOptions = {}): Promise<void> {
  env = TableEnvironment.create({ parallelism: 1, batchSize: 100, ...options });
  env.registerTable('nums', await numsTable(env, 20, 100));
  plain = TableEnvironment.create({ parallelism: 1 });
  plain.registerTable('nums', await numsTable(plain, 20, 100));
}

const blocksOf = (t: Table): readonly BlockRef[] => {
  const e = env.cacheManager.entryById(env.cacheManager.idFor(t.plan))!;
  return e.partitions.flatMap((p) => p.blocks);
};
const lazy = (b: BlockRef): LazyBlockStats => b.stats as LazyBlockStats;
/** The stored batch of a block (from memory or its spill file). */
const batchOf = (b: BlockRef, t: Table): RecordBatch => {
  const e = env.cacheManager.entryById(env.cacheManager.idFor(t.plan))!;
  return env.cacheManager.instances[e.partitions[0]!.instance]!.get(b.key, e.store)!;
};

describe('LazyBlockStats', () => {
  it('computes a column on its first request, the same figures as blockStats, and only that column', async () => {
    await setup();
    const batch = (await env.from('nums').collect()).batches[1]!;
    let reads = 0;
    const s = new LazyBlockStats(batch.numRows, WIDTH, () => { reads++; return batch; });
    expect(s.computed).toBe(0);
    const eager = blockStats(batch);
    expect(s.column(3)).toEqual(eager.columns[3]);
    expect(s.column(3)).toEqual(eager.columns[3]);
    expect([s.computed, reads]).toEqual([1, 1]); // remembered
    expect(s.column(WIDTH)).toBeUndefined();
    expect(s.column(-1)).toBeUndefined();
    for (let i = 0; i < WIDTH; i++) expect(s.column(i)).toEqual(eager.columns[i]);
  });

  it('seal computes the rest from the batch in hand and never asks for the data again', async () => {
    await setup();
    const batch = (await env.from('nums').collect()).batches[0]!;
    let gone = false;
    const s = new LazyBlockStats(batch.numRows, WIDTH, () => (gone ? undefined : batch));
    s.column(0);
    s.seal(batch);
    gone = true;
    expect(s.computed).toBe(WIDTH);
    for (let i = 0; i < WIDTH; i++) expect(s.column(i)).toEqual(blockStats(batch).columns[i]);
  });

  it('a block whose data is gone before the question proves nothing', () => {
    const s = new LazyBlockStats(10, 2, () => undefined);
    expect(s.column(0)).toBeUndefined();
    expect(canSkipBlock(s, [])).toBe(false);
  });
});

describe('lazy zone maps of cache entries', () => {
  it('writing computes none; a filter computes only its column, skips what the eager statistics skip, answers the same', async () => {
    await setup();
    const q = (e: TableEnvironment) => e.from('nums').filter(col('g').ne(3)).select('k', 'g', 'v', 's', 'n');
    const t = q(env).cache();
    await t.count();
    const blocks = blocksOf(t);
    expect(blocks.length).toBeGreaterThan(10);
    expect(blocks.map((b) => lazy(b).computed)).toEqual(blocks.map(() => 0));

    const cond = col('k').ge(1234);
    const before = env.cacheManager.stats();
    await expectSameRows(t.filter(cond), q(plain).filter(cond));
    const after = env.cacheManager.stats();
    // The eager statistics of the stored batches skip exactly the blocks k ≥ 1234 rules out.
    const eagerSkips = blocks.filter((b) => (blockStats(batchOf(b, t)).columns[0]!.max as number) < 1234).length;
    expect(eagerSkips).toBeGreaterThan(0);
    expect(after.blocksSkipped - before.blocksSkipped).toBe(eagerSkips);
    expect(after.blocksRead - before.blocksRead).toBe(blocks.length - eagerSkips);
    for (const b of blocks) {
      expect(lazy(b).computed).toBe(1);
      expect(b.stats.column(0)).toEqual(blockStats(batchOf(b, t)).columns[0]);
    }
  });

  it('min/max answered from statistics compute them on demand and match the recomputed answer', async () => {
    await setup();
    const q = (e: TableEnvironment) => e.from('nums').filter(col('g').ne(3)).select('k', 's', 'n');
    const t = q(env).cache();
    await t.count();
    const got = await t.select(min('s').as('lo'), max('n').as('hi')).collect();
    const want = await q(plain).select(min('s').as('lo'), max('n').as('hi')).collect();
    expect(got.toArray().map((r) => r.toJSON())).toEqual(want.toArray().map((r) => r.toJSON()));
    expect(await t.select(min('s').as('lo'), max('n').as('hi')).explain()).toMatch(/statistic/i);
    for (const b of blocksOf(t)) expect(lazy(b).computed).toBe(2); // s and n, not k
  });

  it('a block that spills has every column computed first; pruning then skips spilled blocks without reading them', async () => {
    await setup({ cache: { memoryBudgetBytes: 4096 } });
    const q = (e: TableEnvironment) => e.from('nums').select('k', 'g', 'v', 's', 'n');
    const t = q(env).cache();
    await t.count();
    const blocks = blocksOf(t);
    const e = env.cacheManager.entryById(env.cacheManager.idFor(t.plan))!;
    const inst = env.cacheManager.instances[e.partitions[0]!.instance]!;
    const onDisk = blocks.filter((b) => inst.tierOf(b.key) === 'disk');
    expect(onDisk.length).toBeGreaterThan(5);
    for (const b of onDisk) {
      expect(lazy(b).computed).toBe(WIDTH);
      const eager = blockStats(inst.get(b.key, e.store)!);
      for (let i = 0; i < WIDTH; i++) expect(b.stats.column(i)).toEqual(eager.columns[i]);
    }
    const reads0 = inst.diskReads;
    const before = env.cacheManager.stats();
    await expectSameRows(t.filter(col('k').lt(150)), q(plain).filter(col('k').lt(150)));
    const after = env.cacheManager.stats();
    expect(after.blocksRead - before.blocksRead).toBeLessThanOrEqual(2);
    expect(inst.diskReads - reads0).toBeLessThanOrEqual(2);
  });

  it('a killed instance: statistics never computed prove nothing, and the query recomputes the right answer', async () => {
    await setup();
    const q = (e: TableEnvironment) => e.from('nums').filter(col('g').ne(3)).select('k', 'v');
    const t = q(env).cache();
    await t.count();
    const blocks = blocksOf(t);
    for (const i of env.cacheManager.instances) i.kill();
    expect(blocks.every((b) => b.stats.column(0) === undefined)).toBe(true);
    await expectSameRows(t.filter(col('k').ge(1500)), q(plain).filter(col('k').ge(1500)));
    expect(env.cacheManager.stats().lost).toBeGreaterThan(0);
  });
});

/**
 * Failover (CACHE-SEMANTICS.md C14) and fault injection: cache instances
 * killed before, during and after materialization, spill files deleted or
 * corrupted. The answer is always right; a loss is recorded as an event and
 * the entry is re-created; a second loss in the same query is an error.
 */
import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment, type EnvironmentOptions } from '../../src/api/environment.js';
import { col, countStar, sum } from '../../src/api/expr.js';
import { CacheError } from '../../src/relnode/errors.js';
import { CacheLostError } from '../../src/cache/errors.js';
import { expectSameRows, filesUnder, numsTable, registerProbed, type Probe } from './helpers.js';

let env: TableEnvironment;
let plain: TableEnvironment;
let probe: Probe;
afterEach(async () => { await env.close(); await plain.close(); });

async function setup(options: EnvironmentOptions = {}): Promise<void> {
  // batchSize 100: one block per source batch (the sink coalesces smaller batches up to the batch size), so losses can hit a partition between blocks.
  env = TableEnvironment.create({ parallelism: 2, batchSize: 100, ...options, cache: { instances: 2, ...options.cache } });
  probe = { scans: 0, batches: 0 };
  registerProbed(env, 'nums', await numsTable(env, 10, 100), probe);
  plain = TableEnvironment.create();
  plain.registerTable('nums', await numsTable(plain, 10, 100));
}

const agg = (e: TableEnvironment) => e.from('nums').filter(col('g').lt(5)).groupBy('g').select('g', sum('v').as('sv'), countStar().as('c'));
const rows = (e: TableEnvironment) => e.from('nums').filter(col('g').lt(5)).select('k', 'g', 'v', 's');

function lostEvents(): number {
  return env.cacheManager.events().filter((e) => e.kind === 'lost').length;
}

function stateOf(id: string): string | undefined {
  return env.cacheManager.list().find((e) => e.id === id)?.state;
}

describe('C14 lost partition', () => {
  it('C14: an instance killed after materialization: right answer, a lost event, the entry re-created', async () => {
    await setup();
    const t = rows(env).cache();
    const id = env.cacheManager.idFor(t.plan);
    await t.count();
    env.cacheManager.instances[1]!.kill();
    expect(env.cacheManager.list()[0]!.tier).toBe('lost');
    const scans = probe.scans;
    await expectSameRows(rows(env), rows(plain));
    expect(probe.scans).toBeGreaterThan(scans); // fell back to the original plan
    expect(env.cacheManager.stats().lost).toBe(1);
    expect(env.cacheManager.events().find((e) => e.kind === 'lost')).toMatchObject({ entryId: id, detail: expect.stringMatching(/on instance 1 is gone/) });
    expect(stateOf(id)).toBe('materialized'); // re-created by the same query
    expect(env.cacheManager.list()[0]).toMatchObject({ losses: 1, tier: 'memory' });
    const again = probe.scans;
    await expectSameRows(agg(env), agg(plain));
    await t.count();
    expect(probe.scans).toBe(again + 10); // agg is not cached (10 scans); t reads the re-created entry
  });

  it('C14: a deleted spill file: right answer, a lost event, the entry re-created', async () => {
    await setup({ cache: { memoryBudgetBytes: 4096 } });
    const t = rows(env).cache();
    await t.count();
    const files = filesUnder(env.cacheManager.spillDirectory);
    expect(files.length).toBeGreaterThan(0);
    writeFileSync(files[0]!, ''); // truncate one…
    const { unlinkSync } = await import('node:fs');
    unlinkSync(files[files.length - 1]!); // …and delete another
    await expectSameRows(t, rows(plain));
    expect(env.cacheManager.stats().lost).toBeGreaterThanOrEqual(1);
    expect(stateOf(env.cacheManager.idFor(t.plan))).toBe('materialized');
    await expectSameRows(t, rows(plain));
  });

  it('C14: a corrupt spill file found while reading (mid-query) is recovered by re-running', async () => {
    await setup({ cache: { memoryBudgetBytes: 2048 } });
    const t = rows(env).cache();
    await t.count();
    const files = filesUnder(env.cacheManager.spillDirectory);
    writeFileSync(files[files.length - 1]!, 'not an arrow file at all');
    await expectSameRows(t.filter(col('k').ge(0)), rows(plain));
    expect(env.cacheManager.events().filter((e) => e.kind === 'lost').map((e) => e.detail)).toEqual([expect.stringMatching(/spill file of partition \d \(batch \d+\) on instance \d is unreadable/)]);
  });

  it('C14: an instance killed while the query reads the cache (between batches) is recovered by re-running', async () => {
    await setup();
    const t = rows(env).cache();
    await t.count();
    let reads = 0;
    env.cacheManager.hooks.beforeRead = (info) => { if (++reads === 3) env.cacheManager.instances[info.instance]!.kill(); };
    await expectSameRows(t.select('k', 's'), rows(plain).select('k', 's'));
    expect(lostEvents()).toBe(1);
    expect(stateOf(env.cacheManager.idFor(t.plan))).toBe('materialized');
  });

  it('C14: a second loss in the same query is an error that says what happened', async () => {
    await setup();
    const m = rows(env).cache(); // 2 partitions: instances 0 and 1
    const s = env.from('nums').filter(col('k').lt(50)).select('k', 'g', 'v', 's').cache();
    await m.count();
    await s.count();
    expect(env.cacheManager.entryById(env.cacheManager.idFor(s.plan))!.partitions.map((p) => p.instance)).toEqual([0, 1]);
    // First run: lose m's partition on instance 1 mid-query. Re-run: lose whatever is read next.
    env.cacheManager.hooks.beforeRead = (info) => {
      const lost = env.cacheManager.stats().lost;
      if (lost === 0 && info.entryId === env.cacheManager.idFor(m.plan) && info.instance === 1) env.cacheManager.instances[1]!.kill();
      else if (lost >= 1) env.cacheManager.instances[info.instance]!.kill();
    };
    const q = m.unionAll(s).filter(col('k').ge(0));
    const err = await q.count().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CacheError);
    expect((err as Error).message).toMatch(/^the query lost cached data twice: first cache entry c[0-9a-f]+ is lost: partition 1 \(batch \d+\) on instance 1 is gone .*; then, re-running it without that entry, cache entry c[0-9a-f]+ is lost: .* It was not retried again/);
    expect((err as Error & { cause?: unknown }).cause).toBeInstanceOf(CacheLostError);
    // It does not loop, and nothing half-written remains; the next query works.
    env.cacheManager.hooks.beforeRead = undefined;
    expect(env.cacheManager.stats().writing).toBe(0);
    await expectSameRows(q, rows(plain).unionAll(plain.from('nums').filter(col('k').lt(50)).select('k', 'g', 'v', 's')).filter(col('k').ge(0)));
  });

  it('C14: a loss after part of a stream was consumed is an error (it cannot be re-run transparently), and the entry is re-created later', async () => {
    await setup();
    const t = rows(env).cache();
    await t.count();
    let reads = 0;
    env.cacheManager.hooks.beforeRead = (info) => { if (++reads === 4) env.cacheManager.instances[info.instance]!.kill(); };
    const got: number[] = [];
    await expect((async () => { for await (const b of t.stream()) got.push(b.numRows); })()).rejects.toThrow(/after part of the result was already streamed/);
    expect(got.length).toBeGreaterThan(0);
    env.cacheManager.hooks.beforeRead = undefined;
    await expectSameRows(t, rows(plain));
    expect(stateOf(env.cacheManager.idFor(t.plan))).toBe('materialized');
  });
});

describe('invalidation racing a reader', () => {
  it('an entry invalidated while a query reads it: the query re-runs from the sources, and no loss is recorded', async () => {
    await setup();
    const t = rows(env).cache();
    await t.count();
    let reads = 0;
    env.cacheManager.hooks.beforeRead = () => { if (++reads === 2) void t.invalidateCache(); };
    await expectSameRows(t.select('k'), rows(plain).select('k'));
    expect(env.cacheManager.stats().lost).toBe(0);
    expect(stateOf(env.cacheManager.idFor(t.plan))).toBe('materialized'); // the re-run re-created it
  });
});

describe('fault injection during materialization', () => {
  it('an instance killed before the first run: nothing to lose, the entry is written normally', async () => {
    await setup();
    env.cacheManager.instances[0]!.kill();
    const t = rows(env).cache();
    await expectSameRows(t, rows(plain));
    expect(env.cacheManager.stats()).toMatchObject({ entries: 1, lost: 0 });
  });

  it('an instance killed while the entry is being written (between source batches): right answer, entry not committed, re-created next time', async () => {
    await setup();
    const t = rows(env).cache();
    probe.onBatch = (n) => { if (n === 7) env.cacheManager.instances[0]!.kill(); };
    await expectSameRows(t, rows(plain));
    expect(env.cacheManager.stats()).toMatchObject({ entries: 0, writing: 0 });
    expect(env.cacheManager.events().find((e) => e.kind === 'lost')!.detail).toMatch(/^not committed: partition 0 \(batch \d+\) on instance 0 was lost while it was written/);
    for (const i of env.cacheManager.instances) expect(i.blockCount()).toBe(0);
    probe.onBatch = undefined;
    await expectSameRows(t, rows(plain));
    expect(env.cacheManager.stats().entries).toBe(1);
  });

  it('an instance killed from an operator callback while a query reads one cache and writes another', async () => {
    await setup();
    const inner = rows(env).cache();
    await inner.count();
    const outer = inner.groupBy('g').select('g', countStar().as('c')).cache();
    env.cacheManager.hooks.beforeRead = (info) => { if (info.block === 1) env.cacheManager.instances[info.instance]!.kill(); };
    await expectSameRows(outer, agg(plain).select('g', 'c'));
    env.cacheManager.hooks.beforeRead = undefined;
    expect(lostEvents()).toBeGreaterThanOrEqual(1);
    expect(env.cacheManager.stats().writing).toBe(0);
    await expectSameRows(outer, agg(plain).select('g', 'c'));
    expect(env.cacheManager.list().filter((e) => e.state === 'materialized')).toHaveLength(2);
  });
});

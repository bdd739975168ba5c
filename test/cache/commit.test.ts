/**
 * Commit and single flight (CACHE-SEMANTICS.md C6, C7): a failed or
 * cancelled query leaves no entry and no data behind and is not remembered;
 * concurrent queries needing one unmaterialized cache compute it once.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/environment.js';
import { col, lit } from '../../src/api/expr.js';
import { CancelledError, ExecutionError } from '../../src/relnode/errors.js';
import { filesUnder, numsTable, registerProbed, type Probe } from './helpers.js';

let env: TableEnvironment;
let probe: Probe;

async function setup(options: Parameters<typeof TableEnvironment.create>[0] = {}): Promise<void> {
  env = TableEnvironment.create({ parallelism: 2, ...options });
  probe = { scans: 0, batches: 0 };
  registerProbed(env, 'nums', await numsTable(env), probe);
}

beforeEach(async () => { await setup(); });
afterEach(async () => { await env.close(); });

const cached = () => env.from('nums').filter(col('g').lt(5)).select('k', 'g', 's');

/** Nothing of any write is left: no entry, no write in flight, no blocks, no bytes, no spill files. */
function expectNothingLeft(): void {
  expect(env.cacheManager.stats()).toMatchObject({ entries: 0, writing: 0, memoryBytes: 0, diskBytes: 0 });
  for (const i of env.cacheManager.instances) expect(i.blockCount()).toBe(0);
  expect(filesUnder(env.cacheManager.spillDirectory)).toEqual([]);
}

describe('C6 commit is atomic', () => {
  it('C6: a query failing in an operator (a bad CAST on the data) after the sink wrote batches leaves no entry', async () => {
    const t = cached().cache();
    // 'name00042' cannot be cast to INTEGER: the filter above the cached subtree throws on its first batch.
    const failing = t.filter(col('s').cast('INTEGER').gt(lit(0)));
    await expect(failing.count()).rejects.toThrow(ExecutionError);
    await expect(failing.count()).rejects.toThrow(/could not convert string 'name/);
    expect(env.cacheManager.stats().misses).toBe(2); // the sink ran (twice) and wrote batches
    expectNothingLeft();
    // The failure is not remembered: the next query writes the entry.
    expect(await t.count()).toBe(715);
    expect(env.cacheManager.stats()).toMatchObject({ entries: 1, writing: 0 });
  });

  it('C6: a failure inside the cached subtree itself leaves nothing either', async () => {
    const bad = env.from('nums').filter(col('s').cast('INTEGER').gt(lit(0))).cache();
    await expect(bad.count()).rejects.toThrow(/could not convert/);
    expectNothingLeft();
  });

  it('C6: a query cancelled while writing a cache (some batches spilled) leaves nothing behind', async () => {
    await env.close();
    await setup({ cache: { memoryBudgetBytes: 4096 } });
    const t = cached().cache();
    const ctrl = new AbortController();
    probe.onBatch = (n) => { if (n === 6) ctrl.abort(); };
    await expect(t.collect({ signal: ctrl.signal })).rejects.toThrow(CancelledError);
    expect(env.cacheManager.stats().misses).toBe(1); // the sink ran and wrote (and spilled) batches
    expectNothingLeft();
    probe.onBatch = undefined;
    expect(await t.count()).toBe(715);
    expect(env.cacheManager.stats().entries).toBe(1);
    expect(env.cacheManager.stats().diskBytes).toBeGreaterThan(0);
  });

  it('C6: a consumer that stops streaming early leaves no entry (the result was not complete)', async () => {
    const t = cached().cache();
    for await (const _ of t.stream()) break;
    expectNothingLeft();
    expect(await t.count()).toBe(715);
    expect(env.cacheManager.stats().entries).toBe(1);
  });

  it('C6: a LIMIT above the cached subtree still caches the whole subtree', async () => {
    const t = cached().cache();
    expect((await t.limit(3).toArray()).length).toBe(3);
    expect(env.cacheManager.list()[0]).toMatchObject({ state: 'materialized', rows: 715 });
    expect(await t.count()).toBe(715);
  });
});

describe('C7 single flight', () => {
  it('C7: two concurrent queries needing the same unmaterialized cache compute it once', async () => {
    probe.delayMs = 2;
    const t = cached().cache();
    const [n, m] = await Promise.all([t.count(), t.max('k')]);
    expect([n, m]).toEqual([715, 998]);
    expect(env.cacheManager.stats()).toMatchObject({ entries: 1, misses: 1, hits: 1 });
    expect(probe.scans).toBe(10); // one scan of each of the 10 partitions: computed once
  });

  it('C7: five concurrent queries over two shared caches: each computed once', async () => {
    probe.delayMs = 1;
    const a = cached().cache();
    const b = a.filter(col('k').gt(500)).cache();
    const results = await Promise.all([a.count(), b.count(), a.max('k'), b.min('k'), a.count()]);
    expect(results).toEqual([715, 356, 998, 501, 715]);
    expect(env.cacheManager.stats()).toMatchObject({ entries: 2, misses: 2 });
    expect(probe.scans).toBe(10);
  });

  it('C7: when the writing query fails, the waiting query writes the entry itself', async () => {
    probe.delayMs = 2;
    const t = cached().cache();
    const failing = t.filter(col('s').cast('INTEGER').gt(lit(0))).count();
    const waiting = t.count();
    await expect(failing).rejects.toThrow(/could not convert/);
    expect(await waiting).toBe(715);
    expect(env.cacheManager.stats()).toMatchObject({ entries: 1, misses: 2 });
  });

  it('C7: a waiting query can be cancelled', async () => {
    probe.delayMs = 5;
    const t = cached().cache();
    const writer = t.count();
    const ctrl = new AbortController();
    const waiter = t.collect({ signal: ctrl.signal });
    setTimeout(() => ctrl.abort(), 5);
    await expect(waiter).rejects.toThrow(CancelledError);
    expect(await writer).toBe(715);
    expect(env.cacheManager.stats().entries).toBe(1);
  });
});

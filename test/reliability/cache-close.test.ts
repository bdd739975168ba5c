/**
 * `env.close()` cancels running queries and waits for them before it
 * releases storage (issue 11); a query started after close fails clearly.
 */
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/environment.js';
import { col } from '../../src/api/expr.js';
import { CancelledError, EddyError } from '../../src/relnode/errors.js';
import { numsTable, registerProbed, type Probe } from '../cache/helpers.js';

let env: TableEnvironment;
afterEach(async () => { await env.close(); });

async function slowEnv(onBatch?: (n: number) => void): Promise<Probe> {
  // batchSize 50: every source batch is a block (the cache sink coalesces smaller batches up to the batch size), so the write spills while it runs.
  env = TableEnvironment.create({ batchSize: 50, cache: { instances: 1, memoryBudgetBytes: 2048 } });
  const probe: Probe = { scans: 0, batches: 0, delayMs: 15, ...(onBatch ? { onBatch } : {}) };
  registerProbed(env, 'nums', await numsTable(env, 60, 50), probe);
  return probe;
}

describe('env.close() with running queries', () => {
  it('cancels a running query (which says why) and settles after it stopped, releasing its cache write and spill files', async () => {
    let closing: Promise<void> | undefined;
    let closedAt = 0;
    const probe = await slowEnv((n) => { if (n === 10) { closing = env.close().then(() => { closedAt = performance.now(); }); } });
    const t = env.from('nums').filter(col('k').ge(0)).cache();
    const err = await t.count().catch((e: unknown) => e);
    const failedAt = performance.now();
    expect(err).toBeInstanceOf(CancelledError);
    expect((err as Error).message).toMatch(/the TableEnvironment was closed while it ran/);
    expect(closing).toBeDefined();
    await closing;
    expect(closedAt).toBeGreaterThanOrEqual(failedAt - 1); // close waited for the query
    // It did not run to the end: close came at batch 10 of 60. Counted in batches, not milliseconds (the
    // whole run is 60 × 15 ms, which a loaded machine's cancelled run could exceed).
    expect(probe.batches).toBeLessThan(30);
    expect(env.runningQueries).toBe(0);
    expect(env.cacheManager.stats()).toMatchObject({ entries: 0, writing: 0, memoryBytes: 0, diskBytes: 0 });
    expect(env.cacheManager.spillDirectory).toBeUndefined();
  });

  it('keeps the spill directory until the cancelled query ended, then removes it', async () => {
    let dir: string | undefined;
    let closing: Promise<void> | undefined;
    await slowEnv((n) => { if (n === 20) { dir = env.cacheManager.spillDirectory; closing = env.close(); } });
    const t = env.from('nums').filter(col('k').ge(0)).cache();
    await expect(t.count()).rejects.toThrow(CancelledError);
    await closing;
    expect(dir).toBeDefined();
    expect(existsSync(dir!)).toBe(false);
  });

  it('a query started after close fails at once with a clear error', async () => {
    await slowEnv();
    const t = env.from('nums');
    await env.close();
    await expect(t.count()).rejects.toThrow(/this TableEnvironment is closed; create a new one/);
    await expect(env.executeSql('SELECT 1')).rejects.toThrow(EddyError);
    expect(() => env.from('nums')).toThrow(/closed/);
  });

  it('does not wait for a stream whose consumer stopped pulling; its next pull fails', async () => {
    await slowEnv();
    const it = env.from('nums').filter(col('k').ge(0)).stream()[Symbol.asyncIterator]();
    expect((await it.next()).done).toBe(false);
    expect(env.runningQueries).toBe(1);
    const t0 = performance.now();
    await env.close();
    expect(performance.now() - t0).toBeLessThan(500);
    await expect(it.next()).rejects.toThrow(/the TableEnvironment was closed while it ran/);
    expect(env.runningQueries).toBe(0);
  });

  it("the caller's own abort still reads as a plain cancellation", async () => {
    const ac = new AbortController();
    await slowEnv((n) => { if (n === 3) ac.abort(); });
    const err = await env.from('nums').count({ signal: ac.signal }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CancelledError);
    expect((err as Error).message).not.toMatch(/closed/);
    expect(env.runningQueries).toBe(0);
  });
});

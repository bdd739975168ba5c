/**
 * The cache's disk budget (issue 11: one cache() of a cross join wrote 6.1 GB
 * of spill files and a test run filled the disk). Spill files never exceed
 * the budget: a spill that would is not written, the block is dropped as
 * under MEMORY_ONLY with a 'dropped' event, and queries still answer. Spill
 * directories of dead processes are removed by the next process that spills.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TableEnvironment } from '../../src/api/environment.js';
import { col } from '../../src/api/expr.js';
import { DEFAULT_DISK_CAP, defaultDiskBudget } from '../../src/cache/storage.js';
import { OWNER_FILE, sweepStaleSpillDirs } from '../../src/cache/spill-dirs.js';
import { ValidationError } from '../../src/relnode/errors.js';
import { filesUnder } from '../cache/helpers.js';

let env: TableEnvironment | undefined;
let parent: string | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
  if (parent !== undefined) rmSync(parent, { recursive: true, force: true });
  parent = undefined;
});

const N = 4000;

function setup(diskBudgetBytes: number | undefined): TableEnvironment {
  parent = mkdtempSync(join(tmpdir(), 'eddy-disk-budget-'));
  const e = TableEnvironment.create({
    batchSize: 100, cache: { instances: 2, memoryBudgetBytes: 2048, spillDir: parent, ...(diskBudgetBytes !== undefined ? { diskBudgetBytes } : {}) },
  });
  e.registerTable('nums', e.fromRecords(Array.from({ length: N }, (_, k) => ({ k, s: `row ${k}` })), { k: 'INTEGER', s: 'VARCHAR' }));
  return e;
}

/** Bytes of the files under `dir` (files removed meanwhile by an asynchronous release count 0). */
function bytesOnDisk(dir: string | undefined): number {
  let files: string[];
  try { files = filesUnder(dir); } catch { return bytesOnDisk(dir); } // a file vanished while listing: list again
  return files.reduce((n, f) => { try { return n + statSync(f).size; } catch { return n; } }, 0);
}

describe('disk budget', () => {
  it('spill files stay within a tiny budget; the rest is dropped with an event, and answers stay right', async () => {
    const budget = 6000;
    env = setup(budget);
    let largest = 0;
    env.cacheManager.hooks.onEvict = () => { largest = Math.max(largest, bytesOnDisk(env!.cacheManager.spillDirectory)); };
    const t = env.from('nums').filter(col('k').ge(0)).cache();
    expect(await t.count()).toBe(N);
    expect(await t.sum('k')).toBe(BigInt((N * (N - 1)) / 2));
    expect(largest).toBeGreaterThan(0); // something was spilled…
    expect(largest).toBeLessThanOrEqual(budget); // …but never past the budget
    expect(env.cacheManager.diskUsage()).toMatchObject({ budgetBytes: budget });
    expect(env.cacheManager.diskUsage().usedBytes).toBeLessThanOrEqual(budget);
    const dropped = env.cacheManager.events().filter((e) => e.kind === 'dropped');
    expect(dropped.length).toBeGreaterThan(0);
    expect(dropped[0]!.detail).toMatch(/dropped instead of spilled: the disk budget of 6000 bytes would be exceeded/);
    // The incomplete write is not committed: the mark stays, queries fall back to the sources.
    expect(env.cacheManager.stats().entries).toBe(0);
    expect(await t.filter(col('k').lt(10)).count()).toBe(10);
  });

  it('a write that lost a block to the budget stops storing and frees what it wrote', async () => {
    env = setup(6000);
    const log: { key: string; outcome: string }[] = [];
    env.cacheManager.hooks.onEvict = (e) => { log.push({ key: e.key, outcome: e.outcome }); };
    const t = env.from('nums').filter(col('k').ge(0)).cache();
    expect(await t.count()).toBe(N);
    const firstDrop = log.findIndex((x) => x.outcome === 'dropped');
    expect(firstDrop).toBeGreaterThan(0);
    expect(log.slice(firstDrop + 1).filter((x) => x.outcome === 'spilled')).toEqual([]);
    expect(log.length - firstDrop).toBeLessThan(5); // nothing more was stored after the drop
    // Spill files are deleted asynchronously (SpillArea.remove): under load the unlinks may still be in flight here.
    await vi.waitFor(() => expect(bytesOnDisk(env!.cacheManager.spillDirectory)).toBe(0), { timeout: 5000, interval: 20 });
    expect(env.cacheManager.stats()).toMatchObject({ entries: 0, writing: 0, memoryBytes: 0, diskBytes: 0 });
  });

  it('a budget of 0 never writes a spill file', async () => {
    env = setup(0);
    const t = env.from('nums').filter(col('k').ge(0)).cache();
    expect(await t.count()).toBe(N);
    expect(bytesOnDisk(env.cacheManager.spillDirectory)).toBe(0);
    expect(env.cacheManager.events().some((e) => e.kind === 'dropped')).toBe(true);
  });

  it('within the budget, spilling works as before', async () => {
    env = setup(10 * 1024 * 1024);
    const t = env.from('nums').filter(col('k').ge(0)).cache();
    expect(await t.count()).toBe(N);
    expect(env.cacheManager.stats().entries).toBe(1);
    expect(bytesOnDisk(env.cacheManager.spillDirectory)).toBeGreaterThan(0);
    expect(env.cacheManager.diskUsage().usedBytes).toBe(bytesOnDisk(env.cacheManager.spillDirectory));
    await t.invalidateCache();
    expect(env.cacheManager.diskUsage().usedBytes).toBe(0);
  });

  it('the default is a quarter of the free space, capped; bad values are refused', () => {
    expect(defaultDiskBudget(4000)).toBe(1000);
    expect(defaultDiskBudget(1e15)).toBe(DEFAULT_DISK_CAP);
    expect(defaultDiskBudget(undefined)).toBe(DEFAULT_DISK_CAP);
    expect(() => TableEnvironment.create({ cache: { diskBudgetBytes: -1 } })).toThrow(ValidationError);
    expect(() => TableEnvironment.create({ cache: { diskBudgetBytes: Number.NaN } })).toThrow(/cache.diskBudgetBytes/);
  });
});

describe('spill directories of dead processes', () => {
  function fakeDir(base: string, name: string, owner: object | undefined): string {
    const d = join(base, name);
    mkdirSync(join(d, 'instance-0'), { recursive: true });
    writeFileSync(join(d, 'instance-0', 'x.arrow'), Buffer.alloc(1000));
    if (owner !== undefined) writeFileSync(join(d, OWNER_FILE), JSON.stringify(owner));
    return d;
  }

  it('are removed by the next process that starts an environment; live, foreign-host and fresh unowned ones stay', async () => {
    parent = mkdtempSync(join(tmpdir(), 'eddy-stale-'));
    const child = spawnSync(process.execPath, ['-e', '0']);
    const deadPid = child.pid!;
    const dead = fakeDir(parent, 'eddy-cache-dead01', { pid: deadPid, host: hostname() });
    const alive = fakeDir(parent, 'eddy-cache-live01', { pid: process.ppid, host: hostname() });
    const foreign = fakeDir(parent, 'eddy-cache-other1', { pid: deadPid, host: `${hostname()}-elsewhere` });
    const fresh = fakeDir(parent, 'eddy-cache-fresh1', undefined);
    const unrelated = fakeDir(parent, 'not-eddy-dead01', { pid: deadPid, host: hostname() });
    const e = TableEnvironment.create({ batchSize: 100, cache: { instances: 1, memoryBudgetBytes: 1024, spillDir: parent } });
    env = e;
    expect(existsSync(dead)).toBe(false); // swept when the environment was created
    e.registerTable('nums', e.fromRecords(Array.from({ length: 1000 }, (_, k) => ({ k })), { k: 'INTEGER' }));
    expect(await e.from('nums').filter(col('k').ge(0)).cache().count()).toBe(1000);
    expect(e.cacheManager.spillDirectory).toBeDefined();
    expect([existsSync(dead), existsSync(alive), existsSync(foreign), existsSync(fresh), existsSync(unrelated)]).toEqual([false, true, true, true, true]);
    // Its own directory names this process as its owner.
    expect(JSON.parse(await import('node:fs').then((f) => f.readFileSync(join(e.cacheManager.spillDirectory!, OWNER_FILE), 'utf8')))).toMatchObject({ pid: process.pid, host: hostname() });
    // An unowned directory older than ten minutes counts as stale.
    const old = new Date(Date.now() - 11 * 60 * 1000);
    const { utimesSync } = await import('node:fs');
    utimesSync(fresh, old, old);
    expect(sweepStaleSpillDirs(parent)).toEqual([fresh]);
  });
});

/**
 * Plans over cache entries reused under the cache manager's version
 * (api/physical-plans.ts): a SQL text run again over a cached table skips
 * planning, counts its cache hits, and still sees a lost partition (before
 * the run or while reading), an invalidation, a new mark and changed data.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/environment.js';
import { physicalPlanStats } from '../../src/api/physical-plans.js';

const envs: TableEnvironment[] = [];
afterEach(async () => { for (const e of envs.splice(0)) await e.close(); });

/** `t`: 1,000 rows in batches of 100 (a cache block each), over 2 partitions on 2 instances. */
async function makeEnv(): Promise<TableEnvironment> {
  const env = TableEnvironment.create({ parallelism: 2, batchSize: 100, cache: { instances: 2 } });
  envs.push(env);
  env.registerTable('t', env.fromRecords(Array.from({ length: 1000 }, (_, i) => ({ a: i, g: i % 4, d: i % 9 === 0 ? null : i * 0.5 })), { a: 'INTEGER', g: 'INTEGER', d: 'DOUBLE' }));
  await env.executeSql('CACHE TABLE c AS SELECT a, g, d FROM t WHERE a >= 100');
  return env;
}

const GROUPED = 'SELECT g, sum(a) AS s, count(d) AS n FROM c GROUP BY g ORDER BY g';
const WANT = [0, 1, 2, 3].map((g) => {
  let s = 0;
  let n = 0;
  for (let i = 100; i < 1000; i++) if (i % 4 === g) { s += i; if (i % 9 !== 0) n++; }
  return { g, s: BigInt(s), n: BigInt(n) };
});
const MAX = 'SELECT max(d) AS m, count(*) AS n FROM c';

async function rows(env: TableEnvironment, sql: string): Promise<unknown[]> {
  return (await env.sql(sql).toArray()).map((r) => ({ ...r }));
}

describe('plans over cache entries are reused while the cache manager is unchanged', () => {
  it('a text run again reuses its plan and counts a cache hit per run', async () => {
    const env = await makeEnv();
    for (let i = 0; i < 2; i++) expect(await rows(env, GROUPED)).toEqual(WANT); // planned twice: kept at the second
    const hits = physicalPlanStats.hits;
    const cacheHits = env.cacheManager.stats().hits;
    for (let i = 0; i < 3; i++) expect(await rows(env, GROUPED)).toEqual(WANT);
    expect(physicalPlanStats.hits).toBe(hits + 3);
    expect(env.cacheManager.stats().hits).toBe(cacheHits + 3);
    for (let i = 0; i < 3; i++) expect(await rows(env, MAX)).toEqual([{ m: 499, n: 900n }]);
    expect(physicalPlanStats.hits).toBe(hits + 4); // MAX: planned, kept, reused
  });

  it('an instance killed between reused runs: the right answer, a lost event, the entry re-created', async () => {
    const env = await makeEnv();
    for (let i = 0; i < 3; i++) { expect(await rows(env, GROUPED)).toEqual(WANT); expect(await rows(env, MAX)).toEqual([{ m: 499, n: 900n }]); }
    env.cacheManager.instances[0]!.kill();
    expect(await rows(env, MAX)).toEqual([{ m: 499, n: 900n }]); // answered from statistics: the blocks are still checked
    expect(env.cacheManager.stats().lost).toBe(1);
    expect(await rows(env, GROUPED)).toEqual(WANT);
    expect(env.cacheManager.list()[0]).toMatchObject({ state: 'materialized', losses: 1 });
    expect(env.cacheManager.stats().lost).toBe(1);
  });

  it('an instance killed while a reused plan reads: re-run from the sources', async () => {
    const env = await makeEnv();
    for (let i = 0; i < 3; i++) expect(await rows(env, GROUPED)).toEqual(WANT);
    let reads = 0;
    env.cacheManager.hooks.beforeRead = (info) => { if (++reads === 3) env.cacheManager.instances[info.instance]!.kill(); };
    const hits = physicalPlanStats.hits;
    expect(await rows(env, GROUPED)).toEqual(WANT);
    expect(physicalPlanStats.hits).toBe(hits + 1); // the reused plan found the loss
    expect(env.cacheManager.events().filter((e) => e.kind === 'lost')).toHaveLength(1);
    env.cacheManager.hooks.beforeRead = undefined;
    expect(await rows(env, GROUPED)).toEqual(WANT);
  });

  it('UNCACHE, a new cache and changed data plan again', async () => {
    const env = await makeEnv();
    for (let i = 0; i < 3; i++) expect(await rows(env, MAX)).toEqual([{ m: 499, n: 900n }]);
    const explain = async (): Promise<string> => (await env.executeSql(`EXPLAIN ${MAX}`) as { message?: string; table?: { toArray(): unknown[] } }).table?.toArray().map((r) => Object.values({ ...(r as object) }).join(' ')).join('\n') ?? '';
    expect(await explain()).toMatch(/answered from the statistics/);
    await env.executeSql('UNCACHE TABLE c');
    await env.executeSql('CACHE TABLE c AS SELECT a, g, d FROM t WHERE a >= 500');
    expect(await rows(env, MAX)).toEqual([{ m: 499, n: 500n }]);
    await env.executeSql('INSERT INTO t VALUES (5000, 1, 2500.5)');
    expect(await rows(env, MAX)).toEqual([{ m: 2500.5, n: 501n }]);
    expect(await rows(env, MAX)).toEqual([{ m: 2500.5, n: 501n }]);
  });
});

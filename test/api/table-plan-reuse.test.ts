/**
 * Plan reuse for Table API trees (src/api/physical-plans.ts, relnode/identical.ts): each call of
 * `b.groupBy(...).select(...)` builds new node objects, so a kept plan is found by the tree's
 * digest and confirmed by `identical` (same rows, same names). A plan must not be reused for a
 * tree that differs only in names or in an expression's operand order, nor after the cache, the
 * tables or the settings changed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { col, countStar, sum, TableEnvironment, type Table } from '../../src/index.js';
import { physicalPlanStats } from '../../src/api/physical-plans.js';

const envs: TableEnvironment[] = [];
afterEach(async () => { for (const e of envs.splice(0)) await e.close(); });

const ROWS = Array.from({ length: 200 }, (_, i) => ({ a: i, g: ['x', 'y', 'z'][i % 3]!, v: i * 0.5 }));

function makeEnv(rows = ROWS): TableEnvironment {
  const env = TableEnvironment.create({ parallelism: 1, batchSize: 32 });
  envs.push(env);
  env.registerTable('t', env.fromRecords(rows, { a: 'INTEGER', g: 'VARCHAR', v: 'DOUBLE' }));
  return env;
}

/** Per g: sum(v) and count(*), as the query under test computes them. */
function want(rows: typeof ROWS, names = { s: 's', n: 'n' }): Record<string, unknown>[] {
  const m = new Map<string, { s: number; n: bigint }>();
  for (const r of rows) { const e = m.get(r.g) ?? { s: 0, n: 0n }; e.s += r.v; e.n++; m.set(r.g, e); }
  return [...m.keys()].sort().map((g) => ({ g, [names.s]: m.get(g)!.s, [names.n]: m.get(g)!.n }));
}

const grouped = (b: Table, s = 's', n = 'n'): Table => b.groupBy('g').select('g', sum('v').as(s), countStar().as(n)).orderBy('g');
const plain = async (t: Table): Promise<Record<string, unknown>[]> => (await t.toArray()).map((r) => ({ ...r }));

describe('Table API trees reuse plans by structure', () => {
  it('a new tree equal to one run twice reuses the kept plan and counts a cache hit', async () => {
    const env = makeEnv();
    const b = env.from('t').filter(col('a').ge(10)).cache();
    const rows = ROWS.filter((r) => r.a >= 10);
    // Writes the entry (a plan with a cache sink is never kept); reads it, planned; reads it, kept.
    for (let i = 0; i < 3; i++) expect(await plain(grouped(b))).toEqual(want(rows));
    const { hits, byStructure } = physicalPlanStats;
    const cacheHits = env.cacheManager.stats().hits;
    for (let i = 0; i < 3; i++) expect(await plain(grouped(b))).toEqual(want(rows));
    expect(physicalPlanStats.hits - hits).toBe(3);
    expect(physicalPlanStats.byStructure - byStructure).toBe(3);
    expect(env.cacheManager.stats().hits - cacheHits).toBe(3);
  });

  it('trees differing only in output names do not share a plan (EXPLAIN ANALYZE names its own columns)', async () => {
    const env = makeEnv();
    const b = env.from('t').cache();
    for (let i = 0; i < 3; i++) expect(await plain(grouped(b))).toEqual(want(ROWS));
    const { byStructure } = physicalPlanStats;
    expect(await plain(grouped(b, 'total', 'lines'))).toEqual(want(ROWS, { s: 'total', n: 'lines' }));
    expect(physicalPlanStats.byStructure).toBe(byStructure); // planned (its digest was seen: kept)
    const text = await grouped(b, 'total', 'lines').explain({ analyze: true });
    expect(physicalPlanStats.byStructure).toBe(byStructure + 1); // its own kept plan
    expect(text).toMatch(/total/);
    expect(text).not.toMatch(/\bs\b.*\bn\b/);
    const mine = await grouped(b).explain({ analyze: true });
    expect(mine).not.toMatch(/total|lines/);
  });

  it('trees differing only in operand order or a literal do not share a plan', async () => {
    const env = makeEnv();
    const proj = (t: Table, flip: boolean, k: number): Table => t.select(col('a'), (flip ? col('v').plus(col('a')) : col('a').plus(col('v'))).times(k).as('w')).filter(col('a').lt(5));
    const t = env.from('t');
    for (let i = 0; i < 3; i++) await proj(t, false, 2).toArray();
    const { byStructure } = physicalPlanStats;
    expect((await proj(t, true, 2).explain({ analyze: true }))).toMatch(/\(v \+ CAST\(a AS DOUBLE\)\)/);
    expect((await proj(t, false, 3).toArray()).map((r) => r.w)).toEqual([0, 4.5, 9, 13.5, 18]);
    expect(physicalPlanStats.byStructure).toBe(byStructure);
  });

  it('after invalidateCache the next tree plans again and re-creates the entry', async () => {
    const env = makeEnv();
    const b = env.from('t').cache();
    for (let i = 0; i < 3; i++) expect(await plain(grouped(b))).toEqual(want(ROWS));
    expect(env.cacheManager.stats().entries).toBe(1);
    await b.invalidateCache();
    expect(env.cacheManager.stats().entries).toBe(0);
    const { byStructure } = physicalPlanStats;
    expect(await plain(grouped(b))).toEqual(want(ROWS));
    expect(env.cacheManager.stats().entries).toBe(1); // a stale plan (reading the dropped entry) writes none
    expect(physicalPlanStats.byStructure).toBe(byStructure);
    expect(env.cacheManager.events().filter((e) => e.kind === 'lost')).toHaveLength(0);
  });

  it('a re-registered table and a changed setting plan again', async () => {
    const env = makeEnv();
    for (let i = 0; i < 3; i++) expect(await plain(grouped(env.from('t')))).toEqual(want(ROWS));
    const other = ROWS.map((r) => ({ ...r, v: r.v + 1 }));
    env.registerTable('t', env.fromRecords(other, { a: 'INTEGER', g: 'VARCHAR', v: 'DOUBLE' }));
    const { byStructure } = physicalPlanStats;
    expect(await plain(grouped(env.from('t')))).toEqual(want(other));
    expect(physicalPlanStats.byStructure).toBe(byStructure);
    for (let i = 0; i < 2; i++) expect(await plain(grouped(env.from('t')))).toEqual(want(other));
    expect(physicalPlanStats.byStructure).toBe(byStructure + 1);
    await env.executeSql('SET integer_division = true');
    expect(await plain(grouped(env.from('t')))).toEqual(want(other));
    expect(physicalPlanStats.byStructure).toBe(byStructure + 1);
  });

  it('a cache marked after the plan was kept is read by the next tree', async () => {
    const env = makeEnv();
    const b = env.from('t').filter(col('a').ge(10));
    const rows = ROWS.filter((r) => r.a >= 10);
    for (let i = 0; i < 3; i++) expect(await plain(grouped(b))).toEqual(want(rows));
    b.cache();
    expect(await plain(grouped(b))).toEqual(want(rows)); // writes the entry
    expect(env.cacheManager.stats().entries).toBe(1);
    const hits = env.cacheManager.stats().hits;
    expect(await plain(grouped(b))).toEqual(want(rows));
    expect(env.cacheManager.stats().hits).toBe(hits + 1);
  });

  it('concurrent runs of equal trees each get a graph', async () => {
    const env = makeEnv();
    const b = env.from('t').cache();
    for (let i = 0; i < 3; i++) await grouped(b).toArray();
    const all = await Promise.all([0, 1, 2].map(() => plain(grouped(b))));
    for (const got of all) expect(got).toEqual(want(ROWS));
  });
});

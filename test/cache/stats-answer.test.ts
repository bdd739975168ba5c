/**
 * Ungrouped min/max/count over a cached entry answered from its per-batch
 * statistics (planner/cache-stats-answer.ts): the answers against DuckDB with
 * NULLs, NaN, an empty entry, an all-NULL column and filters the statistics
 * decide (or do not); EXPLAIN says so and no block is read; a lost partition,
 * a deleted spill file, invalidateCache and changed data between queries.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unlinkSync } from 'node:fs';
import type { RecordBatch } from 'apache-arrow';
import { TableEnvironment, type EnvironmentOptions } from '../../src/api/environment.js';
import type { Table } from '../../src/api/table.js';
import { col, count, countDistinct, countStar, lit, max, min } from '../../src/api/expr.js';
import { loadRows, openDuck, type ColumnType, type Duck } from '../helpers/duckdb.js';
import { diffResults, fromArrow } from '../helpers/compare.js';
import { filesUnder } from './helpers.js';

const COLUMNS: Readonly<Record<string, ColumnType>> = { k: 'INTEGER', b: 'BIGINT', d: 'DOUBLE', s: 'VARCHAR', f: 'BOOLEAN', nn: 'INTEGER', x: 'DOUBLE' };
const WORDS = ['b', 'ä', 'a', 'Z', '😀', 'é'];
const ROWS = 600;

/** Row i of `z`: k ascending; b, d, s, f with NULLs; nn all NULL; x with one NaN (row 250). */
function row(i: number): Record<string, unknown> {
  return {
    k: i,
    b: i % 5 === 0 ? null : BigInt(i * 1000 - 300_000),
    d: i % 7 === 0 ? null : (i - 300) * 0.25,
    s: i % 11 === 0 ? null : `${WORDS[i % 6]}${i}`,
    f: i % 3 === 0 ? null : i % 2 === 0,
    nn: null,
    x: i === 250 ? Number.NaN : i,
  };
}
const DATA = Array.from({ length: ROWS }, (_, i) => row(i));

let duck: Duck;
beforeAll(async () => {
  duck = await openDuck();
  await loadRows(duck, 'z', COLUMNS, DATA);
});
afterAll(() => duck.close());

/** An environment with `z` in batches of 100 rows (one cache block per batch). */
async function makeEnv(options: EnvironmentOptions = {}): Promise<TableEnvironment> {
  const env = TableEnvironment.create({ parallelism: 2, batchSize: 100, ...options, cache: { instances: 2, ...options.cache } });
  const parts: RecordBatch[] = [];
  for (let b = 0; b < ROWS; b += 100) parts.push(...(await env.fromRecords(DATA.slice(b, b + 100), COLUMNS).collect()).batches);
  const { Table: ArrowTable } = await import('apache-arrow');
  env.registerTable('z', new ArrowTable(parts[0]!.schema, parts));
  return env;
}

/** The cached table: `z` where k >= 0 (all rows), materialized. */
async function cachedZ(env: TableEnvironment): Promise<Table> {
  const t = env.from('z').filter(col('k').ge(0)).cache();
  await t.count();
  return t;
}

/** Runs `q` and checks it against DuckDB's `sql` (column names aside), returning how many cache blocks it read. */
async function expectDuck(env: TableEnvironment, q: Table, sql: string): Promise<number> {
  const before = env.cacheManager.stats().blocksRead;
  const got = fromArrow(await q.collect());
  const want = await duck.query(sql);
  const diff = diffResults(got, want, { names: false });
  expect(diff, diff).toBeUndefined();
  return env.cacheManager.stats().blocksRead - before;
}

const ANSWERED = /answered from the statistics of cache entry c[0-9a-f]+/;

describe('min/max/count from cache statistics', () => {
  let env: TableEnvironment;
  let t: Table;
  beforeAll(async () => { env = await makeEnv(); t = await cachedZ(env); });
  afterAll(async () => { await env.close(); });

  it('answers min, max, count(x) and count(*) over columns with NULLs without reading a block, and EXPLAIN says so', async () => {
    const q = t.select(min('k'), max('k'), min('b'), max('b'), min('d'), max('d'), count('d'), min('s'), max('s'), count('s'), min('f'), max('f'), countStar());
    expect(await q.explain()).toMatch(ANSWERED);
    const read = await expectDuck(env, q, 'SELECT min(k), max(k), min(b), max(b), min(d), max(d), count(d), min(s), max(s), count(s), min(f), max(f), count(*) FROM z');
    expect(read).toBe(0);
  });

  it('an all-NULL column: min/max NULL, count 0', async () => {
    const q = t.select(min('nn'), max('nn'), count('nn'));
    expect(await q.explain()).toMatch(ANSWERED);
    expect(await expectDuck(env, q, 'SELECT min(nn), max(nn), count(nn) FROM z')).toBe(0);
  });

  it('a column holding a NaN is read (NaN orders above every number; the statistics have no bounds there)', async () => {
    const q = t.select(min('x'), max('x'));
    expect(await q.explain()).not.toMatch(ANSWERED);
    expect(await expectDuck(env, q, 'SELECT min(x), max(x) FROM z')).toBeGreaterThan(0);
    const m = await t.max('x');
    expect(Number.isNaN(m)).toBe(true);
    // count over the same column still comes from the statistics.
    expect(await expectDuck(env, t.select(count('x'), countStar()), 'SELECT count(x), count(*) FROM z')).toBe(0);
  });

  it('a filter the statistics decide (whole batches in or out) is answered; one they do not is read', async () => {
    // Batches hold k in [0,100), [100,200), ...: k >= 300 keeps batches whole or skips them.
    const decided = t.filter(col('k').ge(300)).select(min('d'), max('s'), count('b'), countStar());
    expect(await decided.explain()).toMatch(/answered from the statistics of cache entry c[0-9a-f]+ \(3 batches, 3 skipped by the filter; no rows read\)/);
    expect(await expectDuck(env, decided, 'SELECT min(d), max(s), count(b), count(*) FROM z WHERE k >= 300')).toBe(0);
    const both = t.filter(col('k').lt(200).or(col('k').ge(500))).select(max('k'), countStar());
    expect(await expectDuck(env, both, 'SELECT max(k), count(*) FROM z WHERE k < 200 OR k >= 500')).toBe(0);
    // A filter on a column with NULLs is not decided TRUE for a batch (NULL rows fail it): read.
    const nullable = t.filter(col('b').gt(lit(-10_000_000n))).select(countStar());
    expect(await nullable.explain()).not.toMatch(ANSWERED);
    expect(await expectDuck(env, nullable, 'SELECT count(*) FROM z WHERE b > -10000000')).toBeGreaterThan(0);
    // Mid-batch bounds: read.
    const mid = t.filter(col('k').gt(250)).select(min('d'), countStar());
    expect(await mid.explain()).not.toMatch(ANSWERED);
    expect(await expectDuck(env, mid, 'SELECT min(d), count(*) FROM z WHERE k > 250')).toBeGreaterThan(0);
  });

  it('grouped aggregates, DISTINCT counts and other functions still read the cache', async () => {
    expect(await t.select(countDistinct('k')).explain()).not.toMatch(ANSWERED);
    expect(await t.groupBy('f').select('f', max('k')).explain()).not.toMatch(ANSWERED);
    expect(await t.select(max(col('k').plus(1))).explain()).not.toMatch(ANSWERED);
  });
});

describe('min/max/count from cache statistics: empty entries, losses, invalidation, changed data', () => {
  it('an empty entry: min/max NULL, counts 0', async () => {
    const env = await makeEnv();
    try {
      const t = env.from('z').filter(col('k').lt(0)).cache();
      await t.count();
      const q = t.select(min('d'), max('s'), count('b'), countStar());
      expect(await q.explain()).toMatch(ANSWERED);
      expect(await expectDuck(env, q, 'SELECT min(d), max(s), count(b), count(*) FROM z WHERE k < 0')).toBe(0);
    } finally {
      await env.close();
    }
  });

  it('a killed instance: the right answer, a lost event, the entry re-created (not answered from stale statistics)', async () => {
    const env = await makeEnv();
    try {
      const t = await cachedZ(env);
      const id = env.cacheManager.idFor(t.plan);
      env.cacheManager.instances[1]!.kill();
      expect(await t.max('d')).toBe(74.75);
      expect(env.cacheManager.events().filter((e) => e.kind === 'lost').map((e) => e.entryId)).toEqual([id]);
      expect(env.cacheManager.list().find((e) => e.id === id)).toMatchObject({ state: 'materialized', losses: 1 });
      // The re-created entry answers again from its statistics.
      expect(await t.select(max('d')).explain()).toMatch(ANSWERED);
      expect(await expectDuck(env, t.select(min('b'), countStar()), 'SELECT min(b), count(*) FROM z')).toBe(0);
    } finally {
      await env.close();
    }
  });

  it('a deleted spill file: the loss is detected and recomputed', async () => {
    const env = await makeEnv({ cache: { memoryBudgetBytes: 4096 } });
    try {
      const t = await cachedZ(env);
      const files = filesUnder(env.cacheManager.spillDirectory);
      expect(files.length).toBeGreaterThan(0);
      unlinkSync(files[0]!);
      expect(await expectDuck(env, t.select(max('s'), count('f')), 'SELECT max(s), count(f) FROM z')).toBeGreaterThanOrEqual(0);
      expect(env.cacheManager.stats().lost).toBe(1);
      // Spilled but intact: answered from the statistics.
      expect(await expectDuck(env, t.select(min('k'), max('k')), 'SELECT min(k), max(k) FROM z')).toBe(0);
    } finally {
      await env.close();
    }
  });

  it('invalidateCache between queries, and changed data, are seen by the next query', async () => {
    const env = await makeEnv();
    try {
      const t = await cachedZ(env);
      expect(await t.max('k')).toBe(ROWS - 1);
      await t.invalidateCache();
      const explain = await t.select(max('k')).explain();
      expect(explain).not.toMatch(ANSWERED);
      expect(explain).toMatch(/writes c[0-9a-f]+/);
      expect(await t.max('k')).toBe(ROWS - 1); // recomputed (and re-cached)
      expect(await t.select(max('k')).explain()).toMatch(ANSWERED);
      // New data under the same name: the entry is released; the marked table now reads the new rows.
      env.registerTable('z', env.fromRecords([{ k: 7, b: null, d: 1.5, s: 'x', f: true, nn: null, x: 1 }], COLUMNS));
      const t2 = env.from('z').filter(col('k').ge(0)).cache();
      expect(await t2.max('k')).toBe(7);
      expect(await t2.count()).toBe(1);
      expect(await t2.select(max('k')).explain()).toMatch(ANSWERED);
    } finally {
      await env.close();
    }
  });
});

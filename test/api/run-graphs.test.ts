/**
 * At parallelism 2 the calling thread runs the parallelism-1 graph wherever semantics allow
 * (src/api/run-graphs.ts): a plan without a worker stage, `workers: 'off'`, and EXPLAIN ANALYZE;
 * EXPLAIN shows that graph. A cache write keeps the parallel graph (its entry's partitions follow
 * the sink subtasks: CACHE-SEMANTICS.md C12), as do `workers: 'always'` without a stage and the
 * internal `parallelGraph` switch (tests of the parallel graph). Answers are the same bits as p1.
 */
import { tableFromArrays, Table as ArrowTable } from 'apache-arrow';
import { afterAll, describe, expect, it } from 'vitest';
import { TableEnvironment, type EnvironmentOptions } from '../../src/api/environment.js';

/** Four batches (four partitions: a parallel scan splits them), and a small dimension table. */
const facts = new ArrowTable([0, 1, 2, 3].map((b) => tableFromArrays({
  k: Int32Array.from({ length: 50 }, (_, i) => (i * 7 + b) % 13),
  v: Float64Array.from({ length: 50 }, (_, i) => i / 3 + b / 7),
}).batches[0]!));
const dims = tableFromArrays({ dk: Int32Array.from({ length: 13 }, (_, i) => i), name: Array.from({ length: 13 }, (_, i) => `n${i % 5}`) });

const envs: TableEnvironment[] = [];
afterAll(async () => { for (const e of envs) await e.close(); });
function env(options: EnvironmentOptions): TableEnvironment {
  const e = TableEnvironment.create({ batchSize: 16, ...options });
  e.registerTable('f', facts);
  e.registerTable('d', dims);
  envs.push(e);
  return e;
}

const p1 = env({ parallelism: 1 });
const p2 = env({ parallelism: 2 });
const off = env({ parallelism: 2, workers: 'off' });
const parallel = env({ parallelism: 2, workers: 'off', parallelGraph: true });
const always = env({ parallelism: 2, workers: 'always' });

const JOIN_AGG = 'SELECT name, sum(v) AS s, count(*) AS c FROM f JOIN d ON k = dk WHERE v > 2 GROUP BY name ORDER BY name';
const SCAN = 'SELECT k, v FROM f WHERE v > 10';

const physical = (text: string): string => text.slice(text.indexOf('== Physical Plan'));
/** The analyzed physical section without the run's times (they vary) and the wall-time line. */
const analyzedShape = (text: string): string => physical(text).replace(/ time=[\d.]+ms/g, '').replace(/\n\d+ rows in [\d.]+ ms$/, '');
const rows = async (e: TableEnvironment, sql: string): Promise<unknown[]> => (await e.sql(sql).toArray()).map((r) => JSON.stringify(r, (_, x: unknown) => (typeof x === 'bigint' ? String(x) : x)));

describe('parallelism 2 runs the parallelism-1 graph on the calling thread', () => {
  it('EXPLAIN shows the graph a run executes: p=1, no hash exchange, no Worker Stages section for a small table', async () => {
    for (const e of [p2, off]) {
      const text = await e.sql(JOIN_AGG).explain();
      expect(physical(text)).toContain('[p=1]');
      expect(physical(text)).not.toMatch(/\[p=2\]|<- hash/);
      expect(text).not.toContain('== Worker Stages ==');
      expect(physical(text)).toBe(physical(await p1.sql(JOIN_AGG).explain()));
    }
  });

  it('EXPLAIN ANALYZE runs the p1 graph: the same operators, rows and batches as parallelism 1', async () => {
    for (const sql of [JOIN_AGG, SCAN]) {
      const want = analyzedShape(await p1.sql(sql).explain({ analyze: true }));
      expect(want).toMatch(/rows=\d+ batches=\d+ est=/);
      for (const e of [p2, off]) expect(analyzedShape(await e.sql(sql).explain({ analyze: true }))).toBe(want);
    }
  });

  it('the same rows, in the same order, as parallelism 1 (a p1 scan keeps the table\'s batch order)', async () => {
    for (const sql of [JOIN_AGG, SCAN, 'SELECT k, count(*) AS c, min(v) AS lo FROM f GROUP BY k']) {
      const want = await rows(p1, sql);
      for (const e of [p2, off]) expect(await rows(e, sql)).toEqual(want);
    }
  });

  it('the parallel graph stays reachable for tests (parallelGraph; workers: \'always\' without a stage): same answers', async () => {
    expect(physical(await parallel.sql(JOIN_AGG).explain())).toMatch(/\[p=2\][^\n]*<- hash/);
    expect(physical(await parallel.sql(JOIN_AGG).explain({ analyze: true }))).toMatch(/\[p=2\][^\n]*<- hash/);
    expect(physical(await always.sql(SCAN).explain())).toContain('[p=2]');
    expect(await rows(parallel, JOIN_AGG)).toEqual(await rows(p1, JOIN_AGG));
    expect(new Set(await rows(always, SCAN))).toEqual(new Set(await rows(p1, SCAN)));
  });
});

describe('a cache write at parallelism 2 keeps the parallel graph (C12: one partition per sink subtask)', () => {
  it('EXPLAIN says so, the entry has two partitions, and a later read runs at p=1 with the same rows', async () => {
    for (const e of [p2, off]) {
      const t = e.sql('SELECT k, v FROM f WHERE v > 3').cache();
      const text = await t.explain();
      expect(physical(text)).toMatch(/CacheSink\([^\n]*\[p=2\]/);
      if (e === p2) expect(text).toContain('== Worker Stages ==\nnone: a run that writes a cache entry runs no worker stage');
      else expect(text).not.toContain('== Worker Stages ==');
      const written = await rows(e, 'SELECT k, v FROM f WHERE v > 3');
      expect(e.cacheManager.list()[0]).toMatchObject({ partitions: 2, state: 'materialized' });
      const read = await t.explain({ analyze: true });
      expect(physical(read)).toMatch(/CacheSource[^\n]*\[p=1\]/);
      expect(new Set(await rows(e, 'SELECT k, v FROM f WHERE v > 3'))).toEqual(new Set(written));
      expect(new Set(written)).toEqual(new Set(await rows(p1, 'SELECT k, v FROM f WHERE v > 3')));
    }
  });
});

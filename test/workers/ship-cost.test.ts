/**
 * The stage cost decision end to end (src/planner/ship-cost.ts, ship-choose.ts): with `workers:
 * 'auto'` a stage that would not pay stays on the calling thread (no worker stage runs, same
 * answer) and EXPLAIN says why, with the rows a runtime filter keeps; `'large'` ships it, so
 * tests that force shipping still run the worker path; at parallelism 1 EXPLAIN has no
 * worker-stage section, and a query that writes a cache entry lists no stage. A fresh plan of a
 * query that ran no stage is not searched again (ship-memo.ts).
 */
import { tableFromArrays } from 'apache-arrow';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TableEnvironment } from '../../src/api/index.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { workerStats } from './helpers.js';
import { StageRunner } from '../../src/planner/ship-run.js';
import { FirstStages, StagelessPlans } from '../../src/planner/ship-memo.js';
import { RunGraphs } from '../../src/api/run-graphs.js';
import type { RunGraph } from '../../src/planner/planner.js';

const N = 250_000;
const t = tableFromArrays({ k: Int32Array.from({ length: N }, (_, i) => i % 7), v: Float64Array.from({ length: N }, (_, i) => (i % 1000) / 7) });
const sql = 'SELECT k, sum(v) AS s, count(*) AS c FROM t GROUP BY k';
// A fact over 50,000 keys and a dimension of them with 100 classes: `c = 'c7'` keeps 500 keys.
const f = tableFromArrays({ k: Int32Array.from({ length: N }, (_, i) => (i * 7919) % 50_000), v: Float64Array.from({ length: N }, (_, i) => i % 100) });
const d = tableFromArrays({ id: Int32Array.from({ length: 50_000 }, (_, i) => i), c: Array.from({ length: 50_000 }, (_, i) => `c${i % 100}`) });
const joined = "SELECT sum(v) AS s, count(*) AS n FROM f JOIN d ON f.k = d.id WHERE d.c = 'c7'";

describe('the stage cost decision', { timeout: 180_000 }, () => {
  let p1: TableEnvironment, auto: TableEnvironment, large: TableEnvironment;
  beforeEach(() => {
    p1 = TableEnvironment.create({ parallelism: 1 });
    auto = TableEnvironment.create({ parallelism: 2 });
    large = TableEnvironment.create({ parallelism: 2, workers: 'large' });
    for (const e of [p1, auto, large]) { e.registerTable('t', t); e.registerTable('f', f); e.registerTable('d', d); }
  });
  afterEach(async () => { await p1.close(); await auto.close(); await large.close(); });

  it("EXPLAIN says why a stage is not shipped ('auto') and that it is ('large')", async () => {
    const a = await auto.sql(sql).explain();
    expect(a).toContain('== Worker Stages ==');
    expect(a).toMatch(/\n1\. partial stage over t \(250,000 rows\): not shipped: too little work for the stage's fixed costs \(est\. 1 thread [\d.]+ ms, 2 workers [\d.]+ ms\)$/);
    expect(await large.sql(sql).explain()).toMatch(/\n1\. partial stage over t \(250,000 rows\): shipped \(est\. 1 thread [\d.]+ ms, 2 workers [\d.]+ ms\)$/);
    expect(await p1.sql(sql).explain()).not.toContain('Worker Stages');
    // Explaining starts no worker.
    expect(workerStats(auto).live).toBe(0);
  });

  it("runs a stage that does not pay on the calling thread ('auto'), and on the workers ('large'), with one answer", async () => {
    const expected = fromArrow(await p1.sql(sql).collect());
    for (let i = 0; i < 2; i++) { // the second run reuses the plan (and the kept decision)
      expectSameResult(fromArrow(await auto.sql(sql).collect()), expected, {});
      expectSameResult(fromArrow(await large.sql(sql).collect()), expected, {});
    }
    expect(workerStats(auto).stages).toBe(0);
    expect(workerStats(auto).decisions.map((d) => d.shipped)).toEqual([false]);
    expect(workerStats(large).stages).toBe(2);
  });

  it('does not search a reused plan for stages again once it ran without one', async () => {
    const q = 'SELECT k, min(v) AS m FROM t GROUP BY k';
    const spy = vi.spyOn(StageRunner.prototype, 'runStages');
    try {
      // Runs 1 and 2 plan the text (the second plan is kept); runs 3 and 4 reuse it.
      for (let i = 0; i < 4; i++) await auto.sql(q).collect();
      expect(spy.mock.calls.length).toBe(2);
    } finally {
      spy.mockRestore();
    }
  });

  it("counts the probe scan's rows after a runtime filter: a selective dimension keeps the stage here, and EXPLAIN says how many rows the filter keeps", async () => {
    const a = await auto.sql(joined).explain();
    expect(a).toMatch(/\n1\. partial stage over f \(250,000 rows\): not shipped: too little work for the stage's fixed costs \(est\. 1 thread [\d.]+ ms, 2 workers [\d.]+ ms; runtime filters keep ~[\d,]+ of 250,000 f rows\)$/);
    const kept = Number(/keep ~([\d,]+) of/.exec(a)![1]!.replace(/,/g, ''));
    // 500 of 50,000 keys: ~1% of the rows (the statistics' distinct counts are estimates).
    expect(kept).toBeGreaterThan(1_500);
    expect(kept).toBeLessThan(4_000);
    expect(await large.sql(joined).explain()).toMatch(/: shipped \(est\. .*runtime filters keep/);
    const stages = workerStats(large).stages;
    const expected = fromArrow(await p1.sql(joined).collect());
    expectSameResult(fromArrow(await auto.sql(joined).collect()), expected, {});
    expectSameResult(fromArrow(await large.sql(joined).collect()), expected, {});
    expect(workerStats(large).stages).toBe(stages + 1);
  });

  it('lists no stage for a query that writes a cache entry (it runs on the calling thread)', async () => {
    const q = 'SELECT k, max(v) AS m, count(*) AS c FROM t GROUP BY k';
    const writing = await large.sql(q).cache().explain();
    expect(writing).toMatch(/== Worker Stages ==\nnone: a run that writes a cache entry runs no worker stage$/);
    const stages = workerStats(large).stages;
    await large.sql(q).cache().collect();
    expect(workerStats(large).stages).toBe(stages);
    // Once written, the query reads the entry: no CacheSink, and no candidate over an in-memory table.
    expect(await large.sql(q).cache().explain()).not.toContain('a run that writes a cache entry');
  });

  it('does not weigh a fresh plan of a query that ran no stage again (the decision is kept by digest)', async () => {
    const get = vi.spyOn(StagelessPlans.prototype, 'get');
    try {
      // Two texts, one plan: the second is planned afresh but found by its digest.
      await auto.sql('SELECT k, count(v) AS n, min(v) AS lo FROM t GROUP BY k').collect();
      const decisions = workerStats(auto).decisions;
      expect(decisions.map((x) => x.shipped)).toEqual([false]);
      await auto.sql('SELECT  k,  count(v) AS n,  min(v)  AS lo  FROM t GROUP BY k').collect();
      const results = get.mock.results.map((r) => r.value as unknown);
      expect(results).toHaveLength(2);
      expect(results[0]).toBeUndefined();
      expect(results[1]).toBeDefined();
      expect(workerStats(auto).decisions.map((x) => [x.shipped, x.reason, x.scan.table.name])).toEqual(decisions.map((x) => [x.shipped, x.reason, x.scan.table.name]));
      expect(workerStats(auto).stages).toBe(0);
    } finally {
      get.mockRestore();
    }
  });

  it('does not search a reused plan that shipped a stage again for its first stage, with the same decisions and answer', async () => {
    const search = vi.spyOn(FirstStages.prototype, 'choose');
    const stageless = vi.spyOn(StagelessPlans.prototype, 'key');
    try {
      const expected = fromArrow(await p1.sql(joined).collect());
      const seen: unknown[] = [];
      for (let i = 0; i < 3; i++) {
        expectSameResult(fromArrow(await large.sql(joined).collect()), expected, {});
        seen.push(workerStats(large).decisions.map((x) => [x.mode, x.shipped, x.reason, x.scan.table.name]));
      }
      expect(workerStats(large).stages).toBeGreaterThanOrEqual(3);
      expect(seen[1]).toEqual(seen[0]);
      expect(seen[2]).toEqual(seen[0]);
      // The executor keeps a text's plan object from its second run on (api/physical-plans.ts): the second
      // run searched that object's first stage (and digested it for the stageless memo), the third took it.
      expect(search).toHaveBeenCalledTimes(3);
      expect(stageless).toHaveBeenCalledTimes(2);
      const [, second, third] = search.mock.results.map((r) => r.value as unknown);
      expect(second).toBeDefined();
      expect(third).toBe(second);
      expect(search.mock.calls[2]![0]).toBe(search.mock.calls[1]![0]);
    } finally {
      search.mockRestore();
      stageless.mockRestore();
    }
  });

  it('runs a plan that has no stage at parallelism 1 (subtasks on one thread are slower), however small', async () => {
    const M = 150_000; // below the stage threshold (200,000)
    const mid = tableFromArrays({ k: Int32Array.from({ length: M }, (_, i) => i % 1000), v: Float64Array.from({ length: M }, (_, i) => i % 97) });
    const tiny = tableFromArrays({ k: Int32Array.from([1, 2, 2]), v: Float64Array.from([1, 2, 3]) });
    for (const e of [p1, auto]) { e.registerTable('mid', mid); e.registerTable('tiny', tiny); }
    const spy = vi.spyOn(RunGraphs.prototype, 'withStages');
    try {
      const q = 'SELECT k, sum(v) AS s, count(*) AS c FROM mid GROUP BY k';
      expectSameResult(fromArrow(await auto.sql(q).collect()), fromArrow(await p1.sql(q).collect()), {});
      const graph = (await spy.mock.results.at(-1)!.value as RunGraph).graph;
      expect(graph).toBeDefined();
      expect(graph.vertices.every((v) => v.parallelism === 1)).toBe(true);
      const t = 'SELECT k, sum(v) AS s FROM tiny GROUP BY k';
      expectSameResult(fromArrow(await auto.sql(t).collect()), fromArrow(await p1.sql(t).collect()), {});
      const small = (await spy.mock.results.at(-1)!.value as RunGraph).graph;
      expect(small.vertices.every((v) => v.parallelism === 1)).toBe(true);
      expect(workerStats(auto).stages).toBe(0);
    } finally {
      spy.mockRestore();
    }
  });
});

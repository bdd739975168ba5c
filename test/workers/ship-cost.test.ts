/**
 * The stage cost decision end to end (src/planner/ship-cost.ts, ship-choose.ts): with `workers:
 * 'auto'` a stage that would not pay stays on the calling thread (no worker stage runs, same
 * answer) and EXPLAIN says why; `'large'` ships it, so tests that force shipping still run the
 * worker path; at parallelism 1 EXPLAIN has no worker-stage section.
 */
import { tableFromArrays } from 'apache-arrow';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { TableEnvironment } from '../../src/api/index.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { workerStats } from './helpers.js';
import { StageRunner } from '../../src/planner/ship-run.js';

const N = 250_000;
const t = tableFromArrays({ k: Int32Array.from({ length: N }, (_, i) => i % 7), v: Float64Array.from({ length: N }, (_, i) => (i % 1000) / 7) });
const sql = 'SELECT k, sum(v) AS s, count(*) AS c FROM t GROUP BY k';

describe('the stage cost decision', { timeout: 180_000 }, () => {
  const p1 = TableEnvironment.create({ parallelism: 1 });
  const auto = TableEnvironment.create({ parallelism: 2 });
  const large = TableEnvironment.create({ parallelism: 2, workers: 'large' });
  for (const e of [p1, auto, large]) e.registerTable('t', t);
  afterAll(async () => { await p1.close(); await auto.close(); await large.close(); });

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
});

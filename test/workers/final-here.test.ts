/**
 * A keyed stage whose round 1 returns few rows (TPC-H Q1's partial groups) runs
 * its final aggregate on the calling thread: one round trip to the workers instead of two
 * (src/planner/ship-run.ts, DEFAULT_FINAL_HERE_ROWS). `workers: 'always'` keeps the exchange
 * (the differential suites test it at small scale).
 */
import { tableFromArrays } from 'apache-arrow';
import { afterAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/index.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { workerStats } from './helpers.js';

const N = 250_000;
const t = tableFromArrays({ k: Int32Array.from({ length: N }, (_, i) => i % 7), v: Float64Array.from({ length: N }, (_, i) => (i % 1000) / 7) });

describe('few round-1 rows', { timeout: 180_000 }, () => {
  const p1 = TableEnvironment.create({ parallelism: 1 });
  // 'large': every stage over a large scan ships (250k rows of cheap work would not pay under 'auto': ship-cost.ts).
  const auto = TableEnvironment.create({ parallelism: 2, workers: 'large' });
  const always = TableEnvironment.create({ parallelism: 2, workers: 'always' });
  for (const e of [p1, auto, always]) e.registerTable('t', t);
  afterAll(async () => { await p1.close(); await auto.close(); await always.close(); });
  const sql = 'SELECT k, sum(v) AS s, count(*) AS c, avg(v) AS a FROM t GROUP BY k';

  it('are aggregated on the calling thread after one round (workers: large), with the answer of one thread', async () => {
    const expected = fromArrow(await p1.sql(sql).collect());
    const before = workerStats(auto);
    expectSameResult(fromArrow(await auto.sql(sql).collect()), expected, {});
    const after = workerStats(auto);
    expect(after.stages - before.stages).toBe(1);
    expect(after.rounds - before.rounds).toBe(1);
    const b = workerStats(always);
    expectSameResult(fromArrow(await always.sql(sql).collect()), expected, {});
    expect(workerStats(always).rounds - b.rounds).toBe(2);
  });
});

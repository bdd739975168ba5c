/**
 * The test run starts multi-core workers from the esbuild bundle (test/global-setup.ts sets
 * EDDY_SHIP_WORKER); this file unsets it, so one query's workers start the way a user's do when
 * eddy runs from its TypeScript sources: src/planner/ship-worker.ts through the tsx loader.
 */
import * as arrow from 'apache-arrow';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/index.js';
import { workerStats } from './helpers.js';

let saved: string | undefined;
beforeAll(() => {
  saved = process.env['EDDY_SHIP_WORKER'];
  delete process.env['EDDY_SHIP_WORKER'];
});
afterAll(() => {
  if (saved !== undefined) process.env['EDDY_SHIP_WORKER'] = saved;
});

it('workers started from the TypeScript sources run a stage and give the answer of one thread', { timeout: 120_000 }, async () => {
  const N = 250_000;
  const t = arrow.tableFromArrays({ k: Int32Array.from({ length: N }, (_, i) => i % 10), v: Float64Array.from({ length: N }, (_, i) => i % 7) });
  const env = TableEnvironment.create({ parallelism: 2, workers: 'always' });
  try {
    env.registerTable('t', t);
    const rows = await env.sql('SELECT k, count(*) AS c, sum(v) AS s FROM t GROUP BY k ORDER BY k').toArray();
    expect(workerStats(env).stages).toBeGreaterThan(0);
    expect(rows).toHaveLength(10);
    let c = 0;
    let s = 0;
    for (let i = 0; i < N; i++) if (i % 10 === 3) { c++; s += i % 7; }
    expect(rows[3]).toEqual({ k: 3, c: BigInt(c), s });
  } finally {
    await env.close();
  }
});

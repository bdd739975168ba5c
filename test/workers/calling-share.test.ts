/**
 * The calling thread as one share of a stage (src/planner/ship-run.ts `callingShare`): share 0 of
 * every round runs on this thread through the workers' own task runner (ship-task.ts), the others
 * on `workers - 1` worker threads. A share reads the same morsels and runs the same lowering
 * wherever it runs, so the answers have the bits of a stage on worker threads only — in every
 * stage mode — and cancellation and errors behave as they do there.
 */
import type * as arrow from 'apache-arrow';
import { afterAll, describe, expect, it } from 'vitest';
import type { TableEnvironment } from '../../src/api/environment.js';
import { StageRunner } from '../../src/planner/ship-run.js';
import { CancelledError, ExecutionError } from '../../src/relnode/errors.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { tpchEnv, tpchSql } from './tpch-sql.js';
import { workerStats } from './helpers.js';

const SF = 0.01;

/** An environment whose stages run share 0 on the calling thread (`callingShare`) or all on worker threads. */
function env(callingShare: boolean): TableEnvironment {
  const e = tpchEnv(SF, { parallelism: 2, workers: 'always', batchSize: 1024 });
  (e as unknown as { executor: { stageRunner: StageRunner } }).executor.stageRunner = new StageRunner(2, { callingShare });
  return e;
}

/** Every column's values, DOUBLEs as their bits (rows in the query's order). */
function bitsOf(t: arrow.Table): string {
  return JSON.stringify(t.toArray().map((r) => Object.values(r.toJSON()).map((v) => (typeof v === 'number' ? Buffer.from(Float64Array.of(v).buffer).toString('hex') : typeof v === 'bigint' ? v.toString() : v))));
}

describe('the calling thread as a share', { timeout: 180_000 }, () => {
  const here = env(true);
  const workers = env(false);
  const p1 = tpchEnv(SF, { parallelism: 1 });
  afterAll(async () => { await here.close(); await workers.close(); await p1.close(); });

  const queries: [string, string][] = [
    ['partial, final here', 'SELECT l_returnflag, l_linestatus, sum(l_extendedprice * (1 - l_discount)) AS r, avg(l_discount) AS d, count(*) AS c FROM lineitem GROUP BY l_returnflag, l_linestatus ORDER BY l_returnflag, l_linestatus'],
    ['partial, no keys', tpchSql(6).sql],
    ['shuffle (two rounds)', 'SELECT l_suppkey, sum(l_extendedprice * (1 - l_discount)) AS r FROM lineitem GROUP BY l_suppkey ORDER BY l_suppkey'],
    ['TPC-H Q3', tpchSql(3).sql],
    ['TPC-H Q18 (partitioned)', tpchSql(18).sql],
  ];
  for (const [name, sql] of queries) {
    it(`${name}: the bits of a stage on worker threads only, and one thread's answer`, async () => {
      const s0 = workerStats(here).stages;
      const a = await here.sql(sql).collect();
      expect(workerStats(here).stages).toBeGreaterThan(s0);
      const b = await workers.sql(sql).collect();
      expect(bitsOf(a)).toBe(bitsOf(b));
      expectSameResult(fromArrow(a), fromArrow(await p1.sql(sql).collect()), {});
      // Every round had two shares: this thread's and the one worker's.
      for (const t of workerStats(here).traces.slice(-1)) for (const r of t.rounds) expect(r.length).toBe(2);
      expect(workerStats(here).live).toBe(1);
    });
  }

  it('an aborted query rejects promptly with CancelledError, and the next query runs', async () => {
    const slow = 'SELECT sum(l_quantity * n.n_nationkey + r_regionkey + n2.n_regionkey) AS s FROM lineitem, nation n, region, nation n2';
    const ac = new AbortController();
    const started = performance.now();
    const q = here.sql(slow).collect({ signal: ac.signal });
    setTimeout(() => ac.abort(), 100);
    await expect(q).rejects.toBeInstanceOf(CancelledError);
    expect(performance.now() - started).toBeLessThan(10_000); // the unbounded run takes ~50 s
    const sql = 'SELECT l_linestatus, count(*) AS c FROM lineitem GROUP BY l_linestatus';
    expectSameResult(fromArrow(await here.sql(sql).collect()), fromArrow(await p1.sql(sql).collect()));
  });

  it('an error in either share is the error of the single-thread run', async () => {
    const sql = 'SELECT l_returnflag, sum(CAST(l_orderkey * 100000000000 AS INTEGER)) AS s FROM lineitem GROUP BY l_returnflag';
    const e1 = await p1.sql(sql).collect().then(() => undefined, (e: unknown) => e);
    const e2 = await here.sql(sql).collect().then(() => undefined, (e: unknown) => e);
    expect(e2).toBeInstanceOf(ExecutionError);
    const shape = (e: unknown): string => (e as Error).message.replace(/-?\d+/g, 'N');
    expect(shape(e2)).toBe(shape(e1));
    // Only rows this thread reads fail (orders 1-3 are in morsel 0, share 0's): the worker's share succeeds.
    const first = 'SELECT l_returnflag, sum(CASE WHEN l_orderkey <= 3 THEN CAST(l_orderkey * 1000000000 AS INTEGER) ELSE 0 END) AS s FROM lineitem GROUP BY l_returnflag';
    const f1 = await p1.sql(first).collect().then(() => undefined, (x: unknown) => x);
    const f2 = await here.sql(first).collect().then(() => undefined, (x: unknown) => x);
    expect(f1).toBeInstanceOf(ExecutionError);
    expect(f2).toBeInstanceOf(ExecutionError);
    expect((f2 as Error).message).toBe((f1 as Error).message);
    expect((await here.sql('SELECT count(*) AS c FROM nation').collect()).numRows).toBe(1);
  });
});

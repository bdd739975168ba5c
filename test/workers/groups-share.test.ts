/**
 * A stage whose groups are split between the workers (partitioned, or one round co-partitioned)
 * tells each worker its share of the groups (StageTask.groupsShare = 1/W), so its group table is
 * sized for the groups it computes, not for all those its table statistics count; other stages
 * (pre-aggregation over round-robin morsels: every worker may see every group) do not. A sizing
 * hint only: the answers are p1's.
 */
import * as arrow from 'apache-arrow';
import { afterAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/index.js';
import type { StageTask } from '../../src/planner/ship-protocol.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { workerStats } from './helpers.js';

interface Pool { run(worker: number, task: StageTask | ((serial: number) => StageTask), transfer: ArrayBuffer[], signal?: AbortSignal): Promise<unknown> }

describe('groups share of a stage task', { timeout: 60_000 }, () => {
  // 240k rows: k unique per 3 rows (80k groups: partitioned), g 10 groups (pre-aggregated).
  const N = 240_000;
  const k = Int32Array.from({ length: N }, (_, i) => Math.floor(i / 3));
  const g = Int32Array.from({ length: N }, (_, i) => i % 10);
  const v = Float64Array.from({ length: N }, (_, i) => ((i * 37) % 1001) / 7);
  const t = arrow.tableFromArrays({ k, g, v });
  const p1 = TableEnvironment.create({ parallelism: 1 });
  // Worker threads only: the test intercepts the tasks the pool posts.
  const p2 = TableEnvironment.create({ parallelism: 2, workers: 'always', callingThreadShare: false });
  for (const e of [p1, p2]) e.registerTable('t', t);
  afterAll(async () => { await p1.close(); await p2.close(); });

  /** The tasks posted while `sql` runs at p2, and its answer checked against p1's. */
  async function tasksOf(sql: string): Promise<StageTask[]> {
    await p2.sql(sql).collect(); // starts the workers
    const pool = (p2 as unknown as { executor: { stageRunner: { pool: Pool } } }).executor.stageRunner.pool;
    const posted: StageTask[] = [];
    const run = pool.run.bind(pool);
    // A task may come as a factory of the worker's serial number (ship-column-cache.ts): record what it builds.
    pool.run = (w, task, transfer, signal) => run(w, (serial: number) => { const t = typeof task === 'function' ? task(serial) : task; posted.push(t); return t; }, transfer, signal);
    try {
      expectSameResult(fromArrow(await p2.sql(sql).collect()), fromArrow(await p1.sql(sql).collect()), {});
    } finally {
      pool.run = run;
    }
    return posted;
  }

  it('a partitioned stage: each worker computes half of the groups', async () => {
    const tasks = await tasksOf('SELECT k, sum(v) AS s FROM t GROUP BY k HAVING count(*) > 2');
    expect(workerStats(p2).traces.at(-1)?.mode).toBe('partitioned');
    expect(tasks.length).toBe(2);
    for (const task of tasks) expect(task.groupsShare).toBe(0.5);
  });

  it('a pre-aggregating stage over round-robin morsels: no share (every worker may see every group)', async () => {
    const tasks = await tasksOf('SELECT g, sum(v) AS s FROM t GROUP BY g');
    expect(workerStats(p2).traces.at(-1)?.mode).toBe('partial');
    expect(tasks.length).toBeGreaterThan(0);
    for (const task of tasks) expect(task.groupsShare).toBeUndefined();
  });
});

/**
 * Kept stage graphs (src/planner/ship-graph-cache.ts): a worker — or the calling thread running
 * its share — that gets a task equal to one it ran runs the graph it lowered then. The answers
 * keep their bits, a kept graph's scans read the cancel flag of the task running it, and tasks
 * that differ (other data, other morsels, a second round's batches) do not meet.
 */
import type * as arrow from 'apache-arrow';
import { afterAll, describe, expect, it } from 'vitest';
import type { TableEnvironment } from '../../src/api/environment.js';
import { StageRunner } from '../../src/planner/ship-run.js';
import { runStageTask } from '../../src/planner/ship-task.js';
import { ColumnCache } from '../../src/planner/ship-column-cache.js';
import { StageGraphs } from '../../src/planner/ship-graph-cache.js';
import type { StageResult, StageTask } from '../../src/planner/ship-protocol.js';
import { CancelledError } from '../../src/relnode/errors.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';
import { tpchEnv, tpchSql } from './tpch-sql.js';

const SF = 0.01;

function env(callingShare: boolean): { env: TableEnvironment; runner: StageRunner } {
  const e = tpchEnv(SF, { parallelism: 2, workers: 'always', batchSize: 1024 });
  const runner = new StageRunner(2, { callingShare });
  (e as unknown as { executor: { stageRunner: StageRunner } }).executor.stageRunner = runner;
  return { env: e, runner };
}

/** Every column's values, DOUBLEs as their bits. */
function bitsOf(t: arrow.Table): string {
  return JSON.stringify(t.toArray().map((r) => Object.values(r.toJSON()).map((v) => (typeof v === 'number' ? Buffer.from(Float64Array.of(v).buffer).toString('hex') : typeof v === 'bigint' ? v.toString() : v))));
}

type Post = (i: number, task: StageTask, transfer: readonly ArrayBuffer[], signal?: AbortSignal) => Promise<StageResult>;

/** The tasks of `sql`'s stage rounds as `runner` posts them (share index → task, per round). */
async function capture(e: TableEnvironment, runner: StageRunner, sql: string): Promise<StageTask[]> {
  const inner = runner as unknown as { post: Post };
  const post = inner.post.bind(runner);
  const tasks: StageTask[] = [];
  inner.post = (i, task, transfer, signal) => { tasks.push(task); return post(i, task, transfer, signal); };
  try { await e.sql(sql).collect(); } finally { inner.post = post; }
  return tasks;
}

describe('kept stage graphs', { timeout: 180_000 }, () => {
  const here = env(true);
  const workers = env(false);
  const p1 = tpchEnv(SF, { parallelism: 1 });
  afterAll(async () => { await here.env.close(); await workers.env.close(); await p1.close(); });

  // Graphs reused per run again: both shares of each first round over a registered table. A second
  // round carries batches, and a stage over an earlier stage's result (TPC-H Q18's outer
  // aggregate) reads a table made new by each query: neither is kept.
  const queries: [string, string, number][] = [
    ['partial, final here (TPC-H Q1)', tpchSql(1).sql, 2],
    ['partial, no keys (TPC-H Q6)', tpchSql(6).sql, 2],
    ['shuffle (two rounds)', 'SELECT l_suppkey, sum(l_extendedprice * (1 - l_discount)) AS r FROM lineitem GROUP BY l_suppkey ORDER BY l_suppkey', 2],
    ['TPC-H Q18 (two stages, partitioned)', tpchSql(18).sql, 2],
  ];
  for (const [name, sql, reuses] of queries) {
    it(`${name}: a query run again reuses its first-round graphs, with the same bits`, async () => {
      for (const { env: e, runner } of [here, workers]) {
        const a = await e.sql(sql).collect();
        const r0 = runner.stats.reusedGraphs;
        const b = await e.sql(sql).collect();
        expect(runner.stats.reusedGraphs - r0).toBe(reuses);
        expect(bitsOf(b)).toBe(bitsOf(a));
      }
      expect(bitsOf(await here.env.sql(sql).collect())).toBe(bitsOf(await workers.env.sql(sql).collect()));
      expectSameResult(fromArrow(await here.env.sql(sql).collect()), fromArrow(await p1.sql(sql).collect()), {});
    });
  }

  it('a plan with a non-deterministic call is lowered again every time', async () => {
    const sql = 'SELECT l_returnflag, count(*) AS c, sum(l_quantity * random()) AS r FROM lineitem GROUP BY l_returnflag';
    const { env: e, runner } = workers;
    const s0 = runner.stats.stages;
    await e.sql(sql).collect();
    expect(runner.stats.stages).toBeGreaterThan(s0);
    const r0 = runner.stats.reusedGraphs;
    await e.sql(sql).collect();
    expect(runner.stats.stages).toBeGreaterThan(s0 + 1);
    expect(runner.stats.reusedGraphs).toBe(r0);
  });

  it('a kept graph reads the cancel flag of the task running it', async () => {
    const tasks = await capture(here.env, here.runner, tpchSql(6).sql);
    const task = tasks[0]!;
    const kept = new ColumnCache();
    const graphs = new StageGraphs();
    const signal = new AbortController().signal;
    const first = await runStageTask(task, signal, kept, graphs);
    expect(first.reusedGraph).toBeUndefined();
    const again = await runStageTask(task, signal, kept, graphs);
    expect(again.reusedGraph).toBe(true);
    expect(JSON.stringify(again.parts)).toBe(JSON.stringify(first.parts));
    // The same task with a stage whose cancel flag is set: the kept graph's scan stops at its first morsel.
    const cancelled = new Int32Array(new SharedArrayBuffer(8));
    Atomics.store(cancelled, 1, 1);
    const stopped = { ...task, morsels: { ...task.morsels!, state: cancelled } };
    await expect(runStageTask(stopped, signal, kept, graphs)).rejects.toBeInstanceOf(CancelledError);
    // ... and the next task with a clear flag runs it again.
    const third = await runStageTask(task, signal, kept, graphs);
    expect(third.reusedGraph).toBe(true);
    expect(JSON.stringify(third.parts)).toBe(JSON.stringify(first.parts));
  });

  it('tasks over other data or other morsels, or carrying batches, do not meet', async () => {
    const tasks = await capture(workers.env, workers.runner, 'SELECT l_suppkey, sum(l_quantity) AS q FROM lineitem GROUP BY l_suppkey');
    const [t0, t1] = tasks;
    const key0 = StageGraphs.key(t0!);
    expect(key0).toBeDefined();
    expect(StageGraphs.key({ ...t0! })).toBe(key0);
    expect(StageGraphs.key(t1!)).not.toBe(key0); // share 1: other morsels
    const table = t0!.tables.morsels!;
    const otherIds = Object.fromEntries(Object.entries(table.ids!).map(([c, id]) => [c, id + 1_000_000]));
    expect(StageGraphs.key({ ...t0!, tables: { ...t0!.tables, morsels: { ...table, ids: otherIds } } })).not.toBe(key0);
    // A second round's task (batches of the first): never kept.
    const round2 = tasks.find((t) => t.inputs !== undefined);
    expect(round2).toBeDefined();
    expect(StageGraphs.key(round2!)).toBeUndefined();
  });

  it('keeps at most its bound, dropping the least recently used', () => {
    const g = new StageGraphs(8, 2);
    const kept = (k: string): void => { g.beginTask(); g.keep(k, { graph: {} as never, flags: new Map() }); };
    kept('a'); kept('b');
    g.beginTask();
    const a = g.take('a')!;
    g.release(a);
    kept('c'); // 'b' is the least recently used
    expect(g.size).toBe(2);
    expect(g.take('b')).toBeUndefined();
    expect(g.take('a')).toBeDefined();
    // A graph in use is not lent twice.
    expect(g.take('a')).toBeUndefined();
  });
});

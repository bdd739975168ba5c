/**
 * What one share of a stage costs on each thread (docs/multi-core-history.md, session 13, "Per-row cost on the workers"): the
 * real stage tasks of a query at parallelism 2 (captured from its first run, calling thread as
 * share 0), replayed one task at a time and together, alternating run by run:
 *   - `here0`, `here1`: share 0 or share 1 on the calling thread alone (ship-task.ts, as
 *     `callingThreadShare` runs it);
 *   - `worker0`, `worker1`: the same task on the worker thread alone;
 *   - `both`: share 0 here and share 1 on the worker at once (what a stage does);
 * and the query itself at parallelism 1 (`p1`, the calling thread's CPU). Per mode, medians of
 * the job CPU of each task (TaskPhases.runCpuMs: thread clocks, thread-cpu.ts) and of wall time.
 * Separates a per-row cost of the worker thread (worker1 vs here1), of the stage path (here0 +
 * here1 vs p1) and of running together (both vs alone). Only single-stage queries over one large
 * table (TPC-H Q1, Q6) replay this way. Quote the load average.
 *
 *   node --expose-gc --import tsx bench/share-cost.ts --data /work/bench-data [--only q6,q1] [--runs 15]
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { StageRunner } from '../src/planner/ship-run.js';
import { runStageTask } from '../src/planner/ship-task.js';
import { ColumnCache } from '../src/planner/ship-column-cache.js';
import type { StageResult, StageTask } from '../src/planner/ship-protocol.js';
import { threadCpuMs } from '../src/exec/workers/thread-cpu.js';
import type { TableEnvironment } from '../src/api/environment.js';
import { p1AndP2 } from './lib/p1-p2.js';
import { loadQueries } from './suite/queries.js';
import { collectGarbage, median } from './lib/timing.js';

const { values } = parseArgs({ options: { only: { type: 'string', default: 'q6,q1' }, runs: { type: 'string', default: '15' }, data: { type: 'string' } } });
const RUNS = Number(values.runs);
const { p1, p2 } = await p1AndP2(1, values.data);

type Post = (i: number, task: StageTask, transfer: readonly ArrayBuffer[], signal?: AbortSignal) => Promise<StageResult>;
// The runner starts with the first shipped stage: one run first.
const runner = async (env: TableEnvironment, sql: string): Promise<StageRunner> => {
  const ex = (env as unknown as { executor: { stageRunner?: StageRunner } }).executor;
  if (ex.stageRunner === undefined) await env.sql(sql).collect();
  return ex.stageRunner!;
};

const load0 = loadavg()[0]!;
for (const q of loadQueries(values.only!.split(','))) {
  const r = await runner(p2, q.sql);
  if (!r.callingShare || r.workers !== 2) throw new Error('share-cost needs parallelism 2 with callingThreadShare on');
  const inner = r as unknown as { post: Post };
  const post = inner.post.bind(r);
  const tasks: StageTask[] = [];
  inner.post = (i, task, transfer, signal) => { tasks[i] = task; return post(i, task, transfer, signal); };
  for (let i = 0; i < 4; i++) await p2.sql(q.sql).collect(); // warm-up; captures the last run's tasks
  inner.post = post;
  if (tasks.length !== 2) throw new Error(`${q.id}: expected one round of two tasks`);
  const kept = new ColumnCache();
  const signal = new AbortController().signal;
  const here = (t: StageTask): Promise<StageResult> => runStageTask(t, signal, kept);
  const worker = (t: StageTask): Promise<StageResult> => post(1, t, [], undefined);
  const modes: Record<string, () => Promise<number[]>> = {
    p1: async () => { const c0 = threadCpuMs()!; await p1.sql(q.sql).collect(); return [threadCpuMs()! - c0]; },
    here0: async () => [(await here(tasks[0]!)).phases!.runCpuMs],
    here1: async () => [(await here(tasks[1]!)).phases!.runCpuMs],
    worker0: async () => [(await worker(tasks[0]!)).phases!.runCpuMs],
    worker1: async () => [(await worker(tasks[1]!)).phases!.runCpuMs],
    both: async () => { const w = worker(tasks[1]!); await Promise.resolve(); const h = await here(tasks[0]!); return [h.phases!.runCpuMs, (await w).phases!.runCpuMs]; },
  };
  const got: Record<string, { wall: number[]; cpu: number[][] }> = {};
  for (let run = -3; run < RUNS; run++) {
    for (const [name, f] of Object.entries(modes)) {
      collectGarbage();
      const t0 = performance.now();
      const cpu = await f();
      const wall = performance.now() - t0;
      if (run < 0) continue;
      const g = (got[name] ??= { wall: [], cpu: [] });
      g.wall.push(wall);
      cpu.forEach((c, i) => (g.cpu[i] ??= []).push(c));
    }
  }
  console.log(`\n${q.id}: ${RUNS} runs after 3 warm-ups (job CPU of each task; p1: the calling thread's CPU for the whole query)`);
  console.log('| mode | wall ms | CPU ms |\n| --- | ---: | --- |');
  for (const [name, g] of Object.entries(got)) console.log(`| ${name} | ${median(g.wall).toFixed(1)} | ${g.cpu.map((c) => median(c).toFixed(1)).join(' + ')} |`);
}
console.log(`\nload ${load0.toFixed(1)} -> ${loadavg()[0]!.toFixed(1)}`);
await p1.close();
await p2.close();

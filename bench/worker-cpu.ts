/**
 * CPU of one lineitem query at parallelism 1 or 2, as means over many runs (docs/multi-core-history.md,
 * session 11, "Worker CPU on scan-heavy aggregates"): the calling thread, the workers' jobs, and the whole process (V8's helper
 * threads and the workers' message handling included). bench/multi-core.ts prints medians of
 * 10 ms clock ticks, too coarse for a ~10% change in a 100 ms worker job; a mean over 20–30 runs
 * resolves it. Alternate processes of two builds (A/B) and quote the load average.
 *
 *   node --expose-gc --import tsx bench/worker-cpu.ts [q1] [p1|p2|local|seq] [runs] [--data dir]
 *
 * Modes: `p1`, `p2` (worker threads); `local` runs the p2 stage tasks on the calling thread
 * (the same shared-memory data and morsel deal, one isolate: separates the per-task work from
 * the worker threads' own cost); `seq` posts the two workers' tasks one after the other (no two
 * busy workers at once: separates the cost of running together). The first 4 runs are warm-up.
 * Only queries over lineitem alone (TPC-H Q1, Q6) apply.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { StageResult, StageTask } from '../src/planner/ship-protocol.js';
import { TableEnvironment } from '../src/api/environment.js';
import type { QueryExecutor } from '../src/api/query-execution.js';
import { loadQueries } from './suite/queries.js';
import { threadCpuMs } from '../src/exec/workers/thread-cpu.js';
import { collectGarbage } from './lib/timing.js';
import { runStageTask } from '../src/planner/ship-task.js';
import { ColumnCache } from '../src/planner/ship-column-cache.js';
import { DEFAULT_DATA_DIR, ensureData } from './suite/data.js';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { data: { type: 'string' } } });
const [qid = 'q1', mode = 'p2', runsText = '20'] = positionals;
const WARMUP = 4;
const data = await ensureData(1, values.data ?? DEFAULT_DATA_DIR, (m) => console.error(m));
const loader = TableEnvironment.create({ parallelism: 1 });
const lineitem = await (await loader.fromArrowFile(join(data.dir, 'lineitem.arrow'))).collect();
await loader.close();
const env = TableEnvironment.create({ parallelism: mode === 'p1' ? 1 : 2 });
env.registerTable('lineitem', lineitem);
const executor = (env as unknown as { executor: QueryExecutor }).executor;
type Run = (i: number, task: unknown, transfer: readonly ArrayBuffer[], signal?: AbortSignal) => Promise<unknown>;
const pool = (): { run: Run } => (executor as unknown as { stageRunner: { pool: { run: Run } } }).stageRunner.pool;
const q = loadQueries([qid])[0]!;
const kept = new ColumnCache(); // 'local': the calling thread's rebuilt columns, across tasks
if (mode === 'local' || mode === 'seq') {
  await env.sql(q.sql).collect(); // starts the stage runner
  const p = pool();
  const post = p.run.bind(p);
  let chain: Promise<unknown> = Promise.resolve();
  p.run = mode === 'local'
    ? async (_i, task) => runStageTask((typeof task === 'function' ? (task as (s: number) => StageTask)(0) : task) as StageTask, new AbortController().signal, kept) as Promise<StageResult>
    : (i, task, transfer, signal) => { const r = chain.then(() => post(i, task, transfer, signal)); chain = r.catch(() => undefined); return r; };
}
const sums = { main: 0, workers: 0, proc: 0, n: 0 };
for (let i = 0; i < Number(runsText); i++) {
  collectGarbage();
  const w0 = [...executor.workerStats.workerCpuMs];
  const c0 = threadCpuMs() ?? 0;
  const p0 = process.cpuUsage();
  await env.sql(q.sql).collect();
  const pu = process.cpuUsage(p0);
  if (i < WARMUP) continue;
  sums.n++;
  sums.main += (threadCpuMs() ?? 0) - c0;
  sums.workers += executor.workerStats.workerCpuMs.reduce((a, x, j) => a + x - (w0[j] ?? 0), 0);
  sums.proc += (pu.user + pu.system) / 1000;
}
const f = (x: number): string => (x / Math.max(1, sums.n)).toFixed(1);
console.log(`${qid} ${mode}: means of ${sums.n} runs (ms CPU): calling thread ${f(sums.main)}, worker jobs ${f(sums.workers)}, process ${f(sums.proc)}`);
await env.close();

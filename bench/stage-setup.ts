/**
 * What a stage task costs before its job runs (docs/multi-core-history.md, session 13, "Kept stage graphs"): the real
 * share-0 task of a query's first stage at parallelism 2 (captured from a run), set up on this
 * thread many times — `fresh`: decode the shipped plan and lower it (ship-task.ts without kept
 * graphs), `kept`: the task key and a kept graph's lease (ship-graph-cache.ts) — alternating
 * rounds, medians of the per-task mean. Quote the load average.
 *
 *   node --expose-gc --import tsx bench/stage-setup.ts --data /work/bench-data [--only q6,q1] [--rounds 9] [--per 200]
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { decodePlan } from '../src/planner/ship-serialize.js';
import { lower } from '../src/planner/lower.js';
import { shippedSource } from '../src/planner/ship-tables.js';
import { ColumnCache } from '../src/planner/ship-column-cache.js';
import { StageGraphs } from '../src/planner/ship-graph-cache.js';
import type { StageResult, StageTask } from '../src/planner/ship-protocol.js';
import type { StageRunner } from '../src/planner/ship-run.js';
import { p1AndP2 } from './lib/p1-p2.js';
import { loadQueries } from './suite/queries.js';
import { median } from './lib/timing.js';

const { values } = parseArgs({ options: { only: { type: 'string', default: 'q6,q1' }, rounds: { type: 'string', default: '9' }, per: { type: 'string', default: '200' }, data: { type: 'string' } } });
const { p1, p2 } = await p1AndP2(1, values.data);
const executor = (p2 as unknown as { executor: { stageRunner?: StageRunner } }).executor;
// The runner exists once a p2 query has run stages.
if (executor.stageRunner === undefined) await p2.sql(loadQueries(['q6'])[0]!.sql).collect();
const runner = executor.stageRunner!;
type Post = (i: number, task: StageTask, transfer: readonly ArrayBuffer[], signal?: AbortSignal) => Promise<StageResult>;
const load0 = loadavg()[0]!;
for (const q of loadQueries(values.only!.split(','))) {
  const inner = runner as unknown as { post: Post };
  const post = inner.post.bind(runner);
  const tasks: StageTask[] = [];
  inner.post = (i, task, transfer, signal) => { tasks.push(task); return post(i, task, transfer, signal); };
  await p2.sql(q.sql).collect();
  inner.post = post;
  const task = tasks[0]!;
  const kept = new ColumnCache();
  const fresh = (): void => {
    kept.beginTask(Object.values(task.tables));
    const sources = new Map<string, object>();
    const source = (name: string): object => {
      let s = sources.get(name);
      if (s === undefined) { s = shippedSource(task.tables[name]!, name, task.morsels?.key === name ? task.morsels : task.restricted?.[name], kept); sources.set(name, s); }
      return s;
    };
    lower(decodePlan(task.plan, source), { parallelism: 1, ...(task.groupsShare !== undefined ? { groupsShare: task.groupsShare } : {}) });
  };
  const graphs = new StageGraphs();
  const key0 = StageGraphs.key(task)!;
  graphs.keep(key0, { graph: {} as never, flags: new Map() });
  const reuse = (): void => {
    kept.beginTask(Object.values(task.tables));
    graphs.beginTask();
    const g = graphs.take(StageGraphs.key(task)!);
    if (g === undefined) throw new Error('no kept graph');
    graphs.release(g);
  };
  const per = Number(values.per);
  const got: Record<string, number[]> = { fresh: [], kept: [] };
  for (let r = -2; r < Number(values.rounds); r++) {
    for (const [name, f] of [['fresh', fresh], ['kept', reuse]] as const) {
      const t0 = performance.now();
      for (let i = 0; i < per; i++) f();
      if (r >= 0) got[name]!.push((performance.now() - t0) / per);
    }
  }
  console.log(`${q.id}: setup per task, fresh (decode + lower) ${median(got.fresh!).toFixed(3)} ms, kept graph ${median(got.kept!).toFixed(3)} ms (shipped plan ${JSON.stringify(task.plan).length} bytes)`);
}
console.log(`load ${load0.toFixed(1)} -> ${loadavg()[0]!.toFixed(1)}`);
await p1.close();
await p2.close();

/**
 * The stage cost model next to what the stages cost (src/planner/ship-cost.ts, docs/multi-core.md
 * "When a stage is not shipped"): per TPC-H query, the calling thread's CPU at parallelism 1 and,
 * at parallelism 2 with every candidate stage shipped (the model off), each stage's wall time and
 * its workers' job CPU, beside the model's estimates for the same stage and its decision. The
 * "stage at p1" column is the CPU of the stage's own subtree run alone on this thread at
 * parallelism 1 (what the model's "1 thread" estimates): a stage pays when its wall at p2 is well
 * under it. "CPU speed-up" is that over the critical path's CPU at p2 (this thread's, with share 0
 * when it runs it, and the busier share): robust to load, an upper bound of the quiet wall's. This is how the model's constants were set; rerun it after changing them or the stages.
 *
 *   npm run bench:ship-cost -- --data /work/bench-data [--sf 1] [--only q2,q10] [--runs 3] [--model-only]
 *
 * --model-only prints what `workers: 'auto'` decides (EXPLAIN's "Worker Stages") without running.
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Table as ArrowTable } from 'apache-arrow';
import { TableEnvironment } from '../src/api/environment.js';
import type { QueryExecutor } from '../src/api/query-execution.js';
import { TPCH_TABLES } from '../src/io/tpch/index.js';
import { threadCpuMs } from '../src/exec/workers/thread-cpu.js';
import { StageRunner, type StageOptions } from '../src/planner/ship-run.js';
import type { AggregateStage } from '../src/planner/ship-stages.js';
import type { RelNode } from '../src/relnode/rel.js';
import { lowerPlan } from '../src/planner/planner.js';
import { executeJob } from '../src/exec/runtime.js';
import { DEFAULT_DATA_DIR, ensureData } from './suite/data.js';
import { loadQueries } from './suite/queries.js';
import { collectGarbage, median } from './lib/timing.js';

const all = Array.from({ length: 22 }, (_, i) => `q${i + 1}`).join(',');
const { values } = parseArgs({ options: { sf: { type: 'string', default: '1' }, only: { type: 'string', default: all }, runs: { type: 'string', default: '3' }, data: { type: 'string' }, 'model-only': { type: 'boolean', default: false } } });
const runs = Number(values.runs);
const data = await ensureData(Number(values.sf), values.data ?? DEFAULT_DATA_DIR, (m) => console.error(m));
const loader = TableEnvironment.create({ parallelism: 1 });
const tables: Record<string, ArrowTable> = {};
for (const n of TPCH_TABLES) tables[n] = await (await loader.fromArrowFile(join(data.dir, `${n}.arrow`))).collect();
await loader.close();

// Every candidate ships (the model still weighs each): what each stage costs when run.
const run = StageRunner.prototype.runStages;
StageRunner.prototype.runStages = function (this: StageRunner, plan, o: StageOptions) {
  return run.call(this, plan, { ...o, costed: false });
};

// The stages' subtrees as run (later ones read earlier stages' results), for the p1 column.
const stageNodes: RelNode[] = [];
const proto = StageRunner.prototype as unknown as { runStage: (st: AggregateStage, o: StageOptions) => Promise<RelNode> };
const runStage = proto.runStage;
proto.runStage = function (this: StageRunner, st: AggregateStage, o: StageOptions) {
  stageNodes.push(st.node);
  return runStage.call(this, st, o);
};

/** CPU ms of `node` run alone on this thread at parallelism 1, median of `runs` after a warm-up. */
async function p1CpuOf(node: RelNode): Promise<number> {
  const xs: number[] = [];
  for (let i = 0; i <= runs; i++) {
    collectGarbage();
    const c0 = threadCpuMs() ?? 0;
    for await (const b of executeJob(lowerPlan(node, { parallelism: 1 }, 1), { batchSize: 65536 })) void b;
    if (i > 0) xs.push((threadCpuMs() ?? 0) - c0);
  }
  return median(xs);
}

const p1 = TableEnvironment.create({ parallelism: 1 });
const p2 = TableEnvironment.create({ parallelism: 2 });
for (const n of TPCH_TABLES) { p1.registerTable(n, tables[n]!); p2.registerTable(n, tables[n]!); }
const callingShare = (): boolean => (p2 as unknown as { executor: { stageRunner?: { callingShare: boolean } } }).executor.stageRunner?.callingShare ?? false;
const stats = (): QueryExecutor['workerStats'] => (p2 as unknown as { executor: QueryExecutor }).executor.workerStats;

async function cpuOf(env: TableEnvironment, sql: string): Promise<number> {
  collectGarbage();
  const c0 = threadCpuMs() ?? 0;
  await env.sql(sql).collect();
  return (threadCpuMs() ?? 0) - c0;
}

const f = (x: number): string => x.toFixed(0);
console.log('| query | p1 CPU ms | p2 wall ms | stage | mode | wall ms | stage at p1 CPU ms | calling + job CPU ms (w0 + w1) | CPU speed-up | model: 1 thread / W workers ms (divided, repeated, crossing, fixed) | crossing rows | model says |');
console.log('| --- | ---: | ---: | --- | --- | ---: | ---: | ---: | ---: | --- | ---: | --- |');
const load0 = loadavg()[0]!;
for (const q of loadQueries(values.only!.split(','))) {
  if (values['model-only']) {
    const ex = await p2.sql(q.sql).explain();
    console.log(`${q.id}: ${ex.includes('== Worker Stages ==') ? ex.slice(ex.indexOf('== Worker Stages ==') + 20).split('\n').join('; ') : 'no stage'}`);
    continue;
  }
  for (let i = 0; i < 2; i++) { await cpuOf(p1, q.sql); await cpuOf(p2, q.sql); }
  const c1: number[] = [];
  const w2: number[] = [];
  const traces: QueryExecutor['workerStats']['traces'][] = [];
  for (let i = 0; i < runs; i++) {
    c1.push(await cpuOf(p1, q.sql));
    const before = new Set(stats().traces);
    stageNodes.length = 0;
    collectGarbage();
    const t0 = performance.now();
    await p2.sql(q.sql).collect();
    w2.push(performance.now() - t0);
    traces.push(stats().traces.filter((t) => !before.has(t)));
  }
  const decisions = stats().decisions;
  const stageP1: number[] = [];
  for (const n of [...stageNodes]) stageP1.push(await p1CpuOf(n));
  const shipped = decisions.filter((d) => d.shipped);
  const refused = decisions.filter((d) => !d.shipped);
  const k = Math.max(shipped.length, ...traces.map((t) => t.length));
  const head = `| ${q.id} | ${f(median(c1))} | ${f(median(w2))} |`;
  if (k === 0) console.log(`${head} — | | | | | | | | |`);
  for (let s = 0; s < k; s++) {
    const ts = traces.map((t) => t[s]).filter((t) => t !== undefined);
    const job = (w: number): number => median(ts.map((t) => t.rounds.reduce((a, r) => a + (r[w]?.runCpuMs ?? 0) + (r[w]?.setupCpuMs ?? 0) + (r[w]?.encodeCpuMs ?? 0), 0)));
    // The critical path's CPU: this thread's (with share 0 when it runs it) and the busier share beside it.
    const calling = median(ts.map((t) => t.callingCpuMs));
    const critical = callingShare() ? calling - job(0) + Math.max(job(0), job(1)) : calling + Math.max(job(0), job(1));
    const speedUp = ts.length && stageP1[s] !== undefined ? `${(stageP1[s]! / critical).toFixed(2)}×` : '';
    const d = shipped[s];
    const c = d?.cost;
    const model = c ? `${f(c.oneThreadMs)} / ${f(c.parallelMs)} (${f(c.parts.divided)}, ${f(c.parts.repeated)}, ${f(c.parts.crossing)}, ${f(c.parts.fixed)})` : '';
    console.log(`${s === 0 ? head : '| | | |'} ${s + 1} | ${ts[0]?.mode ?? ''} | ${ts.length ? f(median(ts.map((t) => t.wallMs))) : ''} | ${stageP1[s] !== undefined ? f(stageP1[s]!) : ''} | ${ts.length ? `${f(calling)} + ${f(job(0))} + ${f(job(1))}` : ''} | ${speedUp} | ${model} | ${c ? f(c.crossingRows) : ''} | ${c ? (c.ship ? 'ship' : `keep: ${c.reason}`) : ''} |`);
  }
  // What 'auto' does with the model on (EXPLAIN's section).
  const ex = await p2.sql(q.sql).explain();
  const auto = ex.includes('== Worker Stages ==') ? ex.slice(ex.indexOf('== Worker Stages ==') + 20).split('\n') : [];
  console.log(`| | | | auto | | | | | | ${auto.join('; ')} | | |`);
  for (const d of refused) {
    const c = d.cost;
    console.log(`| | | | – | ${d.mode} | | | | | ${c ? `${f(c.oneThreadMs)} / ${f(c.parallelMs)} (${f(c.parts.divided)}, ${f(c.parts.repeated)}, ${f(c.parts.crossing)}, ${f(c.parts.fixed)})` : ''} | ${c ? f(c.crossingRows) : ''} | not shipped: ${d.reason} |`);
  }
}
console.log(`\nload average 1 min: ${load0.toFixed(2)} at start, ${loadavg()[0]!.toFixed(2)} at end; ${runs} runs per engine after 2 warm-ups`);
await p1.close();
await p2.close();

/**
 * The fixed cost of parallelism 2 on queries that run no worker stage (docs/multi-core.md "What
 * falls back to the calling thread"; docs/multi-core-history.md, session 12, "p2 without a
 * stage"): TPC-H queries on a parallelism-1 and a parallelism-2 environment, runs interleaved (p1, p2, p1, ...), medians of the calling thread's
 * CPU, the process's CPU (workers and V8's helper threads included) and wall time. Both
 * environments first run `--prime` (default q1), as in the suite, where Q2 runs after Q1: the
 * parallelism-2 environment then has its workers started and shared copies of the tables made.
 * Also counts plan reuses (physical-plans.ts) and searches for stages (StageRunner.runStages):
 * a query run again should reuse its plan and not search again. `--fresh` registers the `region`
 * table again before every run (in both environments, not timed): the binding generation moves, so
 * every run plans afresh, as a prepared statement with new values does — what planning, the stage
 * search and lowering cost at p2. (A new text is not enough: its tree is found by digest.) Queries
 * over `region` also miss the stageless memo (ship-memo.ts: the table's version is in the digest).
 *
 *   node --expose-gc --import tsx bench/p2-fixed-cost.ts --data /work/bench-data [--only q2,q22] [--runs 21] [--prime q1] [--fresh]
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import type { TableEnvironment } from '../src/api/environment.js';
import { physicalPlanStats } from '../src/api/physical-plans.js';
import { threadCpuMs } from '../src/exec/workers/thread-cpu.js';
import { StageRunner } from '../src/planner/ship-run.js';
import { loadQueries } from './suite/queries.js';
import { p1AndP2 } from './lib/p1-p2.js';
import { collectGarbage, median } from './lib/timing.js';

const { values } = parseArgs({ options: { only: { type: 'string', default: 'q2,q22' }, runs: { type: 'string', default: '21' }, data: { type: 'string' }, prime: { type: 'string', default: 'q1' }, warmup: { type: 'string', default: '3' }, fresh: { type: 'boolean', default: false } } });
const runs = Number(values.runs);
const { tables, p1, p2 } = await p1AndP2(1, values.data);

let searches = 0;
const search = StageRunner.prototype.runStages;
StageRunner.prototype.runStages = function (this: StageRunner, ...args: Parameters<typeof search>) { searches++; return search.apply(this, args); };

interface Run { wall: number; cpu: number; process: number }
async function once(env: TableEnvironment, sql: string): Promise<Run> {
  collectGarbage();
  const c0 = threadCpuMs() ?? 0;
  const p0 = process.cpuUsage();
  const t0 = performance.now();
  await env.sql(sql).collect();
  const wall = performance.now() - t0;
  const pu = process.cpuUsage(p0);
  return { wall, cpu: (threadCpuMs() ?? 0) - c0, process: (pu.user + pu.system) / 1000 };
}

for (const q of values.prime ? loadQueries(values.prime.split(',')) : []) { await once(p1, q.sql); await once(p2, q.sql); }
const load0 = loadavg()[0]!;
console.log('| query | p1 wall ms | p2 wall ms | p1 thread CPU ms | p2 thread CPU ms | p1 process CPU ms | p2 process CPU ms | plan reuses p2 | stage searches p2 |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const q of loadQueries(values.only!.split(','))) {
  for (let i = 0; i < Number(values.warmup); i++) { await once(p1, q.sql); await once(p2, q.sql); }
  const r1: Run[] = [];
  const r2: Run[] = [];
  let hits2 = 0;
  const s0 = searches;
  for (let i = 0; i < runs; i++) {
    if (values.fresh) for (const e of [p1, p2]) e.registerTable('region', tables.region!);
    r1.push(await once(p1, q.sql));
    const h = physicalPlanStats.hits;
    r2.push(await once(p2, q.sql));
    hits2 += physicalPlanStats.hits - h;
  }
  const m = (rs: Run[], k: keyof Run): string => median(rs.map((r) => r[k])).toFixed(1);
  console.log(`| ${q.id} | ${m(r1, 'wall')} | ${m(r2, 'wall')} | ${m(r1, 'cpu')} | ${m(r2, 'cpu')} | ${m(r1, 'process')} | ${m(r2, 'process')} | ${hits2}/${runs} | ${searches - s0} |`);
}
console.log(`\nload average 1 min: ${load0.toFixed(2)} at start, ${loadavg()[0]!.toFixed(2)} at end; ${runs} timed runs per engine after ${values.warmup} warm-up(s), primed with ${values.prime || 'nothing'}${values.fresh ? '; every run planned afresh' : ''}`);
await p1.close();
await p2.close();

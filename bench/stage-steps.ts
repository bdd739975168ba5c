/**
 * Where a worker stage's wall time goes (docs/multi-core-history.md, session 12, "A stage's fixed costs"): a query run
 * many times at parallelism 2, and per step the median wall milliseconds — this thread preparing
 * the tasks, posting them, the workers' delivery, decode + lower, job and encode, the replies,
 * this thread's finish, and the query outside its stages (planning, the rest of the plan).
 *
 *   node --expose-gc --import tsx bench/stage-steps.ts --data /work/bench-data [--only q6,q1] [--runs 30] [--warmup 5]
 *
 * Thread CPU has 10 ms ticks, so a fixed cost of a few milliseconds shows only in wall time:
 * medians over many runs, on a quiet moment (the load average is printed).
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { TableEnvironment } from '../src/api/environment.js';
import type { QueryExecutor } from '../src/api/query-execution.js';
import { TPCH_TABLES } from '../src/io/tpch/index.js';
import type { RoundTrace, StageTrace } from '../src/planner/ship-run.js';
import { DEFAULT_DATA_DIR, ensureData } from './suite/data.js';
import { loadQueries } from './suite/queries.js';

const { values } = parseArgs({ options: { sf: { type: 'string', default: '1' }, only: { type: 'string', default: 'q6,q1' }, runs: { type: 'string', default: '30' }, warmup: { type: 'string', default: '5' }, data: { type: 'string' }, parallelism: { type: 'string', default: '2' } } });
const data = await ensureData(Number(values.sf), values.data ?? DEFAULT_DATA_DIR, (m) => console.error(m));
const queries = loadQueries(values.only!.split(','));
const env = TableEnvironment.create({ parallelism: Number(values.parallelism) });
for (const n of TPCH_TABLES) {
  if (!queries.some((q) => new RegExp(`\\b${n}\\b`, 'i').test(q.sql))) continue;
  env.registerTable(n, await (await env.fromArrowFile(join(data.dir, `${n}.arrow`))).collect());
}
const traces = (): readonly StageTrace[] => (env as unknown as { executor: QueryExecutor }).executor.workerStats.traces;
const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)] ?? 0; };
const f = (x: number): string => x.toFixed(1);
import { collectGarbage } from './lib/timing.js';

const load0 = loadavg()[0]!;
for (const q of queries) {
  const totals: number[] = [];
  const cpus: number[] = [];
  const stages: StageTrace[][] = [];
  for (let i = 0; i < Number(values.warmup) + Number(values.runs); i++) {
    collectGarbage(); // a bare gc() would also drop this thread's optimized code (bench/README.md)
    const before = new Set(traces());
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await env.sql(q.sql).collect();
    const wall = performance.now() - t0;
    const c = process.cpuUsage(c0);
    if (i < Number(values.warmup)) continue;
    totals.push(wall);
    cpus.push((c.user + c.system) / 1000);
    stages.push(traces().filter((t) => !before.has(t)));
  }
  const stageWall = median(stages.map((ts) => ts.reduce((a, t) => a + t.wallMs, 0)));
  console.log(`${q.id}: query ${f(median(totals))} ms (process CPU ${f(median(cpus))} ms, all threads), stages ${f(stageWall)}, outside the stages ${f(median(totals.map((t, i) => t - stages[i]!.reduce((a, s) => a + s.wallMs, 0))))}`);
  const k = Math.min(...stages.map((ts) => ts.length));
  for (let s = 0; s < k; s++) {
    const ts = stages.map((x) => x[s]!);
    const m = (g: (t: StageTrace) => number): string => f(median(ts.map(g)));
    console.log(`  stage ${s + 1} ${ts[0]!.mode}: wall ${m((t) => t.wallMs)}; this thread: prepare ${m((t) => t.prepareMs)}, post ${ts[0]!.postMs.map((_, r) => m((t) => t.postMs[r] ?? 0)).join(' / ')}, between rounds ${m((t) => t.betweenMs)}, finish ${m((t) => t.finishMs)}`);
    ts[0]!.rounds.forEach((round, r) => round.forEach((_, w) => {
      const g = (key: keyof RoundTrace): string => m((t) => t.rounds[r]?.[w]?.[key] ?? 0);
      console.log(`    round ${r + 1} w${w}: post→start ${g('postToStartMs')}, setup ${g('setupWallMs')}, job ${g('runWallMs')} (CPU ${g('runCpuMs')}), encode ${g('encodeWallMs')}, reply ${g('replyMs')}`);
    }));
  }
}
console.log(`load average 1 min: ${load0.toFixed(2)} at start, ${loadavg()[0]!.toFixed(2)} at end; ${values.runs} runs after ${values.warmup} warm-up(s)`);
await env.close();

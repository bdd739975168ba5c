/**
 * Multi-core figures (docs/multi-core.md): TPC-H queries at parallelism 1 and at parallelism 2
 * on worker threads, runs interleaved (p1, p2, p1, p2, ...) so a shared machine's load hits
 * both alike; medians of wall time, the calling thread's CPU time, and the workers' CPU time
 * per run, plus the load average. Answers are checked equal (sorted rows, floats to 1e-9).
 *
 *   node --expose-gc --import tsx bench/multi-core.ts [--sf 1] [--only q1,q3,q6,q18] [--runs 5] [--warmup 1] [--data dir] [--trace]
 *                                                     [--warm-all N] [--p1-only]
 *
 * --warmup N runs each query N times per engine before the timed runs (the first also checks the
 * answers). Each worker is a V8 isolate of its own that sees half the rows of a query, so its
 * functions reach TurboFan after more queries than the calling thread's (docs/multi-core.md):
 * with one warm-up the p2 medians include warming runs; 3–4 measure the steady state.
 *
 * --warm-all N first runs every one of the 22 TPC-H queries N times on each engine (untimed, in
 * query order), as the suite's process has by the time it reaches a query: one isolate then has
 * run all 22 query shapes through the shared operators and kernels, not only the timed ones.
 * --p1-only skips parallelism 2 (warm-ups, --warm-all and timed runs) and prints, per query, p1's
 * main-thread CPU of every run, its other threads' CPU, the process's system CPU and minor page faults.
 *
 * --trace adds, per query, where p2's time went: per stage (medians over the runs) the calling
 * thread's CPU and wall time, and per worker and round the message delivery, decode + lower,
 * job and encode CPU, the worker's wall time and the reply's delivery; and the calling thread's
 * CPU outside the stages (planning, the rest of the plan).
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Table as ArrowTable } from 'apache-arrow';
import type { TableEnvironment } from '../src/api/environment.js';
import type { QueryExecutor } from '../src/api/query-execution.js';
import { threadCpuMs } from '../src/exec/workers/thread-cpu.js';
import type { RoundTrace, StageTrace } from '../src/planner/ship-run.js';
import { loadQueries } from './suite/queries.js';
import { p1AndP2 } from './lib/p1-p2.js';
import { quiesce } from './lib/quiesce.js';
import { collectGarbage } from './lib/timing.js';

const { values } = parseArgs({ options: { sf: { type: 'string', default: '1' }, only: { type: 'string', default: 'q1,q3,q6,q18' }, runs: { type: 'string', default: '5' }, data: { type: 'string' }, trace: { type: 'boolean', default: false }, warmup: { type: 'string', default: '1' }, 'warm-all': { type: 'string', default: '0' }, 'p1-only': { type: 'boolean', default: false } } });
const sf = Number(values.sf);
const runs = Number(values.runs);
const { p1, p2 } = await p1AndP2(sf, values.data);
const stats = (): QueryExecutor['workerStats'] => (p2 as unknown as { executor: QueryExecutor }).executor.workerStats;
const callingShare = (): boolean => (p2 as unknown as { executor: { stageRunner?: { callingShare: boolean } } }).executor.stageRunner?.callingShare ?? false;

const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]!; };
const rowsOf = (t: ArrowTable): string => JSON.stringify(t.toArray().map((r) => Object.values(r.toJSON()).map((v) => (typeof v === 'number' ? Number(v.toPrecision(9)) : typeof v === 'bigint' ? Number(v) : v))).sort(), (_k, v) => (typeof v === 'bigint' ? Number(v) : v));

interface Run { wall: number; cpu: number; workers: number; perWorker: number[]; share0: number; traces: StageTrace[]; other: number; sys: number; faults: number }
async function once(env: TableEnvironment, sql: string): Promise<{ run: Run; table: ArrowTable }> {
  collectGarbage(); // not a bare gc(), which discards the calling thread's optimized code; a Scavenge on Node 20 (lib/timing.ts)
  await quiesce(); // the previous run's leftover helper-thread work is not billed to this one (lib/quiesce.ts), as in the suite
  const w0 = [...stats().workerCpuMs];
  const before = new Set(stats().traces); // the runner keeps the last 64 traces: a count would slice wrongly once full
  const c0 = threadCpuMs() ?? 0;
  const p0 = process.cpuUsage();
  const f0 = process.resourceUsage().minorPageFault;
  const t0 = performance.now();
  const table = await env.sql(sql).collect();
  const wall = performance.now() - t0;
  const cpu = (threadCpuMs() ?? 0) - c0;
  const pu = process.cpuUsage(p0);
  const faults = process.resourceUsage().minorPageFault - f0;
  // With the calling thread as share 0 (StageRunner.callingShare), that share's CPU is this thread's: only the others are workers'.
  const shares = env === p2 ? stats().workerCpuMs.map((x, i) => x - (w0[i] ?? 0)) : [];
  const share0 = callingShare() ? shares[0] ?? 0 : 0;
  const perWorker = shares.slice(callingShare() ? 1 : 0);
  const traces = env === p2 ? stats().traces.filter((t) => !before.has(t)) : [];
  const workers = perWorker.reduce((a, b) => a + b, 0);
  // The process's CPU beyond the JavaScript threads: V8's helper threads (GC, concurrent compilation).
  const other = (pu.user + pu.system) / 1000 - cpu - workers;
  return { run: { wall, cpu, workers, perWorker, share0, traces, other, sys: pu.system / 1000, faults }, table };
}

/** Medians over the runs of each stage's figures (runs of one query run the same stages). */
function traceOf(id: string, rs: Run[]): string[] {
  const out: string[] = [];
  const f = (x: number): string => x.toFixed(0);
  const stagesCpu = median(rs.map((r) => r.traces.reduce((a, t) => a + t.callingCpuMs, 0)));
  const k = Math.min(...rs.map((r) => r.traces.length));
  for (let s = 0; s < k; s++) {
    const ts = rs.map((r) => r.traces[s]!);
    const rounds = ts[0]!.rounds.map((round, ri) => round.map((_, wi) => {
      const g = (key: keyof RoundTrace): number => median(ts.map((t) => t.rounds[ri]?.[wi]?.[key] ?? 0));
      return `w${wi}: ${f(g('postToStartMs'))}, ${f(g('setupCpuMs'))} / ${f(g('runCpuMs'))} / ${f(g('encodeCpuMs'))}, ${f(g('workerWallMs'))}, ${f(g('replyMs'))}`;
    }).join('; ')).join(' ‖ ');
    out.push(`| ${id} stage ${s + 1} | ${ts[0]!.mode}${ts[0]!.contiguous ? ' (sorted key)' : ''} | ${f(median(ts.map((t) => t.wallMs)))} | ${f(median(ts.map((t) => t.callingCpuMs)))} | ${rounds} |`);
  }
  out.push(`| ${id} outside stages | | | ${f(median(rs.map((r) => r.cpu)) - stagesCpu)} | |`);
  return out;
}
const traceLines: string[] = [];

const load0 = loadavg()[0]!;
const p1Only = values['p1-only'] === true;
const warmAll = Number(values['warm-all']);
const ALL = Array.from({ length: 22 }, (_, i) => `q${i + 1}`);
for (let i = 0; i < warmAll; i++) {
  for (const q of loadQueries(ALL)) { await p1.sql(q.sql).collect(); if (!p1Only) await p2.sql(q.sql).collect(); }
}
if (p1Only) {
  console.log(`| query | p1 ms | p1 main CPU ms | main CPU ms of each run | other threads CPU ms | system CPU ms | minor page faults |`);
  console.log(`| --- | ---: | ---: | --- | ---: | ---: | ---: |`);
} else {
  console.log(`| query | p1 ms | p2 ms | speed-up | p1 main CPU ms | p2 main CPU ms | p2 worker CPU ms (each) | CPU speed-up | other threads CPU ms p1 / p2 |`);
  console.log(`| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |`);
}
for (const q of loadQueries(values.only!.split(','))) {
  // Warm-up (starts the workers, converts the tables to shared memory once), and the answer check.
  const a = await once(p1, q.sql);
  if (!p1Only) {
    const b = await once(p2, q.sql);
    if (rowsOf(a.table) !== rowsOf(b.table)) throw new Error(`${q.id}: p2 on workers answered differently from p1`);
  }
  for (let i = 1; i < Number(values.warmup); i++) { await once(p1, q.sql); if (!p1Only) await once(p2, q.sql); }
  const r1: Run[] = [];
  const r2: Run[] = [];
  for (let i = 0; i < runs; i++) { r1.push((await once(p1, q.sql)).run); if (!p1Only) r2.push((await once(p2, q.sql)).run); }
  if (p1Only) {
    const m1 = (k: 'wall' | 'cpu' | 'other' | 'sys' | 'faults'): string => median(r1.map((r) => r[k])).toFixed(0);
    console.log(`| ${q.id} | ${m1('wall')} | ${m1('cpu')} | ${r1.map((r) => r.cpu.toFixed(0)).join(', ')} | ${m1('other')} | ${m1('sys')} | ${m1('faults')} |`);
    continue;
  }
  const m = (rs: Run[], k: 'wall' | 'cpu' | 'workers' | 'other'): number => median(rs.map((r) => r[k]));
  const each = r2[0]!.perWorker.map((_, i) => median(r2.map((r) => r.perWorker[i] ?? 0)).toFixed(0)).join(' + ');
  // The CPU critical path of p2 (bench/suite/run.ts criticalPath): the calling thread outside the shares plus the
  // busiest share — share 0 is the calling thread's own under callingThreadShare (from that option becoming the
  // default until suitegap's fix it was counted twice, in the calling thread and as if beside it, so the "CPU
  // speed-up" read about p1 / (p1 + overhead) < 1).
  const critical = median(r2.map((r) => r.cpu - r.share0 + Math.max(r.share0, ...r.perWorker)));
  if (values.trace) traceLines.push(...traceOf(q.id, r2));
  console.log(`| ${q.id} | ${m(r1, 'wall').toFixed(0)} | ${m(r2, 'wall').toFixed(0)} | ${(m(r1, 'wall') / m(r2, 'wall')).toFixed(2)}× | ${m(r1, 'cpu').toFixed(0)} | ${m(r2, 'cpu').toFixed(0)} | ${each} | ${(m(r1, 'cpu') / critical).toFixed(2)}× | ${m(r1, 'other').toFixed(0)} / ${m(r2, 'other').toFixed(0)} |`);
}
if (traceLines.length > 0) console.log(['', '| query / stage | mode | wall ms | calling CPU ms | worker: post→start ms, setup / job / encode CPU ms, wall ms, reply ms |', '| --- | --- | ---: | ---: | --- |', ...traceLines].join('\n'));
console.log(`\nload average 1 min: ${load0.toFixed(2)} at start, ${loadavg()[0]!.toFixed(2)} at end; ${runs} timed runs per engine after ${values.warmup} warm-up(s)${warmAll > 0 ? ` and ${warmAll} round(s) of all 22 queries first` : ''}; SF ${sf}; stages run: ${stats().stages}`);
await p1.close();
await p2.close();

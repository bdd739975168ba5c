/**
 * Diagnostic (suitegap2): does what runs right before a parallelism-2 query change its cost? The
 * suite runs DuckDB (2 threads), eddy p1, Arquero and the hand loops between two p2 runs of a query,
 * bench/multi-core.ts only p1: the worker isolate idles longer, and other code runs on the calling
 * thread. Each timed p2 run here follows one "filler", the fillers interleaved round by round so a
 * shared machine's load hits all alike:
 *   p1        eddy at parallelism 1 (bench/multi-core.ts's order)
 *   p2        another p2 run (back to back)
 *   sleepN    the process idle N ms (the worker idles as long)
 *   spinN     the calling thread busy N ms in a loop that allocates nothing
 *   garbageN  the calling thread busy N ms allocating short-lived objects (like Arquero)
 *   duck      the query on DuckDB at 2 threads (--duck: loads DuckDB's tables from the Parquet files)
 *   hand      the Q1 / Q6 hand loop (other queries: none)
 *   arq       the query on Arquero (Q1, Q3, Q6; other queries: none)
 *   gcN       N major GCs (collectGarbage(), as the suite does before every engine's run)
 * --settle waits for the process's other threads to go quiet before each timed p2 run, as the
 * suite and bench/multi-core.ts now do (lib/quiesce.ts). --tails measures instead what each filler
 * leaves behind: the process's CPU (other threads: the calling thread sleeps) in the 50 ms after
 * it returns, medians and every run.
 * Per filler, medians over the runs of p2's wall ms, the calling thread's CPU, the worker's CPU,
 * the process's CPU, and from the stage traces the worker's post→start, its job CPU and wall, and
 * the reply's delivery. Thread CPU is load-independent, so the CPU columns compare across
 * fillers under load; the latency columns only on a quiet machine.
 *
 *   node --expose-gc --import tsx bench/p2-before.ts --data /work/bench-data [--only q1,q6] [--runs 9] [--fillers p1,p2,sleep1000,duck] [--duck] [--marks] [--settle] [--tails]
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import '../src/sql/index.js';
import type { TableEnvironment } from '../src/api/environment.js';
import type { QueryExecutor } from '../src/api/query-execution.js';
import { threadCpuMs } from '../src/exec/workers/thread-cpu.js';
import type { StageTrace } from '../src/planner/ship-trace.js';
import { p1AndP2 } from './lib/p1-p2.js';
import { arqueroTables } from './lib/arquero-data.js';
import { q1Arquero, q3Arquero, q6Arquero } from './lib/arquero-queries.js';
import { q6HandLoop } from './lib/hand-loop.js';
import { quiesce } from './lib/quiesce.js';
import { collectGarbage, median } from './lib/timing.js';
import { ensureData, loadDuckDbTables } from './suite/data.js';
import { q1HandLoop } from './suite/hand-q1.js';
import { loadQueries } from './suite/queries.js';

const { values } = parseArgs({ options: {
  only: { type: 'string', default: 'q1,q6' }, runs: { type: 'string', default: '9' }, warmup: { type: 'string', default: '3' },
  data: { type: 'string' }, fillers: { type: 'string', default: 'p1,p2,sleep1000,spin300,garbage300' }, duck: { type: 'boolean', default: false },
  marks: { type: 'boolean', default: false }, settle: { type: 'boolean', default: false }, tails: { type: 'boolean', default: false },
} });
const runs = Number(values.runs);
const fillers = values.fillers!.split(',');
const { tables, p1, p2 } = await p1AndP2(1, values.data);
let duck: DuckDBConnection | undefined;
let duckInstance: DuckDBInstance | undefined;
if (values.duck || fillers.includes('duck')) {
  duckInstance = await DuckDBInstance.create(':memory:');
  duck = await duckInstance.connect();
  await loadDuckDbTables(await ensureData(1, values.data), duck);
  await duck.run('SET threads = 2');
}
const aq = fillers.includes('arq') ? arqueroTables(tables, ['lineitem', 'orders', 'customer']) : undefined;
const ARQUERO: Record<string, typeof q1Arquero> = { q1: q1Arquero, q3: q3Arquero, q6: q6Arquero };
const stats = (): QueryExecutor['workerStats'] => (p2 as unknown as { executor: QueryExecutor }).executor.workerStats;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
let sink = 0;
function spin(ms: number): void {
  const t0 = performance.now();
  let x = 0;
  while (performance.now() - t0 < ms) for (let i = 0; i < 1e5; i++) x = (x * 31 + i) | 0;
  sink += x;
}
function garbage(ms: number): void {
  const t0 = performance.now();
  while (performance.now() - t0 < ms) {
    const rows: { a: number; b: string; c: number[] }[] = [];
    for (let i = 0; i < 1e4; i++) rows.push({ a: i, b: `r${i}`, c: [i, i + 1] });
    sink += rows.length;
  }
}

async function filler(f: string, sql: string, id: string): Promise<void> {
  const n = Number(f.replace(/^\D+/, ''));
  if (f === 'p1') await p1.sql(sql).collect();
  else if (f === 'p2') await p2.sql(sql).collect();
  else if (f.startsWith('sleep')) await sleep(n);
  else if (f.startsWith('spin')) spin(n);
  else if (f.startsWith('garbage')) garbage(n);
  else if (f === 'duck') await duck!.runAndReadAll(sql);
  else if (f === 'arq') { const a = ARQUERO[id]; if (a && aq) sink += a(aq).objects().length; }
  else if (f.startsWith('gc')) { for (let i = 0; i < n; i++) collectGarbage(); }
  else if (f === 'hand') { if (id === 'q1') q1HandLoop(tables.lineitem!); else if (id === 'q6') q6HandLoop(tables.lineitem!); }
  else throw new Error(`unknown filler ${f}`);
}

interface Run { wall: number; calling: number; worker: number; proc: number; post: number; job: number; wWall: number; reply: number; stageWall: number; share0: number }
async function p2Once(sql: string): Promise<Run> {
  collectGarbage();
  if (values.settle) await quiesce();
  const w0 = [...stats().workerCpuMs];
  const before = new Set(stats().traces);
  const c0 = threadCpuMs() ?? 0;
  const p0 = process.cpuUsage();
  const t0 = performance.now();
  await p2.sql(sql).collect();
  const wall = performance.now() - t0;
  const calling = (threadCpuMs() ?? 0) - c0;
  const pu = process.cpuUsage(p0);
  const shares = stats().workerCpuMs.map((x, i) => x - (w0[i] ?? 0));
  const traces: StageTrace[] = stats().traces.filter((t) => !before.has(t));
  const w1 = traces.flatMap((t) => t.rounds.map((r) => r[1])).filter((x) => x !== undefined);
  const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
  return {
    wall, calling, worker: sum(shares.slice(1)), share0: shares[0] ?? 0, proc: (pu.user + pu.system) / 1000,
    post: sum(w1.map((r) => r.postToStartMs)), job: sum(w1.map((r) => r.runCpuMs)), wWall: sum(w1.map((r) => r.workerWallMs)),
    reply: sum(w1.map((r) => r.replyMs)), stageWall: sum(traces.map((t) => t.wallMs)),
  };
}

/** The process's CPU ms in the `ms` after now while this thread sleeps: other threads' work. */
async function tail(ms: number): Promise<number> {
  const c0 = process.cpuUsage();
  await sleep(ms);
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
}

const l0 = loadavg()[0]!;
if (values.tails) {
  console.log('| query | filler | other threads CPU ms in the 50 ms after it (median) | every run |');
  console.log('| --- | --- | ---: | --- |');
  for (const q of loadQueries(values.only!.split(','))) {
    for (let i = 0; i < Number(values.warmup); i++) for (const f of fillers) await filler(f, q.sql, q.id);
    const got = new Map<string, number[]>(fillers.map((f) => [f, []]));
    for (let r = 0; r < runs; r++) {
      for (const f of fillers) {
        collectGarbage();
        await sleep(100);
        await filler(f, q.sql, q.id);
        got.get(f)!.push(await tail(50));
      }
    }
    for (const [f, xs] of got) console.log(`| ${q.id} | ${f} | ${median(xs).toFixed(1)} | ${xs.map((x) => x.toFixed(0)).join(' ')} |`);
  }
  console.log(`\nload average 1 min: ${l0.toFixed(2)} at start, ${loadavg()[0]!.toFixed(2)} at end`);
  await p1.close();
  await p2.close();
  duck?.closeSync();
  duckInstance?.closeSync();
  process.exit(0);
}
const f1 = (x: number): string => x.toFixed(1);
console.log('| query | before p2 | p2 wall | calling CPU | share 0 CPU | worker CPU | process CPU | stage wall | w1 post→start | w1 job CPU | w1 wall | w1 reply |');
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const q of loadQueries(values.only!.split(','))) {
  for (let i = 0; i < Number(values.warmup); i++) { await p1.sql(q.sql).collect(); await p2.sql(q.sql).collect(); if (duck) await duck.runAndReadAll(q.sql); }
  const got = new Map<string, Run[]>(fillers.map((f) => [f, []]));
  for (let r = 0; r < runs; r++) {
    for (let k = 0; k < fillers.length; k++) {
      const f = fillers[(k + r) % fillers.length]!;
      await filler(f, q.sql, q.id);
      // --marks: lines around each timed run, to count V8's --trace-deopt / --trace-opt lines per run.
      if (values.marks) console.log(`@@run ${q.id} ${f}`);
      got.get(f)!.push(await p2Once(q.sql));
      if (values.marks) console.log('@@end');
    }
  }
  for (const f of fillers) {
    const rs = got.get(f)!;
    const m = (k: keyof Run): string => f1(median(rs.map((x) => x[k])));
    console.log(`| ${q.id} | ${f} | ${m('wall')} | ${m('calling')} | ${m('share0')} | ${m('worker')} | ${m('proc')} | ${m('stageWall')} | ${m('post')} | ${m('job')} | ${m('wWall')} | ${m('reply')} |`);
  }
}
console.log(`\nload average 1 min: ${l0.toFixed(2)} at start, ${loadavg()[0]!.toFixed(2)} at end; ${runs} p2 runs per filler after ${values.warmup} warm-up(s); sink ${sink > 0 ? 'ok' : 0}`);
await p1.close();
await p2.close();
duck?.closeSync();
duckInstance?.closeSync();

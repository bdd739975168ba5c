/**
 * Garbage collections per timed run of TPC-H queries, per thread (the calling thread and each worker
 * isolate), at parallelism 1 and 2, runs alternating (p1, p2, p1, ...) after warm-ups; with the calling
 * thread's CPU and the process's CPU beyond the JavaScript threads ("other": V8's GC helper threads and
 * compiler threads), medians over the runs (issue #10: helper threads compete with the two busy threads).
 *
 *   EDDY_GC_LOG=/tmp/gc.log node --expose-gc --import tsx --require ./bench/lib/gc-log.cjs bench/gc-per-run.ts --data /work/bench-data [--only q3,q1] [--runs 7] [--warmup 3]
 *
 * Counts and pause times do not depend on the machine's load (CPU does). A GC is a run's when it starts
 * inside the run's wall window; the window ends when collect() resolves. Major GCs here are the final
 * pauses of incremental mark-compacts (their marking also runs on helper threads: see "other").
 */
import { readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import type { TableEnvironment } from '../src/api/environment.js';
import type { QueryExecutor } from '../src/api/query-execution.js';
import { threadCpuMs } from '../src/exec/workers/thread-cpu.js';
import { loadQueries } from './suite/queries.js';
import { p1AndP2 } from './lib/p1-p2.js';
import { collectGarbage, median } from './lib/timing.js';

const { values } = parseArgs({ options: { data: { type: 'string' }, only: { type: 'string', default: 'q3' }, runs: { type: 'string', default: '7' }, warmup: { type: 'string', default: '3' }, engines: { type: 'string', default: 'p1,p2' } } });
const log = process.env.EDDY_GC_LOG;
if (log === undefined) throw new Error('set EDDY_GC_LOG and preload ./bench/lib/gc-log.cjs (see the header)');
const { p1, p2 } = await p1AndP2(1, values.data);
const envs: [string, TableEnvironment][] = ([['p1', p1], ['p2', p2]] as [string, TableEnvironment][]).filter(([n]) => values.engines!.split(',').includes(n));
// With the calling thread as share 0 (StageRunner.callingShare), that share's CPU is the calling thread's: only the others are workers'.
const callingShare = (): boolean => (p2 as unknown as { executor: { stageRunner?: { callingShare: boolean } } }).executor.stageRunner?.callingShare ?? false;
const workerCpu = (): number => (p2 as unknown as { executor: QueryExecutor }).executor.workerStats.workerCpuMs.slice(callingShare() ? 1 : 0).reduce((a, b) => a + b, 0);

interface Window { query: string; engine: string; start: number; end: number; cpu: number; other: number }
const windows: Window[] = [];
const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
async function once(query: string, engine: string, env: TableEnvironment, sql: string, timed: boolean): Promise<void> {
  collectGarbage();
  await pause(5);
  const w0 = workerCpu();
  const c0 = threadCpuMs() ?? 0;
  const p0 = process.cpuUsage();
  const start = performance.timeOrigin + performance.now();
  await env.sql(sql).collect();
  const end = performance.timeOrigin + performance.now();
  const cpu = (threadCpuMs() ?? 0) - c0;
  const pu = process.cpuUsage(p0);
  const other = (pu.user + pu.system) / 1000 - cpu - (workerCpu() - w0);
  if (timed) windows.push({ query, engine, start, end, cpu, other });
  await pause(5);
}

rmSync(log, { force: true });
const load0 = loadavg()[0]!;
const queries = loadQueries(values.only!.split(','));
for (const q of queries) {
  for (let i = 0; i < Number(values.warmup); i++) for (const [n, env] of envs) await once(q.id, n, env, q.sql, false);
  for (let i = 0; i < Number(values.runs); i++) for (const [n, env] of envs) await once(q.id, n, env, q.sql, true);
}
await pause(200); // observers deliver their entries asynchronously
const gcs = readFileSync(log, 'utf8').trim().split('\n').map((l) => { const [t, kind, s, d] = l.split(' '); return { thread: Number(t), kind: kind!, start: Number(s), ms: Number(d) }; });
rmSync(log, { force: true });

console.log('| query | engine | thread | mark-compacts / run | scavenges / run | GC pause ms / run | calling CPU ms | other threads CPU ms |');
console.log('| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |');
for (const q of queries) {
  for (const [n] of envs) {
    const ws = windows.filter((w) => w.query === q.id && w.engine === n);
    const inRuns = ws.map((w) => gcs.filter((g) => g.start >= w.start && g.start <= w.end));
    const threads = [...new Set(inRuns.flat().map((g) => g.thread))].sort((a, b) => a - b);
    if (threads.length === 0) threads.push(0);
    for (const t of threads) {
      const per = (kind: string | null): number => inRuns.reduce((a, r) => a + r.filter((g) => g.thread === t && (kind === null || g.kind === kind)).length, 0) / ws.length;
      const pauseMs = inRuns.reduce((a, r) => a + r.filter((g) => g.thread === t).reduce((s, g) => s + g.ms, 0), 0) / ws.length;
      const first = t === threads[0];
      console.log(`| ${q.id} | ${n} | ${t === 0 ? 'calling' : `worker ${t}`} | ${per('major').toFixed(2)} | ${per('minor').toFixed(2)} | ${pauseMs.toFixed(1)} | ${first ? median(ws.map((w) => w.cpu)).toFixed(0) : ''} | ${first ? median(ws.map((w) => w.other)).toFixed(0) : ''} |`);
    }
  }
}
console.log(`\nload average 1 min: ${load0.toFixed(2)} at start, ${loadavg()[0]!.toFixed(2)} at end; ${values.runs} timed runs per engine after ${values.warmup} warm-ups, alternating`);
await p1.close();
await p2.close();

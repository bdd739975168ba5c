/**
 * Typed-array bytes and garbage collections per TPC-H query run at parallelism 1 (issue #10: V8 starts
 * mark-compacts on external memory pressure, which ArrayBuffer bytes drive; fewer bytes per query,
 * fewer full GCs competing with the second core).
 *
 *   node --expose-gc --import tsx bench/query-bytes.ts --data /work/bench-data [--only q3,q10,q5] [--runs 5] [--count] [--frames 2] [--top 25] [--p2]
 *
 * Without --count: per query, medians over the runs of the calling thread's CPU, the process's CPU (with
 * V8's GC and compiler threads), and the number of mark-compacts and scavenges that started during a run
 * (PerformanceObserver 'gc' entries; a forced major GC runs before each run and is not counted).
 * With --count: the typed-array and ArrayBuffer bytes allocated per run (bench/lib/typed-array-counter.ts),
 * by allocation site (the first --frames frames in src/); the counter slows allocation, so no timing then.
 * With --p2: the same at parallelism 2, for the calling thread only — which runs share 0 of each worker
 * stage (StageRunner.callingShare), the same code a worker runs on its share; workers are not counted.
 */
import { parseArgs } from 'node:util';
import { installTypedArrayCounter, startCounting, stopCounting } from './lib/typed-array-counter.js';

const { values } = parseArgs({ options: { data: { type: 'string' }, only: { type: 'string', default: 'q3,q10,q5' }, runs: { type: 'string', default: '5' }, count: { type: 'boolean', default: false }, frames: { type: 'string', default: '2' }, top: { type: 'string', default: '25' }, warmup: { type: 'string', default: '2' }, p2: { type: 'boolean', default: false } } });
if (values.count) installTypedArrayCounter(Number(values.frames));

// Dynamic imports: the counter must replace the constructors before any eddy module loads.
const { loadavg } = await import('node:os');
const { PerformanceObserver, constants } = await import('node:perf_hooks');
const { threadCpuMs } = await import('../src/exec/workers/thread-cpu.js');
const { loadQueries } = await import('./suite/queries.js');
const { p1AndP2 } = await import('./lib/p1-p2.js');
const { collectGarbage, median } = await import('./lib/timing.js');

const runs = Number(values.runs);
const both = await p1AndP2(1, values.data);
const [env, other] = values.p2 ? [both.p2, both.p1] : [both.p1, both.p2];
await other.close();

const gcs: { kind: number; start: number }[] = [];
const obs = new PerformanceObserver((list) => { for (const e of list.getEntries()) gcs.push({ kind: (e as unknown as { detail: { kind: number } }).detail.kind, start: e.startTime }); });
obs.observe({ entryTypes: ['gc'] });
const flush = (): Promise<void> => new Promise((r) => setTimeout(r, 5));

const mb = (b: number): string => (b / 1e6).toFixed(2);
const load0 = loadavg()[0]!;
if (!values.count) {
  console.log('| query | calling CPU ms | process CPU ms | mark-compacts / run | scavenges / run | wall ms |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
}
for (const q of loadQueries(values.only!.split(','))) {
  for (let i = 0; i < Number(values.warmup); i++) await env.sql(q.sql).collect();
  const cpu: number[] = []; const proc: number[] = []; const majors: number[] = []; const minors: number[] = []; const walls: number[] = [];
  const bytes: number[] = [];
  let last: ReturnType<typeof stopCounting> | null = null;
  for (let i = 0; i < runs; i++) {
    collectGarbage();
    await flush();
    gcs.length = 0;
    const t0 = performance.now();
    const c0 = threadCpuMs() ?? 0;
    const p0 = process.cpuUsage();
    if (values.count) startCounting();
    await env.sql(q.sql).collect();
    if (values.count) { last = stopCounting(); bytes.push(last.total); }
    const pu = process.cpuUsage(p0);
    cpu.push((threadCpuMs() ?? 0) - c0);
    proc.push((pu.user + pu.system) / 1000);
    const t1 = performance.now();
    walls.push(t1 - t0);
    await flush();
    const inRun = gcs.filter((g) => g.start >= t0 && g.start <= t1);
    majors.push(inRun.filter((g) => g.kind === constants.NODE_PERFORMANCE_GC_MAJOR).length);
    minors.push(inRun.filter((g) => g.kind === constants.NODE_PERFORMANCE_GC_MINOR).length);
  }
  const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
  if (values.count) {
    console.log(`\n## ${q.id}: ${mb(median(bytes))} MB of typed arrays per run (median of ${runs}; runs: ${bytes.map(mb).join(', ')}); pieces < 1 KB: ${mb(last!.small)} MB`);
    console.log('| site (first src frames) | MB | allocations |');
    console.log('| --- | ---: | ---: |');
    for (const [s, c] of last!.sites.slice(0, Number(values.top))) console.log(`| ${s} | ${mb(c.bytes)} | ${c.count} |`);
  } else {
    console.log(`| ${q.id} | ${median(cpu).toFixed(1)} | ${median(proc).toFixed(1)} | ${mean(majors).toFixed(2)} | ${mean(minors).toFixed(1)} | ${median(walls).toFixed(1)} |`);
  }
}
obs.disconnect();
console.log(`\nload average 1 min: ${load0.toFixed(2)} at start, ${loadavg()[0]!.toFixed(2)} at end; ${runs} runs per query at parallelism ${values.p2 ? '2 (the calling thread only)' : '1'}`);
await env.close();

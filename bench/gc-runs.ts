/**
 * Garbage collections and typed-array bytes per query run, per isolate (issue #10: at parallelism 2 on
 * 2 cores, V8's GC helper threads take time from the two busy threads; mark-compacts start on external
 * memory pressure, which ArrayBuffer bytes drive).
 *
 *   node --expose-gc --import tsx bench/gc-runs.ts --data /work/bench-data [--only q18,q1,q6] [--runs 7] [--warmup 3] [--engines p1,p2] [--count] [--top 15]
 *
 * Runs alternate between the engines (p1, p2, p1, ...). Per query and engine: medians of wall, the
 * calling thread's CPU, the workers' CPU and the other threads' CPU (V8 helpers: the process's CPU minus
 * the JavaScript threads'), and means per run of mark-compacts, scavenges and their pause ms in the
 * calling isolate and in the worker isolates (PerformanceObserver 'gc' entries in each isolate,
 * bench/lib/worker-probe.ts; the forced major GC before each run is not counted).
 * With --count: typed-array bytes per run per isolate and the largest allocation sites of the last run
 * (the counter slows allocation: read no times then).
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { data: { type: 'string' }, only: { type: 'string', default: 'q18,q1,q6' }, runs: { type: 'string', default: '7' }, warmup: { type: 'string', default: '3' }, engines: { type: 'string', default: 'p1,p2' }, count: { type: 'boolean', default: false }, frames: { type: 'string', default: '2' }, top: { type: 'string', default: '15' } } });
if (values.count) { process.env.EDDY_PROBE_COUNT = '1'; process.env.EDDY_PROBE_FRAMES = values.frames; }
process.env.EDDY_WORKER_PRELOAD = fileURLToPath(new URL('./lib/worker-probe.ts', import.meta.url));

// Dynamic imports: the probe (and its counter) must be in place before any eddy module loads.
const { localReport, probeChannel } = await import('./lib/worker-probe.js');
type ProbeReport = import('./lib/worker-probe.js').ProbeReport;
const { loadavg } = await import('node:os');
const { threadCpuMs } = await import('../src/exec/workers/thread-cpu.js');
const { loadQueries } = await import('./suite/queries.js');
const { p1AndP2 } = await import('./lib/p1-p2.js');
const { collectGarbage, median } = await import('./lib/timing.js');

const runs = Number(values.runs);
const { p1, p2 } = await p1AndP2(1, values.data);
const engines = values.engines!.split(',').map((e) => ({ name: e, env: e === 'p2' ? p2 : p1 }));
const probe = probeChannel();
const flush = (): Promise<void> => new Promise((r) => setTimeout(r, 5));
const executor = (p2 as unknown as { executor: { workerStats: { workerCpuMs: readonly number[] }; stageRunner?: { callingShare: boolean } } }).executor;
// With the calling thread as share 0 (StageRunner.callingShare), that share's CPU is the calling thread's: only the others are workers'.
const workerCpu = (): number => executor.workerStats.workerCpuMs.slice(executor.stageRunner?.callingShare ? 1 : 0).reduce((a, b) => a + b, 0);

interface Run { wall: number; cpu: number; workers: number; other: number; main: ProbeReport; workerReports: ProbeReport[] }
async function once(env: typeof p1, sql: string): Promise<Run> {
  collectGarbage();
  await flush();
  localReport();
  await probe.reports();
  const w0 = workerCpu();
  const c0 = threadCpuMs() ?? 0;
  const p0 = process.cpuUsage();
  const t0 = performance.now();
  await env.sql(sql).collect();
  const wall = performance.now() - t0;
  const cpu = (threadCpuMs() ?? 0) - c0;
  const pu = process.cpuUsage(p0);
  const workers = workerCpu() - w0;
  await flush();
  const main = localReport();
  const workerReports = await probe.reports();
  return { wall, cpu, workers, other: (pu.user + pu.system) / 1000 - cpu - workers, main, workerReports };
}

const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const f1 = (x: number): string => x.toFixed(1);
const mb = (b: number): string => (b / 1e6).toFixed(1);
const count = (r: ProbeReport[], k: string): number => r.reduce((a, x) => a + x.gcs.filter((g) => g.kind === k).length, 0);
const ms = (r: ProbeReport[], k: string): number => r.reduce((a, x) => a + x.gcs.filter((g) => g.kind === k).reduce((s, g) => s + g.ms, 0), 0);
const bytes = (r: ProbeReport[]): number => r.reduce((a, x) => a + (x.bytes ?? 0), 0);

const load0 = loadavg()[0]!;
console.log('| query | engine | wall ms | main CPU ms | worker CPU ms | other threads CPU ms | main MC / run (ms) | main scavenges / run (ms) | worker MC / run (ms) | worker scavenges / run (ms) |' + (values.count ? ' main MB | worker MB |' : ''));
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |' + (values.count ? ' ---: | ---: |' : ''));
const details: string[] = [];
for (const q of loadQueries(values.only!.split(','))) {
  for (let i = 0; i < Number(values.warmup); i++) for (const e of engines) await once(e.env, q.sql);
  const rs = new Map<string, Run[]>(engines.map((e) => [e.name, []]));
  for (let i = 0; i < runs; i++) for (const e of engines) rs.get(e.name)!.push(await once(e.env, q.sql));
  for (const e of engines) {
    const r = rs.get(e.name)!;
    const m = (k: 'wall' | 'cpu' | 'workers' | 'other'): string => f1(median(r.map((x) => x[k])));
    const per = (sel: (x: Run) => ProbeReport[], k: string): string => `${mean(r.map((x) => count(sel(x), k))).toFixed(2)} (${f1(mean(r.map((x) => ms(sel(x), k))))})`;
    const main = (x: Run): ProbeReport[] => [x.main];
    const wk = (x: Run): ProbeReport[] => x.workerReports;
    let line = `| ${q.id} | ${e.name} | ${m('wall')} | ${m('cpu')} | ${m('workers')} | ${m('other')} | ${per(main, 'major')} | ${per(main, 'minor')} | ${per(wk, 'major')} | ${per(wk, 'minor')} |`;
    if (values.count) {
      line += ` ${mb(median(r.map((x) => bytes([x.main]))))} | ${mb(median(r.map((x) => bytes(x.workerReports))))} |`;
      const last = r[r.length - 1]!;
      for (const rep of [last.main, ...last.workerReports]) {
        details.push(`\n### ${q.id} ${e.name}, thread ${rep.threadId}: ${mb(rep.bytes ?? 0)} MB (last run)`, '| site | MB | allocations |', '| --- | ---: | ---: |');
        for (const [s, c] of (rep.sites ?? []).slice(0, Number(values.top))) details.push(`| ${s} | ${mb(c.bytes)} | ${c.count} |`);
      }
    }
    console.log(line);
  }
}
if (details.length > 0) console.log(details.join('\n'));
console.log(`\nload average 1 min: ${load0.toFixed(2)} at start, ${loadavg()[0]!.toFixed(2)} at end; ${runs} timed runs per engine after ${values.warmup} warm-up(s), alternating`);
probe.close();
await p1.close();
await p2.close();

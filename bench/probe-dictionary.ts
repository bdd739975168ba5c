/**
 * A/B of dictionary-coded join output through the probe side of a join above (planner/lower-marks.ts
 * `passAggregatedToProbe`): TPC-H Q16 at parallelism 1 — partsupp ⋈ part under the NOT IN anti join
 * under the GROUP BY — with the mark passed (on) and not (off: the pre-change plan, p_brand and
 * p_type copied as Utf8 by both joins), interleaved run by run in one process so load hits both alike.
 * Per mode: median CPU of the calling thread (schedstat), mark-compacts per run, and the largest
 * dictionary the aggregate's key encoder interned (proves the mode took effect: > 4096 only when on).
 *
 *   node --expose-gc --import tsx bench/probe-dictionary.ts --data /work/bench-data [--only q16] [--runs 15] [--warmup 5]
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { threadCpuMs } from '../src/exec/workers/thread-cpu.js';
import { KeyEncoder } from '../src/exec/kernels/hash-encode.js';
import { probeMarkTuning } from '../src/planner/lower-marks.js';
import { loadQueries } from './suite/queries.js';
import { p1AndP2 } from './lib/p1-p2.js';
import { TableEnvironment } from '../src/api/environment.js';
import { collectGarbage, median } from './lib/timing.js';

const { values } = parseArgs({ options: { data: { type: 'string' }, only: { type: 'string', default: 'q16' }, runs: { type: 'string', default: '15' }, warmup: { type: 'string', default: '5' } } });
const runs = Number(values.runs);
const { tables, p1, p2 } = await p1AndP2(1, values.data);
await p2.close();
// One environment per mode: an environment reuses a query's plan (api/physical-plans.ts), so each mode's plan is
// made while the tuning is set for it (the warm-up) and kept for its runs.
const off = TableEnvironment.create({ parallelism: 1 });
for (const [n, t] of Object.entries(tables)) off.registerTable(n, t);
const envOf = (m: boolean): TableEnvironment => (m ? p1 : off);

// The largest dictionary interned per run (a wrapper on the prototype: the same small cost in both modes).
let largest = 0;
const orig = KeyEncoder.prototype.dictionaryIds;
KeyEncoder.prototype.dictionaryIds = function (d, insert) {
  const len = (d.dictionary as { length: number } | undefined)?.length ?? 0;
  if (len > largest) largest = len;
  return orig.call(this, d, insert);
};

const gcs: { kind: number; start: number }[] = [];
const obs = new PerformanceObserver((list) => { for (const e of list.getEntries()) gcs.push({ kind: (e as unknown as { detail: { kind: number } }).detail.kind, start: e.startTime }); });
obs.observe({ entryTypes: ['gc'] });
const pause = (): Promise<void> => new Promise((r) => setTimeout(r, 5));

const load0 = loadavg()[0]!;
console.log('| query | mode | calling CPU ms (median) | min | mark-compacts / run | largest dictionary |');
console.log('| --- | --- | ---: | ---: | ---: | ---: |');
for (const q of loadQueries(values.only!.split(','))) {
  const modes = [true, false];
  const cpu = new Map<boolean, number[]>(modes.map((m) => [m, []]));
  const majors = new Map<boolean, number[]>(modes.map((m) => [m, []]));
  const dict = new Map<boolean, number>();
  for (const m of modes) { probeMarkTuning.enabled = m; for (let i = 0; i < Number(values.warmup); i++) await envOf(m).sql(q.sql).collect(); }
  for (let i = 0; i < runs; i++) {
    for (const m of i % 2 === 0 ? modes : [...modes].reverse()) {
      probeMarkTuning.enabled = m;
      collectGarbage();
      await pause();
      gcs.length = 0;
      largest = 0;
      const t0 = performance.now();
      const c0 = threadCpuMs() ?? 0;
      await envOf(m).sql(q.sql).collect();
      cpu.get(m)!.push((threadCpuMs() ?? 0) - c0);
      const t1 = performance.now();
      await pause();
      majors.get(m)!.push(gcs.filter((g) => g.start >= t0 && g.start <= t1 && g.kind === constants.NODE_PERFORMANCE_GC_MAJOR).length);
      dict.set(m, largest);
    }
  }
  for (const m of modes) {
    const c = cpu.get(m)!;
    const mj = majors.get(m)!;
    console.log(`| ${q.id} | ${m ? 'on' : 'off'} | ${median(c).toFixed(1)} | ${Math.min(...c).toFixed(1)} | ${(mj.reduce((a, b) => a + b, 0) / mj.length).toFixed(2)} | ${dict.get(m)} |`);
  }
}
probeMarkTuning.enabled = true;
obs.disconnect();
console.log(`\nload average 1 min: ${load0.toFixed(2)} at start, ${loadavg()[0]!.toFixed(2)} at end; ${runs} runs per mode, interleaved, parallelism 1`);
await p1.close();
await off.close();

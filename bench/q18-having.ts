/**
 * TPC-H Q18 at parallelism 1 and its HAVING subquery alone (`GROUP BY l_orderkey HAVING
 * sum(l_quantity) > 300`: 1.5M groups, 77 kept): per run the calling thread's CPU, the CPU of the
 * process's other threads (V8's GC and compiler helpers) and the garbage collections V8 ran, by
 * kind. Made for the HAVING-in-the-aggregate change (docs/bench.md "q18having"): CPU and GC
 * counts, not wall times, are what a shared machine measures well; run it in alternating
 * processes against the old build for an A/B.
 *
 *   node --expose-gc --import tsx bench/q18-having.ts --data /work/bench-data [--runs 9] [--warmup 3] [--only q18,sub]
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { PerformanceObserver, constants, type PerformanceEntry } from 'node:perf_hooks';
import { threadCpuMs } from '../src/exec/workers/thread-cpu.js';
import { p1AndP2 } from './lib/p1-p2.js';
import { collectGarbage, median } from './lib/timing.js';

const { values } = parseArgs({ options: { sf: { type: 'string', default: '1' }, data: { type: 'string' }, runs: { type: 'string', default: '9' }, warmup: { type: 'string', default: '3' }, only: { type: 'string', default: 'q18,sub' } } });
const queries: Record<string, string> = {
  q18: readFileSync(join(import.meta.dirname, 'tpch', 'q18.sql'), 'utf8'),
  sub: 'select l_orderkey from lineitem group by l_orderkey having sum(l_quantity) > 300',
};
const { p1, p2 } = await p1AndP2(Number(values.sf), values.data);
await p2.close();

// GC entries reach an observer's callback asynchronously: collected there, read after a macrotask.
let records: PerformanceEntry[] = [];
const gcs = new PerformanceObserver((list) => { records.push(...list.getEntries()); });
gcs.observe({ entryTypes: ['gc'] });
const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 0));
interface Run { wall: number; cpu: number; other: number; minor: number; major: number; gcMs: number }

async function once(sql: string): Promise<{ run: Run; rows: number }> {
  collectGarbage();
  await settle();
  records = []; // drop the forced collection's record
  const c0 = threadCpuMs() ?? 0;
  const p0 = process.cpuUsage();
  const t0 = performance.now();
  const t = await p1.sql(sql).collect();
  const wall = performance.now() - t0;
  const cpu = (threadCpuMs() ?? 0) - c0;
  const pu = process.cpuUsage(p0);
  await settle();
  const kind = (e: PerformanceEntry): number => (e as unknown as { detail: { kind: number } }).detail.kind;
  return {
    run: {
      wall, cpu, other: (pu.user + pu.system) / 1000 - cpu,
      minor: records.filter((e) => kind(e) === constants.NODE_PERFORMANCE_GC_MINOR).length,
      major: records.filter((e) => kind(e) === constants.NODE_PERFORMANCE_GC_MAJOR).length,
      gcMs: records.reduce((a, e) => a + e.duration, 0),
    },
    rows: t.numRows,
  };
}

const load0 = loadavg()[0]!;
console.log('| query | rows | wall ms | main CPU ms | other threads CPU ms | scavenges | mark-compacts | GC pause ms |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const id of values.only!.split(',')) {
  const sql = queries[id];
  if (sql === undefined) throw new Error(`unknown query ${id} (q18, sub)`);
  let rows = 0;
  for (let i = 0; i < Number(values.warmup); i++) rows = (await once(sql)).rows;
  const rs: Run[] = [];
  for (let i = 0; i < Number(values.runs); i++) rs.push((await once(sql)).run);
  const m = (k: keyof Run): string => median(rs.map((r) => r[k])).toFixed(k === 'minor' || k === 'major' ? 1 : 0);
  console.log(`| ${id} | ${rows} | ${m('wall')} | ${m('cpu')} | ${m('other')} | ${m('minor')} | ${m('major')} | ${m('gcMs')} |`);
}
gcs.disconnect();
console.log(`\nload average 1 min: ${load0.toFixed(2)} at start, ${loadavg()[0]!.toFixed(2)} at end; ${values.runs} runs after ${values.warmup} warm-up(s)`);
await p1.close();

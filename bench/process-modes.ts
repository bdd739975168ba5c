/**
 * Diagnostic (suitegap, bench/README.md "Why three warm-ups"): one eddy p1 query run again and again in
 * one process, printing each run's calling-thread CPU (ms) with the seconds since the start, so that
 * processes and moments can be compared: Q1's was 88–108 ms in some stretches and 145–187 ms in others,
 * clustered in time across processes (bench/README.md). `PAUSE` ms between runs (default 200).
 *
 *   node --expose-gc --import tsx bench/process-modes.ts [q1] [runs]
 */
import { TableEnvironment } from '../src/api/environment.js';
import { TPCH_TABLES } from '../src/io/tpch/index.js';
import { ensureData, loadArrowTables } from './suite/data.js';
import { loadQueries } from './suite/queries.js';
import { collectGarbage } from './lib/timing.js';
import { threadCpuMs } from '../src/exec/workers/thread-cpu.js';
const data = await ensureData(1, process.env.DATA ?? '/work/bench-data');
const loader = TableEnvironment.create({ parallelism: 1 });
const tables = await loadArrowTables(data, loader);
await loader.close();
const p1 = TableEnvironment.create({ parallelism: 1 });
for (const n of TPCH_TABLES) p1.registerTable(n, tables[n]);
const [q] = loadQueries([process.argv[2] ?? 'q1']);
const out: string[] = [];
const t0 = Date.now();
const pause = Number(process.env.PAUSE ?? 200);
for (let i = 0; i < Number(process.argv[3] ?? 16); i++) {
  collectGarbage();
  const c0 = threadCpuMs()!;
  await p1.sql(q!.sql).collect();
  out.push(`${((Date.now() - t0) / 1000).toFixed(0)}s:${(threadCpuMs()! - c0).toFixed(0)}`);
  await new Promise((r) => setTimeout(r, pause));
}
console.log(out.join(' '));
process.exit(0);

/**
 * Diagnostic (faults, 2026-12-07): what DuckDB in the same process costs eddy's next run. Per
 * round, for each of two DuckDB setups in turn — in this process, and in a child process of its
 * own (bench/suite/duck-process.ts, the suite's default) — DuckDB runs the query at 2 threads,
 * the harness waits `--idle-ms` (DuckDB's idle worker threads call glibc's `malloc_trim` after
 * 0.5 s: bench/suite/duck-session.ts), collects garbage, waits for quiet threads, then eddy p1
 * runs the query once, measured (bench/lib/run-usage.ts). Prints eddy's median minor faults,
 * system CPU and process CPU after each setup: in-process DuckDB's trims show up as thousands of
 * faults and tens of ms of system CPU that the own-process setup does not have. Faults do not
 * depend on the load; quote the load with the CPU figures.
 *
 *   node --expose-gc --import tsx bench/duck-trim.ts --data /work/bench-data [--only q3,q10,q21] [--runs 7] [--warmup 3] [--idle-ms 700]
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import '../src/sql/index.js';
import { TableEnvironment } from '../src/api/environment.js';
import { TPCH_TABLES } from '../src/io/tpch/index.js';
import { quiesce } from './lib/quiesce.js';
import { startUsage, type RunUsage } from './lib/run-usage.js';
import { collectGarbage, median } from './lib/timing.js';
import { DEFAULT_DATA_DIR, ensureData, loadArrowTables } from './suite/data.js';
import { openDuckProcess } from './suite/duck-process.js';
import { openDuckInProcess, type DuckSession } from './suite/duck-session.js';
import { loadQueries } from './suite/queries.js';

const { values } = parseArgs({ options: {
  data: { type: 'string' }, only: { type: 'string', default: 'q3,q10,q21' }, runs: { type: 'string', default: '7' },
  warmup: { type: 'string', default: '3' }, 'idle-ms': { type: 'string', default: '700' },
} });
const runs = Number(values.runs);
const warmup = Number(values.warmup);
const idleMs = Number(values['idle-ms']);
const sleep = (ms: number): Promise<void> => new Promise((r) => { setTimeout(r, ms); });

const data = await ensureData(1, values.data ?? DEFAULT_DATA_DIR);
const loader = TableEnvironment.create({ parallelism: 1 });
const tables = await loadArrowTables(data, loader);
await loader.close();
const env = TableEnvironment.create({ parallelism: 1 });
for (const n of TPCH_TABLES) env.registerTable(n, tables[n]);
const setups: [string, DuckSession][] = [['in process', await openDuckInProcess(data)], ['own process', await openDuckProcess(data)]];
const l0 = loadavg()[0]!;
try {
  for (const q of loadQueries(values.only!.split(','))) {
    const got: Record<string, RunUsage[]> = Object.fromEntries(setups.map(([name]) => [name, []]));
    for (let round = 0; round < warmup + runs; round++) {
      for (const [name, duck] of setups) {
        await duck.exec('SET threads = 2');
        await duck.query(q.sql);
        await sleep(idleMs);
        collectGarbage();
        await quiesce();
        const end = startUsage();
        await env.sql(q.sql).collect();
        if (round >= warmup) got[name]!.push(end());
      }
    }
    for (const [name, us] of Object.entries(got)) {
      const m = (f: (u: RunUsage) => number): string => median(us.map(f)).toFixed(0);
      console.log(`${q.id} eddy p1 after DuckDB ${name.padEnd(11)}: faults ${m((u) => u.minorFaults).padStart(6)} (${us.map((u) => u.minorFaults).join(' ')}), system CPU ${m((u) => u.sysCpuMs).padStart(3)} ms, CPU ${m((u) => u.cpuMs)} ms, wall ${m((u) => u.ms)} ms`);
    }
  }
  console.log(`load ${l0.toFixed(1)} -> ${loadavg()[0]!.toFixed(1)}`);
} finally {
  await env.close();
  for (const [, duck] of setups) await duck.close();
}

/**
 * What the first shipped query over a table pays for putting the table in shared memory
 * (src/planner/ship-tables.ts): one fresh process loads the suite's Arrow files (not kept, as
 * bench/suite/memory.ts), registers them at parallelism 2, starts the workers with a small
 * shipped query over `part`, then runs the query `--runs` times and prints, per run, the wall
 * time, the process's and the calling thread's CPU, and arrayBuffers / RSS over the loaded
 * tables. Run 1 minus run 2 is the first query's extra cost. Run it in alternating processes
 * against an older build to compare (CPU, not wall, under load):
 *
 *   node --expose-gc --import tsx bench/share-first.ts --data /work/bench-data --query q1 [--runs 3]
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadavg } from 'node:os';
import { TableEnvironment } from '../src/api/environment.js';
import '../src/sql/index.js';
import { TPCH_TABLES } from '../src/io/tpch/index.js';
import { loadQueries } from './suite/queries.js';
import { collectGarbage } from './lib/timing.js';
import { threadCpuMs } from '../src/exec/workers/thread-cpu.js';

const { values } = parseArgs({ options: { data: { type: 'string', default: '/work/bench-data' }, query: { type: 'string', default: 'q1' }, runs: { type: 'string', default: '3' }, sf: { type: 'string', default: '1' } } });
const dir = join(values.data!, `sf-${values.sf}`);

async function loaded(): Promise<TableEnvironment> {
  const env = TableEnvironment.create({ parallelism: 2 });
  const loader = TableEnvironment.create({ parallelism: 1 });
  for (const n of TPCH_TABLES) env.registerTable(n, await (await loader.fromArrowFile(join(dir, `${n}.arrow`))).collect());
  await loader.close();
  return env;
}

const env = await loaded();
await env.sql('SELECT p_brand, count(*) AS n FROM part GROUP BY p_brand').collect();
const settle = async (): Promise<void> => { collectGarbage(); await new Promise((r) => setTimeout(r, 50)); collectGarbage(); };
await settle();
const base = process.memoryUsage();
const sql = loadQueries([values.query!])[0]!.sql;
const mb = (n: number): string => (n / 1e6).toFixed(0);
for (let run = 1; run <= Number(values.runs); run++) {
  const c0 = process.cpuUsage();
  const m0 = threadCpuMs() ?? 0;
  const t0 = performance.now();
  await env.sql(sql).collect();
  const wall = performance.now() - t0;
  const main = (threadCpuMs() ?? 0) - m0;
  const c = process.cpuUsage(c0);
  const m = process.memoryUsage();
  console.log(JSON.stringify({
    query: values.query, run, wallMs: Math.round(wall), processCpuMs: Math.round((c.user + c.system) / 1000), mainCpuMs: Math.round(main),
    arrayBuffersMb: mb(m.arrayBuffers - base.arrayBuffers), rssMb: mb(m.rss - base.rss), load: loadavg()[0]!.toFixed(1),
  }));
  await settle();
}
await env.close();

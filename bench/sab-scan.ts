/**
 * Whether a table whose columns live in SharedArrayBuffers (what a shipped table reads after its
 * first shipped query, src/planner/ship-tables.ts) is as fast to query on one thread as the same
 * bytes in ordinary ArrayBuffers: two parallelism-1 environments over the suite's Arrow files,
 * one with every column copied into shared memory (src/exec/workers/shared-data.ts), queried in
 * alternation; the calling thread's CPU medians are compared (the load does not move them much).
 *
 *   node --expose-gc --import tsx bench/sab-scan.ts --data /work/bench-data --only q1,q6 [--runs 15]
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadavg } from 'node:os';
import * as arrow from 'apache-arrow';
import { TableEnvironment } from '../src/api/environment.js';
import '../src/sql/index.js';
import { TPCH_TABLES } from '../src/io/tpch/index.js';
import { shareData } from '../src/exec/workers/shared-data.js';
import { threadCpuMs } from '../src/exec/workers/thread-cpu.js';
import { loadQueries } from './suite/queries.js';
import { collectGarbage, median } from './lib/timing.js';

const { values } = parseArgs({ options: { data: { type: 'string', default: '/work/bench-data' }, only: { type: 'string', default: 'q1,q6' }, runs: { type: 'string', default: '15' }, warmup: { type: 'string', default: '3' }, sf: { type: 'string', default: '1' } } });
const dir = join(values.data!, `sf-${values.sf}`);

/** The table with every column copied into shared memory (same type objects and values). */
function inSharedMemory(t: arrow.Table): arrow.Table {
  return new arrow.Table(t.batches.map((b) => new arrow.RecordBatch(b.schema, b.data.clone(b.data.type, 0, b.numRows, 0, undefined, b.data.children.map((c) => shareData(c))))));
}

const plain = TableEnvironment.create({ parallelism: 1 });
const shared = TableEnvironment.create({ parallelism: 1 });
for (const n of TPCH_TABLES) {
  const t = await (await plain.fromArrowFile(join(dir, `${n}.arrow`))).collect();
  plain.registerTable(n, t);
  shared.registerTable(n, inSharedMemory(t));
}
const load0 = loadavg()[0]!;
console.log('| query | ArrayBuffer CPU ms | SharedArrayBuffer CPU ms | SAB / AB |');
console.log('| --- | ---: | ---: | ---: |');
for (const q of loadQueries(values.only!.split(','))) {
  const cpu: Record<'ab' | 'sab', number[]> = { ab: [], sab: [] };
  const runs = Number(values.warmup) + Number(values.runs);
  for (let i = 0; i < runs; i++) {
    for (const [k, env] of [['ab', plain], ['sab', shared]] as const) {
      collectGarbage();
      const c0 = threadCpuMs() ?? 0;
      await env.sql(q.sql).collect();
      if (i >= Number(values.warmup)) cpu[k].push((threadCpuMs() ?? 0) - c0);
    }
  }
  const [a, s] = [median(cpu.ab), median(cpu.sab)];
  console.log(`| ${q.id} | ${a.toFixed(1)} | ${s.toFixed(1)} | ${(s / a).toFixed(3)} |`);
}
console.log(`\nload average 1 min: ${load0.toFixed(2)} at start, ${loadavg()[0]!.toFixed(2)} at end; ${values.runs} runs per engine after ${values.warmup} warm-ups, alternating`);
await plain.close();
await shared.close();

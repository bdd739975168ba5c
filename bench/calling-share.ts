/**
 * The calling thread as one share of a stage (StageRunner `callingShare`, docs/multi-core.md) vs
 * every share on worker threads: one process, three environments over the same tables — p1, p2 on
 * two workers, p2 on this thread + one worker — run interleaved (p1, p2w, p2c, p1, …) so a shared
 * machine's load hits all alike. Prints per query the medians of wall time and process CPU (all
 * threads), the median of the per-round ratios p2w / p2c (robust to load drifting between rounds), and
 * each one's fastest run.
 *
 *   node --expose-gc --import tsx bench/calling-share.ts --data /work/bench-data [--only q6,q1,q3,q18] [--runs 15] [--warmup 4]
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { TableEnvironment } from '../src/api/environment.js';
import { StageRunner } from '../src/planner/ship-run.js';
import { TPCH_TABLES } from '../src/io/tpch/index.js';
import { DEFAULT_DATA_DIR, ensureData } from './suite/data.js';
import { loadQueries } from './suite/queries.js';
import { collectGarbage } from './lib/timing.js';

const { values } = parseArgs({ options: { only: { type: 'string', default: 'q6,q1,q3,q18' }, runs: { type: 'string', default: '15' }, warmup: { type: 'string', default: '4' }, data: { type: 'string' } } });
const data = await ensureData(1, values.data ?? DEFAULT_DATA_DIR, (m) => console.error(m));
const queries = loadQueries(values.only!.split(','));
const envs = { p1: TableEnvironment.create({ parallelism: 1 }), p2w: TableEnvironment.create({ parallelism: 2 }), p2c: TableEnvironment.create({ parallelism: 2 }) };
(envs.p2w as unknown as { executor: { stageRunner: StageRunner } }).executor.stageRunner = new StageRunner(2, { callingShare: false });
(envs.p2c as unknown as { executor: { stageRunner: StageRunner } }).executor.stageRunner = new StageRunner(2, { callingShare: true });
for (const n of TPCH_TABLES) {
  if (!queries.some((q) => new RegExp(`\\b${n}\\b`, 'i').test(q.sql))) continue;
  const t = await (await envs.p1.fromArrowFile(join(data.dir, `${n}.arrow`))).collect();
  for (const e of Object.values(envs)) e.registerTable(n, t);
}
const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)] ?? 0; };
type Name = keyof typeof envs;
async function once(name: Name, sql: string): Promise<{ wall: number; cpu: number }> {
  collectGarbage(); // a bare gc() would also drop this thread's optimized code (bench/README.md)
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await envs[name].sql(sql).collect();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) / 1000 };
}
const load0 = loadavg()[0]!;
console.log('| query | p1 ms | p2 workers ms | p2 calling + worker ms | p2w / p2c (median ratio) | p1 / p2c | fastest p1 / p2w / p2c ms | process CPU p1 / p2w / p2c ms |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const q of queries) {
  const r: Record<Name, { wall: number; cpu: number }[]> = { p1: [], p2w: [], p2c: [] };
  for (let i = 0; i < Number(values.warmup) + Number(values.runs); i++) {
    for (const name of Object.keys(envs) as Name[]) {
      const x = await once(name, q.sql);
      if (i >= Number(values.warmup)) r[name].push(x);
    }
  }
  const w = (n: Name): number => median(r[n].map((x) => x.wall));
  const c = (n: Name): number => median(r[n].map((x) => x.cpu));
  // The fastest run of each: the nearest to a quiet machine's figure when the load is high.
  const fast = (n: Name): string => Math.min(...r[n].map((x) => x.wall)).toFixed(1);
  const ratio = median(r.p2w.map((x, i) => x.wall / r.p2c[i]!.wall));
  console.log(`| ${q.id} | ${w('p1').toFixed(1)} | ${w('p2w').toFixed(1)} | ${w('p2c').toFixed(1)} | ${ratio.toFixed(2)}× | ${(w('p1') / w('p2c')).toFixed(2)}× | ${fast('p1')} / ${fast('p2w')} / ${fast('p2c')} | ${c('p1').toFixed(0)} / ${c('p2w').toFixed(0)} / ${c('p2c').toFixed(0)} |`);
}
console.log(`\nload average 1 min: ${load0.toFixed(2)} at start, ${loadavg()[0]!.toFixed(2)} at end; ${values.runs} interleaved runs after ${values.warmup} warm-up(s); SF 1`);
for (const e of Object.values(envs)) await e.close();

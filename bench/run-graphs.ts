/**
 * The calling thread's graph at parallelism 2 on the paths that used to run the parallelism-2
 * graph as subtasks taking turns on one thread (src/api/run-graphs.ts): `workers: 'off'` and
 * EXPLAIN ANALYZE. Per query, medians over the runs of this thread's CPU, the process's CPU (the
 * worker threads included) and the wall time, for p1, p2 with workers off, p2 EXPLAIN ANALYZE and
 * p2 (a normal run), runs interleaved. Run it in an old and a new worktree, alternating processes,
 * to compare builds (docs/bench.md "p2paths").
 *
 *   node --import tsx bench/run-graphs.ts --data /work/bench-data [--sf 1] [--only q3,q6,q18] [--runs 5] [--warmup 2]
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { TableEnvironment } from '../src/api/environment.js';
import { threadCpuMs } from '../src/exec/workers/thread-cpu.js';
import { TPCH_TABLES } from '../src/io/tpch/index.js';
import { loadQueries } from './suite/queries.js';
import { p1AndP2 } from './lib/p1-p2.js';

const { values } = parseArgs({ options: { sf: { type: 'string', default: '1' }, only: { type: 'string', default: 'q3,q6,q18' }, runs: { type: 'string', default: '5' }, warmup: { type: 'string', default: '2' }, data: { type: 'string' } } });
const runs = Number(values.runs);
const warmup = Number(values.warmup);
const { tables, p1, p2 } = await p1AndP2(Number(values.sf), values.data);
const off = TableEnvironment.create({ parallelism: 2, workers: 'off' });
for (const n of TPCH_TABLES) off.registerTable(n, tables[n]!);

const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]!; };
const processCpuMs = (): number => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };

interface Mode { readonly name: string; readonly run: (sql: string) => Promise<unknown> }
const modes: Mode[] = [
  { name: 'p1', run: (sql) => p1.sql(sql).collect() },
  { name: 'p2 off', run: (sql) => off.sql(sql).collect() },
  { name: 'p2 analyze', run: (sql) => p2.sql(sql).explain({ analyze: true }) },
  { name: 'p2', run: (sql) => p2.sql(sql).collect() },
];

console.log(`load average at start: ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
console.log('| query | mode | this thread CPU ms | process CPU ms | wall ms |');
console.log('|---|---|---|---|---|');
for (const q of loadQueries(values.only!.split(','))) {
  for (const m of modes) for (let i = 0; i < warmup; i++) await m.run(q.sql);
  const figures = modes.map(() => ({ thread: [] as number[], proc: [] as number[], wall: [] as number[] }));
  for (let r = 0; r < runs; r++) {
    for (const [i, m] of modes.entries()) {
      const t0 = threadCpuMs() ?? 0; const c0 = processCpuMs(); const w0 = performance.now();
      await m.run(q.sql);
      figures[i]!.wall.push(performance.now() - w0); figures[i]!.proc.push(processCpuMs() - c0); figures[i]!.thread.push((threadCpuMs() ?? 0) - t0);
    }
  }
  for (const [i, m] of modes.entries()) {
    const f = figures[i]!;
    console.log(`| ${q.id} | ${m.name} | ${median(f.thread).toFixed(0)} | ${median(f.proc).toFixed(0)} | ${median(f.wall).toFixed(0)} |`);
  }
}
console.log(`load average at end: ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
for (const e of [p1, p2, off]) await e.close();

/**
 * Queries straight over a Parquet file at parallelism 1 and 2 (docs/files.md "Parallel scans"):
 * at 2 the file's row groups are dealt to the calling thread and a worker, each decoding its own
 * (planner/ship-files.ts). Two shapes over SF 1 lineitem.parquet: TPC-H Q1's grouped sums
 * (6 columns decoded) and Q6's filter-sum (4 columns).
 *
 * Each parallelism runs in its own child processes, alternating (p1, p2, p1, p2, ...) so both see
 * the same load; a child runs each query `--warmup` times, then `--runs` timed runs, each a fresh
 * `read_parquet` (the footer is read again, as a user's query does). Wall and process CPU (every
 * thread: the worker's included) per run, and at p2 the critical path's CPU — the busier of the
 * calling thread (which reads share 0) and the worker, per thread CPU — whose ratio to p1's CPU
 * is the speed-up two idle cores would give (wall times under load are noise). The table gives
 * medians over all children's runs, and the load average. Answers are checked equal across parallelisms (bits of every value).
 *
 *   node --expose-gc --import tsx bench/parquet-workers.ts --data /work/bench-data [--only q1,q6] [--runs 5] [--warmup 3] [--rounds 3]
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { TableEnvironment } from '../src/api/index.js';
import { collectGarbage, median } from './lib/timing.js';
import { threadCpuMs } from '../src/exec/workers/thread-cpu.js';
import type { QueryExecutor } from '../src/api/query-execution.js';

const { values } = parseArgs({
  options: {
    data: { type: 'string', default: '/work/bench-data' },
    sf: { type: 'string', default: '1' },
    runs: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '3' },
    only: { type: 'string', default: 'q1,q6' },
    child: { type: 'string' },
  },
});
const file = join(values.data!, `sf-${values.sf}`, 'lineitem.parquet');

const ALL_QUERIES: Record<string, string> = {
  q1: `SELECT l_returnflag, l_linestatus, sum(l_quantity) AS sum_qty, sum(l_extendedprice) AS sum_base_price, avg(l_discount) AS avg_disc, count(*) AS count_order
    FROM read_parquet('${file}') GROUP BY 1, 2 ORDER BY 1, 2`,
  q6: `SELECT sum(l_extendedprice * l_discount) AS revenue FROM read_parquet('${file}')
    WHERE l_shipdate >= DATE '1994-01-01' AND l_shipdate < DATE '1995-01-01' AND l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24`,
};

const QUERIES = Object.fromEntries(values.only!.split(',').map((id) => { const q = ALL_QUERIES[id]; if (q === undefined) throw new Error(`no query ${id}`); return [id, q]; }));

/** Per run: wall, process CPU (all threads), the calling thread's CPU, and the critical path's CPU (the busiest of the calling thread and the workers). */
interface Sample { wall: number[]; cpu: number[]; main: number[]; critical: number[]; answer: string }

async function child(parallelism: number): Promise<void> {
  const env = TableEnvironment.create({ parallelism });
  const out: Record<string, Sample> = {};
  for (const [id, sql] of Object.entries(QUERIES)) {
    const s: Sample = { wall: [], cpu: [], main: [], critical: [], answer: '' };
    const workers = (): number[] => [...(env as unknown as { executor: QueryExecutor }).executor.workerStats.workerCpuMs];
    for (let i = 0; i < Number(values.warmup) + Number(values.runs); i++) {
      collectGarbage();
      const c0 = process.cpuUsage();
      const m0 = threadCpuMs() ?? 0;
      const w0 = workers();
      const t0 = performance.now();
      const r = await env.executeSql(sql);
      const wall = performance.now() - t0;
      const c = process.cpuUsage(c0);
      const main = (threadCpuMs() ?? 0) - m0;
      const busiest = Math.max(main, ...workers().map((w, k) => w - (w0[k] ?? 0)));
      if (r.kind !== 'rows') throw new Error('expected rows');
      s.answer = JSON.stringify(r.table.toArray().map((x) => Object.values(x.toJSON() as object)), (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : typeof v === 'number' ? v.toString(16) : v));
      if (i >= Number(values.warmup)) { s.wall.push(wall); s.cpu.push((c.user + c.system) / 1000); s.main.push(main); s.critical.push(busiest); }
    }
    out[id] = s;
  }
  await env.close();
  process.stdout.write(JSON.stringify(out) + '\n');
}

function runChild(parallelism: number): Promise<Record<string, Sample>> {
  return new Promise((ok, fail) => {
    const args = ['--expose-gc', '--import', 'tsx', new URL(import.meta.url).pathname, '--child', String(parallelism), ...process.argv.slice(2)];
    const p = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    p.stdout.on('data', (d: Buffer) => { text += d.toString(); });
    p.on('close', (code) => (code === 0 ? ok(JSON.parse(text.trim().split('\n').pop()!) as Record<string, Sample>) : fail(new Error(`child p${parallelism} exited ${code}`))));
  });
}

if (values.child !== undefined) {
  await child(Number(values.child));
} else {
  const load0 = loadavg()[0]!;
  const all: Record<string, Record<string, Sample>> = { p1: {}, p2: {} };
  for (let r = 0; r < Number(values.rounds); r++) {
    for (const p of [1, 2]) {
      const res = await runChild(p);
      for (const [id, s] of Object.entries(res)) {
        const acc = (all[`p${p}`]![id] ??= { wall: [], cpu: [], main: [], critical: [], answer: s.answer });
        if (acc.answer !== s.answer) throw new Error(`${id}: p${p} answered ${s.answer}, earlier ${acc.answer}`);
        acc.wall.push(...s.wall);
        acc.cpu.push(...s.cpu);
        acc.main.push(...s.main);
        acc.critical.push(...s.critical);
      }
    }
  }
  console.log(`${file}: medians of ${values.rounds} x ${values.runs} runs per parallelism (child processes alternating p1, p2)`);
  console.log('| query | p1 wall ms | p2 wall ms | wall speed-up | p1 CPU ms | p2 CPU ms (all threads) | p2 calling thread CPU | p2 critical-path CPU | CPU speed-up | same answer |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
  for (const id of Object.keys(QUERIES)) {
    const a = all.p1![id]!, b = all.p2![id]!;
    const w1 = median(a.wall), w2 = median(b.wall);
    if (process.env['VERBOSE']) console.log(id, JSON.stringify({ p1: a.cpu.map(Math.round), p2: b.cpu.map(Math.round) }));
    const c1 = median(a.cpu), crit = median(b.critical);
    console.log(`| ${id} | ${w1.toFixed(0)} | ${w2.toFixed(0)} | ${(w1 / w2).toFixed(2)}x | ${c1.toFixed(0)} | ${median(b.cpu).toFixed(0)} | ${median(b.main).toFixed(0)} | ${crit.toFixed(0)} | ${(c1 / crit).toFixed(2)}x | ${a.answer === b.answer ? 'yes' : 'NO'} |`);
  }
  console.log(`\nload average 1 min: ${load0.toFixed(2)} at start, ${loadavg()[0]!.toFixed(2)} at end`);
}

/**
 * Where a query's threads spend each run: per thread, CPU time and run-queue wait (time runnable but
 * not running), from Linux's /proc/self/task/<tid>/schedstat around every timed run. On a 2-core
 * machine a p2 stage has two busy threads, so V8's helper threads (TurboFan compiles, concurrent
 * marking, sweeping) take CPU from one of them; this shows how much, run by run (docs/multi-core.md,
 * "Where p2's time goes"). Linux only.
 *
 *   node --expose-gc --import tsx bench/thread-sched.ts --data /work/bench-data [--only q3] [--engine p2] [--runs 15] [--warmup 5] [--quiet] [--nice 19]
 *
 * Per run: the wall ms, then `cpu+wait` ms for each thread that did anything (main = the calling
 * thread, busiest = the busiest other thread, the eddy worker at p2; the rest are V8's and libuv's
 * helpers), and at the end the medians of the wall and of the helpers' CPU.
 * --nice N (an experiment, not a recommendation) first runs the query once to find the busiest other
 * thread, then sets every other thread but the calling one to nice N (os.setPriority on a thread id),
 * so V8's helpers run only when a busy thread waits. Irreversible for an unprivileged process.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { p1AndP2 } from './lib/p1-p2.js';
import { median } from './lib/timing.js';

const { values } = parseArgs({
  options: {
    data: { type: 'string' }, only: { type: 'string', default: 'q3' }, engine: { type: 'string', default: 'p2' },
    runs: { type: 'string', default: '15' }, warmup: { type: 'string', default: '5' }, quiet: { type: 'boolean', default: false }, nice: { type: 'string' },
  },
});
const runs = Number(values.runs);
const q = values.only!.replace(/^q/, '');
const { p1, p2 } = await p1AndP2(1, values.data);
const env = values.engine === 'p1' ? p1 : p2;
const sql = readFileSync(fileURLToPath(new URL(`./tpch/q${q.padStart(2, '0')}.sql`, import.meta.url)), 'utf8');
const gc = (globalThis as { gc?: () => void }).gc;
const main = String(process.pid);

/** Per thread id: [cpu ns, run-queue wait ns]. */
function snapshot(): Map<string, [number, number]> {
  const m = new Map<string, [number, number]>();
  for (const t of readdirSync('/proc/self/task')) {
    try {
      const [run, wait] = readFileSync(`/proc/self/task/${t}/schedstat`, 'utf8').split(' ').map(Number);
      m.set(t, [run!, wait!]);
    } catch { /* the thread ended between the listing and the read */ }
  }
  return m;
}

/** Per thread id: [cpu ms, wait ms] between two snapshots. */
function delta(a: Map<string, [number, number]>, b: Map<string, [number, number]>): Map<string, [number, number]> {
  const d = new Map<string, [number, number]>();
  for (const [t, [r, w]] of b) { const p = a.get(t) ?? [0, 0]; d.set(t, [(r - p[0]) / 1e6, (w - p[1]) / 1e6]); }
  return d;
}

for (let i = 0; i < Number(values.warmup); i++) await env.sql(sql).collect();
let busiest = '';
{
  const a = snapshot(); await env.sql(sql).collect(); const d = delta(a, snapshot());
  let most = -1;
  for (const [t, [r]] of d) if (t !== main && r > most) { most = r; busiest = t; }
}
if (values.nice !== undefined) {
  let n = 0;
  for (const t of snapshot().keys()) if (t !== main && t !== busiest) { try { setPriority(Number(t), Number(values.nice)); n++; } catch { /* ended */ } }
  console.log(`set ${n} threads to nice ${values.nice} (kept: calling thread ${main}, busiest ${busiest})`);
}
const walls: number[] = [];
const helpers: number[] = [];
for (let i = 0; i < runs; i++) {
  gc?.();
  await new Promise((r) => setTimeout(r, 30));
  const a = snapshot();
  const t0 = performance.now();
  await env.sql(sql).collect();
  const wall = performance.now() - t0;
  const d = delta(a, snapshot());
  walls.push(wall);
  let help = 0;
  const parts: string[] = [];
  for (const [t, [r, w]] of d) {
    if (r + w < 0.5) continue;
    const who = t === main ? 'main' : t === busiest ? 'busiest' : `t${t}`;
    if (t !== main && t !== busiest) help += r;
    parts.push(`${who}:${r.toFixed(0)}+${w.toFixed(0)}`);
  }
  helpers.push(help);
  if (!values.quiet) console.log(wall.toFixed(1).padStart(6), parts.join(' '));
}
console.log(`q${q} ${values.engine}: wall median ${median(walls).toFixed(1)} ms, helper threads' CPU median ${median(helpers).toFixed(1)} ms per run (${runs} runs after ${values.warmup} warm-ups; load ${(await import('node:os')).loadavg()[0]!.toFixed(2)})`);
await p1.close();
await p2.close();
process.exit(0);

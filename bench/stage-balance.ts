/**
 * Where a worker stage's imbalance comes from (docs/multi-core-history.md, session 11,
 * "Balance of the sorted-key cut"): the cut (one worker's share costs more) or the worker (the same share costs more on one
 * worker, or only while both run). It captures the first round of one stage of a TPC-H query at
 * parallelism 2 — the exact tasks the coordinator posts — and replays them on the same two
 * workers: each share alone on each worker, then both at once, straight and swapped.
 *
 *   node --expose-gc --import tsx bench/stage-balance.ts --data /work/bench-data [--only q18] [--stage 1] [--runs 8] [--warmup 2]
 *
 * Prints the rows of each share, then per (worker, share) and mode the medians of the job's
 * thread CPU and the worker's wall time. If a share costs the same alone on either worker but
 * not when both run, the difference is the process (GC helper threads shared by both isolates,
 * the two cores), not the cut. Decision: replaying the captured tasks, not a copy of the
 * coordinator's logic, so the figures are those of the real stage.
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Table as ArrowTable } from 'apache-arrow';
import { TableEnvironment } from '../src/api/environment.js';
import { TPCH_TABLES } from '../src/io/tpch/index.js';
import type { StageResult, StageTask } from '../src/planner/ship-protocol.js';
import { DEFAULT_DATA_DIR, ensureData } from './suite/data.js';
import { loadQueries } from './suite/queries.js';

const { values } = parseArgs({ options: { sf: { type: 'string', default: '1' }, only: { type: 'string', default: 'q18' }, stage: { type: 'string', default: '1' }, runs: { type: 'string', default: '8' }, warmup: { type: 'string', default: '2' }, data: { type: 'string' } } });
const data = await ensureData(Number(values.sf), values.data ?? DEFAULT_DATA_DIR, (m) => console.error(m));
const loader = TableEnvironment.create({ parallelism: 1 });
const tables: Record<string, ArrowTable> = {};
for (const n of TPCH_TABLES) tables[n] = await (await loader.fromArrowFile(join(data.dir, `${n}.arrow`))).collect();
await loader.close();
const env = TableEnvironment.create({ parallelism: 2 });
for (const n of TPCH_TABLES) env.registerTable(n, tables[n]!);
const q = loadQueries([values.only!])[0];
if (q === undefined) throw new Error(`no query ${values.only}`);

/** The worker pool behind the environment (private fields: a diagnostic, not an API). */
interface Pool { run<T>(worker: number, task: StageTask, transfer: ArrayBuffer[], signal?: AbortSignal): Promise<T> }
await env.sql(q.sql).collect(); // starts the workers, shares the tables
const pool = (env as unknown as { executor: { stageRunner: { pool: Pool } } }).executor.stageRunner.pool;

// Capture the tasks of one run: every pool.run call, in order (two per round).
const posted: StageTask[] = [];
const run = pool.run.bind(pool);
pool.run = <T>(w: number, task: StageTask, transfer: ArrayBuffer[], signal?: AbortSignal): Promise<T> => { posted.push(task); return run<T>(w, task, transfer, signal); };
await env.sql(q.sql).collect();
pool.run = run;
// Rounds in posting order; the stage's first round is the k-th pair whose tasks read morsels.
const firstRounds = posted.filter((t) => t.morsels !== undefined);
const k = Number(values.stage) - 1;
const shares = firstRounds.slice(2 * k, 2 * k + 2);
if (shares.length !== 2) throw new Error(`${q.id} has no stage ${values.stage} (${firstRounds.length / 2} stages read morsels)`);
const rowsOf = (t: StageTask): number => { const r = t.morsels!.ranges; let n = 0; for (let i = 0; i < r.length; i += 3) if ((i / 3) % t.morsels!.workers === t.morsels!.worker) n += r[i + 2]! - r[i + 1]!; return n; };
console.log(`${q.id} stage ${values.stage}: rows read per share ${shares.map(rowsOf).join(' / ')}${shares[0]!.morsels!.workers === 1 ? ' (contiguous ranges)' : ' (round-robin morsels)'}`);

const figures = new Map<string, { cpu: number[]; wall: number[] }>();
const note = (key: string, r: StageResult): void => {
  const f = figures.get(key) ?? { cpu: [], wall: [] };
  f.cpu.push(r.phases?.runCpuMs ?? r.cpuMs ?? 0);
  f.wall.push(r.phases === undefined ? 0 : r.phases.endAt - r.phases.startAt);
  figures.set(key, f);
};
const once = (w: number, s: number): Promise<StageResult> => pool.run<StageResult>(w, shares[s]!, []);
const load0 = loadavg()[0]!;
const runs = Number(values.runs);
for (let i = 0; i < Number(values.warmup) + runs; i++) {
  const keep = i >= Number(values.warmup);
  for (const w of [0, 1]) for (const s of [0, 1]) { const r = await once(w, s); if (keep) note(`alone: worker ${w}, share ${s}`, r); }
  for (const swap of [0, 1]) {
    const rs = await Promise.all([0, 1].map((w) => once(w, swap ? 1 - w : w)));
    if (keep) rs.forEach((r, w) => note(`both at once: worker ${w}, share ${swap ? 1 - w : w}`, r));
  }
}
const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]!; };
console.log('| mode, worker, share | job CPU ms (median) | worker wall ms (median) |\n| --- | ---: | ---: |');
for (const [key, f] of figures) console.log(`| ${key} | ${median(f.cpu).toFixed(0)} | ${median(f.wall).toFixed(0)} |`);
console.log(`\nload average 1 min: ${load0.toFixed(2)} at start, ${loadavg()[0]!.toFixed(2)} at end; ${runs} runs after ${values.warmup} warm-up(s)`);
await env.close();

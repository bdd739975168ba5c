/**
 * Running one stage task (docs/multi-core.md): decode the shipped plan, lower it at parallelism 1
 * (or run the graph kept from an earlier equal task: ship-graph-cache.ts), run it, and encode its
 * result batches (optionally split by the hash of key columns for the
 * workers of the next stage). A worker thread runs its tasks with this (ship-worker.ts), and so
 * does the calling thread when it takes a share of a stage itself (ship-run.ts).
 *
 * Decision: the calling thread's share goes through the same decoding, lowering, runtime options
 * and result encoding as a worker's, not through a shortcut over its own plan objects: a share
 * then computes the same bits wherever it runs (p1/p2 reproducibility, docs/multi-core.md), and
 * the encoding costs little (a stage's result is its few aggregated rows).
 */
import type * as arrow from 'apache-arrow';
import type { RecordBatch } from 'apache-arrow';
import { executeJob } from '../exec/runtime.js';
import { partitionBatch } from '../exec/partition.js';
import { fromWireBatch, toWireBatch, type WireBatch, type WireData } from '../exec/workers/wire.js';
import { decodePlan } from './ship-serialize.js';
import { isDeterministic } from '../relnode/digest.js';
import { lower } from './lower.js';
import { memorySource } from '../io/memory.js';
import { shippedSource } from './ship-tables.js';
import type { ColumnCache } from './ship-column-cache.js';
import { liveMorsels, StageGraphs, type CancelFlags } from './ship-graph-cache.js';
import type { Morsels } from './ship-tables.js';
import { fileShareSource, openShareFiles } from './ship-files.js';
import type { TableSource } from '../io/source.js';
import { threadCpuMs, wallNow } from '../exec/workers/thread-cpu.js';
import type { StageTask, StageResult, TaskPhases } from './ship-protocol.js';

/**
 * How a stage task runs its job: whole batches per delivery (no step-budget clock reads: on a
 * worker the process CPU clock counts all threads, costs ~3 µs a read, and a third of TPC-H Q3's
 * worker time went to it) and no per-operator timing (nobody reads a task's metrics). The job
 * still yields to its thread's event loop every ~10 ms (runtime/loop.ts).
 */
export const WORKER_RUN = { sliceDeliveries: false, selfTime: false } as const;

/**
 * Runs one task to its result batches, with `kept` holding the table columns rebuilt across tasks
 * (ship-column-cache.ts) and `graphs` (when given) the graphs lowered for earlier equal tasks
 * (ship-graph-cache.ts).
 */
export async function runStageTask(task: StageTask, signal: AbortSignal, kept: ColumnCache, graphs?: StageGraphs): Promise<StageResult> {
  const startAt = wallNow();
  const cpu0 = threadCpuMs();
  kept.beginTask(Object.values(task.tables));
  graphs?.beginTask();
  const key = graphs === undefined ? undefined : StageGraphs.key(task);
  const reused = key === undefined ? undefined : graphs!.take(key);
  // This task's cancel flags, read by the scans of the graph it runs (a kept one reads them through `liveMorsels`).
  const flags: CancelFlags = reused?.flags ?? new Map();
  flags.clear();
  if (task.morsels !== undefined) flags.set(task.morsels.key, task.morsels.state);
  for (const m of Object.values(task.restricted ?? {})) flags.set(m.key, m.state);
  for (const m of Object.values(task.files ?? {})) flags.set(m.key, m.state);
  // A distributed file scan's files, opened (or kept) on this thread before the plan is decoded (ship-files.ts).
  const files = new Map<string, (TableSource | undefined)[]>();
  if (reused === undefined) for (const [k, m] of Object.entries(task.files ?? {})) files.set(k, await openShareFiles(m));
  const live = (m: Morsels | undefined): Morsels | undefined => (m === undefined || key === undefined ? m : liveMorsels(m, flags));
  const sources = new Map<string, object>();
  const source = (name: string): object => {
    let s = sources.get(name);
    if (s !== undefined) return s;
    const input = task.inputs?.[name];
    const fm = task.files?.[name];
    if (fm !== undefined) s = fileShareSource(fm, files.get(name)!, () => flags.get(name) ?? fm.state, name);
    else if (input !== undefined) { const dicts = new Map<WireData, arrow.Vector>(); s = memorySource(input.batches.map((b) => fromWireBatch(b, dicts)), name, input.schema); }
    else {
      const t = task.tables[name];
      if (t === undefined) throw new Error(`internal error: table ${name} was not shipped`);
      s = shippedSource(t, name, live(task.morsels?.key === name ? task.morsels : task.restricted?.[name]), kept);
    }
    sources.set(name, s);
    return s;
  };
  // A plan with a non-deterministic call (now() is a constant of its lowering, random()) is lowered every time.
  let keepable = false;
  let graph = reused?.graph;
  if (graph === undefined) {
    const plan = decodePlan(task.plan, source);
    keepable = key !== undefined && isDeterministic(plan);
    graph = lower(plan, { parallelism: 1, ...(task.groupsShare !== undefined ? { groupsShare: task.groupsShare } : {}) });
  }
  const cpuSetup = threadCpuMs();
  const setupAt = wallNow();
  const out: RecordBatch[] = [];
  try {
    for await (const b of executeJob(graph, { batchSize: task.batchSize, memoryLimit: task.memoryLimit, signal, ...WORKER_RUN })) out.push(b);
  } finally {
    if (reused !== undefined) graphs!.release(reused);
  }
  // A graph that ran to its end is kept for the next equal task.
  if (keepable) graphs!.keep(key!, { graph, flags });
  const cpuRun = threadCpuMs();
  const runAt = wallNow();
  const split = task.partitionOut;
  const parts: WireBatch[][] = Array.from({ length: split?.n ?? 1 }, () => []);
  const dicts = new Map<unknown, WireData>();
  for (const b of out) {
    if (split === undefined) { parts[0]!.push(toWireBatch(b, dicts, task.shareOut === true)); continue; }
    const ps = partitionBatch(b, split.keys, split.n);
    ps.forEach((p, i) => { if (p !== undefined && p.numRows > 0) parts[i]!.push(toWireBatch(p, dicts)); });
  }
  const cpu1 = threadCpuMs();
  const again = reused !== undefined ? { reusedGraph: true } : {};
  if (cpu0 === undefined || cpuSetup === undefined || cpuRun === undefined || cpu1 === undefined) return { parts, ...again };
  const phases: TaskPhases = { startAt, setupAt, runAt, endAt: wallNow(), setupCpuMs: cpuSetup - cpu0, runCpuMs: cpuRun - cpuSetup, encodeCpuMs: cpu1 - cpuRun };
  return { parts, cpuMs: cpu1 - cpu0, phases, ...again };
}

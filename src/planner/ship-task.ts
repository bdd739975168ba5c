/**
 * Running one stage task (docs/multi-core.md): decode the shipped plan, lower it at parallelism 1,
 * run it, and encode its result batches (optionally split by the hash of key columns for the
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
import { lower } from './lower.js';
import { memorySource } from '../io/memory.js';
import { shippedSource } from './ship-tables.js';
import type { ColumnCache } from './ship-column-cache.js';
import { threadCpuMs, wallNow } from '../exec/workers/thread-cpu.js';
import type { StageTask, StageResult, TaskPhases } from './ship-protocol.js';

/**
 * How a stage task runs its job: whole batches per delivery (no step-budget clock reads: on a
 * worker the process CPU clock counts all threads, costs ~3 µs a read, and a third of TPC-H Q3's
 * worker time went to it) and no per-operator timing (nobody reads a task's metrics). The job
 * still yields to its thread's event loop every ~10 ms (runtime/loop.ts).
 */
export const WORKER_RUN = { sliceDeliveries: false, selfTime: false } as const;

/** Runs one task to its result batches, with `kept` holding the table columns rebuilt across tasks (ship-column-cache.ts). */
export async function runStageTask(task: StageTask, signal: AbortSignal, kept: ColumnCache): Promise<StageResult> {
  kept.beginTask(Object.values(task.tables));
  const sources = new Map<string, object>();
  const source = (key: string): object => {
    let s = sources.get(key);
    if (s !== undefined) return s;
    const input = task.inputs?.[key];
    if (input !== undefined) { const dicts = new Map<WireData, arrow.Vector>(); s = memorySource(input.batches.map((b) => fromWireBatch(b, dicts)), key, input.schema); }
    else {
      const t = task.tables[key];
      if (t === undefined) throw new Error(`internal error: table ${key} was not shipped`);
      s = shippedSource(t, key, task.morsels?.key === key ? task.morsels : task.restricted?.[key], kept);
    }
    sources.set(key, s);
    return s;
  };
  const startAt = wallNow();
  const cpu0 = threadCpuMs();
  const plan = decodePlan(task.plan, source);
  const graph = lower(plan, { parallelism: 1, ...(task.groupsShare !== undefined ? { groupsShare: task.groupsShare } : {}) });
  const cpuSetup = threadCpuMs();
  const setupAt = wallNow();
  const out: RecordBatch[] = [];
  for await (const b of executeJob(graph, { batchSize: task.batchSize, memoryLimit: task.memoryLimit, signal, ...WORKER_RUN })) out.push(b);
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
  if (cpu0 === undefined || cpuSetup === undefined || cpuRun === undefined || cpu1 === undefined) return { parts };
  const phases: TaskPhases = { startAt, setupAt, runAt, endAt: wallNow(), setupCpuMs: cpuSetup - cpu0, runCpuMs: cpuRun - cpuSetup, encodeCpuMs: cpu1 - cpuRun };
  return { parts, cpuMs: cpu1 - cpu0, phases };
}

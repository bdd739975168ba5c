/**
 * The worker thread's entry (docs/multi-core.md): it receives stage tasks, lowers the shipped
 * plan with the same lowering and runs it on the same runtime as the calling thread, at
 * parallelism 1, and replies with its result batches (their buffers moved, not copied),
 * optionally split by the hash of key columns for the workers of the next stage.
 *
 * Decision: this module imports the planner's lowering and the layers below it, never the SQL
 * front end or the API (test/workers/isolation.test.ts checks the import graph), so a worker
 * starts quickly. It keeps no state between tasks except the loaded code and the table columns
 * it rebuilt (ship-column-cache.ts: by the coordinator's column ids, dropped when unused).
 */
import { parentPort } from 'node:worker_threads';
import type * as arrow from 'apache-arrow';
import type { RecordBatch } from 'apache-arrow';
import { executeJob } from '../exec/runtime.js';
import { partitionBatch } from '../exec/partition.js';
import { fromWireBatch, toWireBatch, transferables, type WireBatch, type WireData } from '../exec/workers/wire.js';
import { decodePlan } from './ship-serialize.js';
import { lower } from './lower.js';
import { memorySource } from '../io/memory.js';
import { shippedSource } from './ship-tables.js';
import { ColumnCache } from './ship-column-cache.js';
import { threadCpuMs, wallNow } from '../exec/workers/thread-cpu.js';
import type { StageTask, StageResult, TaskPhases } from './ship-protocol.js';

const running = new Map<number, AbortController>();

/** This worker's rebuilt table columns, kept across tasks (ship-column-cache.ts). */
const kept = new ColumnCache();

/**
 * How a worker runs its job: whole batches per delivery (no step-budget clock reads: on a worker
 * the process CPU clock counts all threads, costs ~3 µs a read, and a third of TPC-H Q3's worker
 * time went to it) and no per-operator timing (nobody reads a worker's metrics).
 */
export const WORKER_RUN = { sliceDeliveries: false, selfTime: false } as const;

/** Runs one task to its result batches. */
export async function runStageTask(task: StageTask, signal: AbortSignal): Promise<StageResult> {
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

function errorOf(e: unknown): { name: string; message: string } {
  return e instanceof Error ? { name: e.name, message: e.message } : { name: 'Error', message: String(e) };
}

const port = parentPort;
if (port !== null) {
  port.on('message', (m: { id: number; task?: StageTask; cancel?: boolean }) => {
    if (m.cancel) {
      running.get(m.id)?.abort();
      return;
    }
    const ac = new AbortController();
    running.set(m.id, ac);
    runStageTask(m.task!, ac.signal).then(
      (result) => {
        running.delete(m.id);
        const reply = { id: m.id, ok: true, result };
        const transfer = transferables(result.parts.flat());
        try { port.postMessage(reply, transfer); } catch { port.postMessage(reply); }
      },
      (e: unknown) => {
        running.delete(m.id);
        port.postMessage({ id: m.id, ok: false, error: errorOf(e) });
      },
    );
  });
}

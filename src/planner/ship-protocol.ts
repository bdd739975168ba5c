/**
 * The messages between the calling thread and its worker threads (docs/multi-core.md): one
 * stage task per worker and stage, one reply with the worker's result batches.
 *
 * Decision: a task is self-contained — the plan as data, the tables it scans (shared memory),
 * the morsels of the distributed scan, and batches of an earlier stage's output (moved) — so a
 * terminated worker loses nothing. (A worker keeps the table columns it rebuilt, by their ids,
 * only as a cache: ship-column-cache.ts.)
 */
import type { Schema } from '../relnode/types.js';
import type { WireBatch } from '../exec/workers/wire.js';
import type { ShippedPlan } from './ship-serialize.js';
import type { Morsels, ShippedTable } from './ship-tables.js';
import type { FileMorsels } from './ship-files.js';

/** One worker's part of a stage. */
export interface StageTask {
  readonly plan: ShippedPlan;
  /** Scanned tables by the key their Scan nodes carry. */
  readonly tables: Readonly<Record<string, ShippedTable>>;
  /** Batches of an earlier stage, by key (scanned like tables). */
  readonly inputs?: Readonly<Record<string, { readonly schema: Schema; readonly batches: readonly WireBatch[] }>>;
  /**
   * A distributed scan over files, by the key its Scan node carries: the row groups this share
   * opens and decodes itself (ship-files.ts). Such a task has no `morsels`.
   */
  readonly files?: Readonly<Record<string, FileMorsels>>;
  /** The distributed scan's morsels (absent: every scan reads its whole table). */
  readonly morsels?: Morsels;
  /** Other scans that read only these row ranges, by key (a co-partitioned join's other side: ship-copartition.ts). */
  readonly restricted?: Readonly<Record<string, Morsels>>;
  /** Split the result by the hash of these output columns into n parts (for the next stage's workers). */
  readonly partitionOut?: { readonly keys: readonly number[]; readonly n: number };
  /**
   * Reply with the result in SharedArrayBuffers (a gather stage: the next stage's workers read its
   * rows in place, and the copy is made by the workers in parallel, not by the calling thread).
   */
  readonly shareOut?: boolean;
  /**
   * The fraction of the stage's groups this worker computes, when every group is on one worker (a
   * partitioned or one-round co-partitioned stage: 1/W): its group tables are sized for that share
   * (LowerOptions.groupsShare), not for all the groups of the table statistics it carries.
   */
  readonly groupsShare?: number;
  readonly batchSize: number;
  readonly memoryLimit?: number;
}

/** A worker's reply: its result batches, in `partitionOut.n` parts (one part without it). */
export interface StageResult {
  readonly parts: readonly (readonly WireBatch[])[];
  /** CPU milliseconds the worker thread spent on the task (Linux), for the multi-core figures. */
  readonly cpuMs?: number;
  /** Where the task's time went on the worker (bench/multi-core.ts --trace). */
  readonly phases?: TaskPhases;
  /** The task ran the graph lowered for an earlier equal task (ship-graph-cache.ts). */
  readonly reusedGraph?: boolean;
}

/**
 * A worker's timings of one task: wall-clock instants (ms since the epoch, comparable across
 * threads) and CPU milliseconds per phase (Linux, to a scheduler tick: thread-cpu.ts).
 */
export interface TaskPhases {
  /** When the worker began the task, and when its result was ready to post. */
  readonly startAt: number;
  readonly endAt: number;
  /** When decoding + lowering ended, and when the job ended (wall instants, for sub-tick phases). */
  readonly setupAt: number;
  readonly runAt: number;
  /** Taking the task's columns and decoding + lowering its plan (or leasing a kept graph: ship-graph-cache.ts); running the job; encoding (and splitting) the result. */
  readonly setupCpuMs: number;
  readonly runCpuMs: number;
  readonly encodeCpuMs: number;
}

/**
 * A thread's lowered stage graphs, kept from one task to the next (docs/multi-core.md, "Data
 * movement"): a worker — or the calling thread running its own share — that gets a task equal to
 * one it ran before runs the job graph it lowered then, instead of decoding and lowering the plan
 * again.
 *
 * Decision: the same reuse the calling thread makes of its own plans (api/physical-plans.ts), for
 * the same reasons it is safe: a job graph is immutable (operators come from its factories per
 * run, runtime-filter slots reset when a run starts) and may run again, but not by two runs at
 * once (a lease). Decoding and lowering a stage was 1.5 ms (TPC-H Q6) and 4.7 ms (Q1) of CPU per
 * task on each thread at load ~20, on the critical path of both shares, and most of it garbage.
 *
 * Decision: the key is everything a task's lowering reads — the plan as shipped, each table's
 * column ids (one per table version and column: they fix the data, the batch lengths and the
 * statistics that sized the plan), the morsels, the restricted ranges, the group share and a file scan's files and row groups — so
 * an equal key lowers to the same graph. Tasks that carry batches (a stage's second round) and
 * plans with a non-deterministic call (now() is a constant of its lowering) are never kept. The one per-stage thing a graph's scans read, the stage's cancel flag, is not in
 * the key: the kept graph's scans read the flag of the task running it (`flags`).
 *
 * Decision: entries are dropped by the column cache's rule (not used by the last `keepTasks`
 * tasks), and at most `maxEntries` are kept, so graphs of one-off queries (a stage result's
 * tables get new ids every query) do not pile up and a dropped table version's memory is not held
 * for long.
 */
import type { JobGraph } from '../exec/job.js';
import { COLUMN_CACHE_KEEP_TASKS } from './ship-column-cache.js';
import type { StageTask } from './ship-protocol.js';
import type { Morsels } from './ship-tables.js';

/** The cancel flags of the task running a graph now, by morsels key (ship-tables.ts Morsels.state). */
export type CancelFlags = Map<string, Int32Array>;

/** A kept graph and the flags its scans read; `release` ends the lease. */
export interface KeptGraph {
  readonly graph: JobGraph;
  readonly flags: CancelFlags;
}

interface Entry extends KeptGraph {
  inUse: boolean;
  lastTask: number;
}

/** Graphs kept at most (the least recently used go first). */
const MAX_ENTRIES = 16;

function morselsKey(m: Morsels | undefined): unknown {
  return m === undefined ? null : [m.key, Array.from(m.ranges), m.worker, m.workers, m.byKey ?? null];
}

/** Lowered stage graphs by task key, across the tasks of one thread. */
export class StageGraphs {
  private readonly entries = new Map<string, Entry>();
  private task = 0;

  constructor(private readonly keepTasks = COLUMN_CACHE_KEEP_TASKS, private readonly maxEntries = MAX_ENTRIES) {}

  /**
   * The key of a task whose graph may be kept, or undefined (it carries batches, or a table
   * column without an id).
   */
  static key(task: StageTask): string | undefined {
    if (task.inputs !== undefined) return undefined;
    const tables: unknown[] = [];
    for (const k of Object.keys(task.tables).sort()) {
      const t = task.tables[k]!;
      const ids = t.ids ?? {};
      for (const c of Object.keys(t.columns)) if (ids[Number(c)] === undefined) return undefined;
      tables.push([k, Object.entries(ids)]);
    }
    const restricted = Object.keys(task.restricted ?? {}).sort().map((k) => morselsKey(task.restricted![k]));
    // A file scan's files (a replaced file has another size or time) and this share's row groups (ship-files.ts).
    const files = Object.keys(task.files ?? {}).sort().map((k) => { const f = task.files![k]!; return [k, f.files, f.rows, Array.from(f.parts)]; });
    return JSON.stringify([task.plan, tables, morselsKey(task.morsels), restricted, task.groupsShare ?? null, files]);
  }

  /** Starts a task: drops the entries the last `keepTasks` tasks did not use. */
  beginTask(): void {
    this.task++;
    for (const [k, e] of this.entries) if (!e.inUse && this.task - e.lastTask > this.keepTasks) this.entries.delete(k);
  }

  /** The graph kept under `key`, leased to the caller (undefined when none, or when another run holds it). */
  take(key: string): KeptGraph | undefined {
    const e = this.entries.get(key);
    if (e === undefined || e.inUse) return undefined;
    e.inUse = true;
    e.lastTask = this.task;
    // Most recently used last: the first entries are the ones `keep` drops when full.
    this.entries.delete(key);
    this.entries.set(key, e);
    return e;
  }

  /** Ends the lease of a graph `take` gave. */
  release(g: KeptGraph): void {
    (g as Entry).inUse = false;
  }

  /** Keeps a graph that ran to its end under `key` (unless one is kept already). */
  keep(key: string, g: KeptGraph): void {
    if (this.entries.has(key)) return;
    this.entries.set(key, { ...g, inUse: false, lastTask: this.task });
    for (const [k, e] of this.entries) {
      if (this.entries.size <= this.maxEntries) break;
      if (!e.inUse) this.entries.delete(k);
    }
  }

  /** Graphs kept now. */
  get size(): number {
    return this.entries.size;
  }
}

/**
 * `m` with its cancel flag read from `flags` at each use (a kept graph's scans then read the flag
 * of the task running it, not of the task it was lowered for).
 */
export function liveMorsels(m: Morsels, flags: CancelFlags): Morsels {
  return {
    key: m.key, ranges: m.ranges, worker: m.worker, workers: m.workers, ...(m.byKey !== undefined ? { byKey: m.byKey } : {}),
    get state(): Int32Array { return flags.get(m.key) ?? m.state; },
  };
}

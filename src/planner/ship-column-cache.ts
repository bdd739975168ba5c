/**
 * A worker's decoded table columns, kept from one task to the next, and the coordinator's record
 * of what each worker holds (docs/multi-core.md, "Data movement").
 *
 * Decision: a shared table column carries an id that the coordinator gives it once per table
 * version and column (`SharedTables`), and a worker keeps the Arrow Data it rebuilt for that id.
 * Before, every task rebuilt every column of every batch (`fromWireData`), so the facts that
 * kernels cache per Arrow Data object — "every string of this column is one byte", which the
 * calling thread computes once per table — were computed again by every worker in every query:
 * ~10% of a TPC-H Q1 worker's CPU (the one-byte test over its half of two key columns, and the
 * rebuilding). The id names immutable shared memory, so a hit is always the same data.
 *
 * Decision: a column the worker still holds travels as its id only. Cloning a task's wire
 * columns (one object and one shared view per batch and column: 644 for Q1's lineitem) cost
 * the calling thread and the worker 2–5 ms per task, and the second worker's task was posted
 * after the first one's clone. The coordinator's record (`SentColumns`) follows the worker's
 * own rule for dropping entries, but it is only a hint: a worker missing a column fails the
 * task at once with `MISSING_COLUMN`, and the coordinator posts it again with every column.
 *
 * Decision: entries not used by the last `keepTasks` tasks are dropped, so a worker never holds
 * a dropped table version's shared memory for long (only until a few later tasks have run) and
 * the per-query tables of stage results do not pile up.
 */
import type * as arrow from 'apache-arrow';
import { fromWireData, type WireData } from '../exec/workers/wire.js';
import type { ShippedTable } from './ship-tables.js';

/** Tasks an unused entry survives. */
export const COLUMN_CACHE_KEEP_TASKS = 8;

/** The name of the error a worker answers when a task names a column it does not hold. */
export const MISSING_COLUMN = 'MissingSharedColumn';

interface Entry {
  readonly data: arrow.Data[];
  lastTask: number;
}

/** Rebuilt table columns by column id, across the tasks of one worker. */
export class ColumnCache {
  private readonly entries = new Map<number, Entry>();
  private task = 0;

  constructor(private readonly keepTasks = COLUMN_CACHE_KEEP_TASKS) {}

  /**
   * Starts a task: drops the entries that the last `keepTasks` tasks did not use, then takes the
   * task's tables' columns (rebuilding those sent with their data). Throws an error named
   * `MISSING_COLUMN` when a column sent as its id only is not held.
   */
  beginTask(tables: Iterable<ShippedTable> = []): void {
    this.task++;
    for (const [id, e] of this.entries) if (this.task - e.lastTask > this.keepTasks) this.entries.delete(id);
    for (const t of tables) for (const [c, id] of Object.entries(t.ids ?? {})) this.columns(id, t.columns[Number(c)]);
  }

  /** The column with this id as Arrow Data per batch: rebuilt from `wire` when given, else the one held. */
  columns(id: number, wire: readonly WireData[] | undefined): arrow.Data[] {
    let e = this.entries.get(id);
    if (e === undefined || (wire !== undefined && e.data.length !== wire.length)) {
      if (wire === undefined) {
        const err = new Error(`shared column ${id} is not held by this worker`);
        err.name = MISSING_COLUMN;
        throw err;
      }
      const dicts = new Map<WireData, arrow.Vector>();
      e = { data: wire.map((w) => fromWireData(w, dicts)), lastTask: this.task };
      this.entries.set(id, e);
    }
    e.lastTask = this.task;
    return e.data;
  }

  /** Columns held now. */
  get size(): number {
    return this.entries.size;
  }
}

/**
 * The coordinator's record of the columns each worker holds (by the worker's serial number,
 * WorkerPool), kept by the same rule as `ColumnCache`: every task posted to a worker counts.
 */
export class SentColumns {
  private readonly workers = new Map<number, { tasks: number; last: Map<number, number> }>();

  constructor(private readonly keepTasks = COLUMN_CACHE_KEEP_TASKS) {}

  /** `tables` as posted to worker `serial` (its next task): the columns it holds travel as ids only. */
  strip(tables: Readonly<Record<string, ShippedTable>>, serial: number): Record<string, ShippedTable> {
    let w = this.workers.get(serial);
    if (w === undefined) { w = { tasks: 0, last: new Map() }; this.workers.set(serial, w); }
    const n = ++w.tasks;
    for (const [id, l] of w.last) if (n - l > this.keepTasks) w.last.delete(id);
    const out: Record<string, ShippedTable> = {};
    for (const [k, t] of Object.entries(tables)) {
      const columns: Record<number, readonly WireData[]> = { ...t.columns };
      for (const [c, id] of Object.entries(t.ids ?? {})) {
        if (w.last.has(id)) delete columns[Number(c)];
        w.last.set(id, n);
      }
      out[k] = { ...t, columns };
    }
    return out;
  }

  /**
   * Forgets what worker `serial` holds: after it answered MISSING_COLUMN (its next task carries
   * every column), or when it ended (WorkerPool's `onGone`: a replacement has a new serial).
   */
  forget(serial: number): void {
    this.workers.delete(serial);
  }

  /** Workers with a record (the ones tasks were posted to and that have not ended). */
  get size(): number {
    return this.workers.size;
  }
}

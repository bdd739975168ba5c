/**
 * A worker's decoded table columns, kept from one task to the next (docs/multi-core.md, "Data
 * movement").
 *
 * Decision: a shared table column carries an id that the coordinator gives it once per table
 * version and column (`SharedTables`), and a worker keeps the Arrow Data it rebuilt for that id.
 * Before, every task rebuilt every column of every batch (`fromWireData`), so the facts that
 * kernels cache per Arrow Data object — "every string of this column is one byte", which the
 * calling thread computes once per table — were computed again by every worker in every query:
 * ~10% of a TPC-H Q1 worker's CPU (the one-byte test over its half of two key columns, and the
 * rebuilding). The id names immutable shared memory, so a hit is always the same data.
 *
 * Decision: entries not used by the last `keepTasks` tasks are dropped, so a worker never holds
 * a dropped table version's shared memory for long (only until a few later tasks have run) and
 * the per-query tables of stage results do not pile up.
 */
import type * as arrow from 'apache-arrow';
import { fromWireData, type WireData } from '../exec/workers/wire.js';

/** Tasks an unused entry survives. */
export const COLUMN_CACHE_KEEP_TASKS = 8;

interface Entry {
  readonly data: arrow.Data[];
  /** Its number of batches (an id always names the same batches; checked all the same). */
  readonly length: number;
  lastTask: number;
}

/** Rebuilt table columns by column id, across the tasks of one worker. */
export class ColumnCache {
  private readonly entries = new Map<number, Entry>();
  private task = 0;

  constructor(private readonly keepTasks = COLUMN_CACHE_KEEP_TASKS) {}

  /** Starts a task: drops the entries that the last `keepTasks` tasks did not use. */
  beginTask(): void {
    this.task++;
    for (const [id, e] of this.entries) if (this.task - e.lastTask > this.keepTasks) this.entries.delete(id);
  }

  /** The column with this id as Arrow Data per batch: rebuilt from `wire` on first use, then kept. */
  columns(id: number, wire: readonly WireData[]): arrow.Data[] {
    let e = this.entries.get(id);
    if (e === undefined || e.length !== wire.length) {
      const dicts = new Map<WireData, arrow.Vector>();
      e = { data: wire.map((w) => fromWireData(w, dicts)), length: wire.length, lastTask: this.task };
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

/**
 * Cache-backed list state (Flink ML's ListStateWithCache): an append-only
 * list of rows or record batches an operator keeps across rounds — the
 * not-replayed data an iteration body reads every round, and the replayer's
 * round-0 copy of replayed data.
 *
 * Decision: batches stay in memory up to a byte budget; past it, the oldest
 * resident batches are written through the cache's spill area (src/cache
 * SpillArea: one Arrow IPC file per batch, checksummed) and read back when
 * iterated, so memory stays bounded and order is kept. A spill the disk
 * budget refuses keeps the batch in memory (state must never be lost, unlike
 * a MEMORY_AND_DISK cache block, which may be dropped). Rows added one by
 * one are gathered into batches of `batchSize` rows, of the schema given or
 * else of the first batch added (or inferred from the rows, as fromRows does). `snapshotState` returns
 * the rows (structured-cloneable) so operators can make the list part of
 * their checkpoint state.
 */
import type { RecordBatch } from 'apache-arrow';
import { batchBytes } from '../cache/instance.js';
import type { SpillArea, SpillFile } from '../cache/spill.js';
import { field, schemaOf, type Schema } from '../relnode/types.js';
import { sqlTypeOfArrow } from '../io/canonical.js';
import type { ListState, Row } from './stream/process.js';
import { batchOfRows, inferRowSchema, rowsOfBatch } from './stream/rows.js';

/** Where and how much a list state may keep. */
export interface ListStateOptions {
  /** Bytes of batches kept in memory before the oldest spill (default 64 MiB). */
  readonly memoryBudgetBytes?: number;
  /** The spill area (the environment's cache storage); without one nothing spills. */
  readonly spill?: SpillArea;
  /** Rows per batch for rows added one at a time (default 1024). */
  readonly batchSize?: number;
  /** Distinguishes the spill files of this state (instance number of the spill area). */
  readonly spillInstance?: number;
}

type Slot = { batch: RecordBatch; bytes: number } | { file: SpillFile; rows: number };

let nextStateId = 0;

/** A ListState over record batches, memory first, spilling through the cache's spill area. */
export class CachedListState implements ListState {
  private readonly slots: Slot[] = [];
  private pendingRows: Row[] = [];
  private resident = 0;
  /** Index of the oldest slot that may still be in memory. */
  private firstResident = 0;
  private count = 0;
  private readonly id = nextStateId++;
  private spills = 0;
  private readonly budget: number;
  private readonly batchSize: number;

  constructor(private schema: Schema | undefined, private readonly options: ListStateOptions = {}) {
    this.budget = options.memoryBudgetBytes ?? 64 * 1024 * 1024;
    this.batchSize = options.batchSize ?? 1024;
  }

  get size(): number {
    return this.count;
  }

  /** Bytes of batches held in memory now. */
  get residentBytes(): number {
    return this.resident;
  }

  /** Number of batches written to disk so far. */
  get spilledBatches(): number {
    return this.slots.filter((s) => 'file' in s).length;
  }

  add(row: Row): void {
    this.pendingRows.push(row);
    this.count++;
    if (this.pendingRows.length >= this.batchSize) this.flushRows();
  }

  addBatch(batch: RecordBatch): void {
    if (batch.numRows === 0) return;
    this.flushRows();
    this.schema ??= schemaOfArrow(batch);
    this.count += batch.numRows;
    this.push(batch);
  }

  *batches(): Iterable<RecordBatch> {
    this.flushRows();
    const spill = this.options.spill;
    for (const s of this.slots) yield 'batch' in s ? s.batch : spill!.read(s.file);
  }

  *rows(): Iterable<Row> {
    for (const b of this.batches()) yield* rowsOfBatch(b, this.schema!.fields.map((f) => f.name));
  }

  clear(): void {
    const spill = this.options.spill;
    for (const s of this.slots) if ('file' in s) spill!.removeSync(s.file);
    this.slots.length = 0;
    this.pendingRows = [];
    this.resident = 0;
    this.firstResident = 0;
    this.count = 0;
  }

  /** The rows, for a checkpoint (structured-cloneable). */
  snapshotState(): Row[] {
    return [...this.rows()];
  }

  restoreState(rows: readonly Row[]): void {
    this.clear();
    for (const r of rows) this.add(r);
  }

  private flushRows(): void {
    if (this.pendingRows.length === 0) return;
    const schema = this.schema ??= inferRowSchema(this.pendingRows, 'list state');
    const rows = this.pendingRows;
    this.pendingRows = [];
    this.push(batchOfRows(rows, schema, 'list state: an added row'));
  }

  private push(batch: RecordBatch): void {
    const bytes = batchBytes(batch);
    this.slots.push({ batch, bytes });
    this.resident += bytes;
    const spill = this.options.spill;
    if (spill === undefined) return;
    while (this.resident > this.budget && this.firstResident < this.slots.length) {
      const s = this.slots[this.firstResident]!;
      if ('batch' in s) {
        const f = spill.write(this.options.spillInstance ?? 0, `list-state-${this.id}-${this.spills++}`, s.batch);
        if (typeof f === 'string') return; // the disk budget refused it: keep it in memory
        this.slots[this.firstResident] = { file: f, rows: s.batch.numRows };
        this.resident -= s.bytes;
      }
      this.firstResident++;
    }
  }
}

/**
 * The list-state provider of a stream environment: one CachedListState per
 * (operator instance, name), spilling through the cache service's spill area
 * when the environment has one.
 */
export function cachedListStateProvider(spill: SpillArea | undefined, options: Omit<ListStateOptions, 'spill'> = {}): (subtaskIndex: number, name: string, operator: string) => CachedListState {
  return (subtaskIndex) => new CachedListState(undefined, { ...options, ...(spill !== undefined ? { spill } : {}), spillInstance: 1000 + subtaskIndex });
}

/** The engine schema of a batch (its columns' SQL types). */
function schemaOfArrow(batch: RecordBatch): Schema {
  return schemaOf(batch.schema.fields.map((f) => field(f.name, sqlTypeOfArrow(f.type) ?? 'VARCHAR', true)));
}

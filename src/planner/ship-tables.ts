/**
 * Table data for worker threads: what a stage task carries, and the table sources a worker
 * scans (docs/multi-core.md).
 *
 * Decision: a table crosses as its columns in SharedArrayBuffers (converted once per table
 * version and column, on first use, and reused by every later query and every worker — see
 * `SharedTables`); a worker reads them in place. The table itself then reads the shared copy
 * (io/memory.ts `StoredBatches.adopt`), so a shipped column is held once, not twice. The scan that a stage distributes reads
 * morsels — row ranges of the table's batches — dealt round-robin: worker i of W reads morsels
 * i, i + W, i + 2W, … and no coordinator message is needed per morsel.
 *
 * Decision: a fixed deal, not a shared claim counter. With a counter a fast worker takes more
 * morsels, but which rows a worker adds then depends on timing, and a DOUBLE sum depends on
 * the order of its additions: the same query gave different last bits run to run, and TPC-H
 * Q15 (`total_revenue = (SELECT max(total_revenue) …)` over a view computed twice) lost its
 * answer when its two computations split lineitem differently. With ~16 morsels per worker a
 * fixed deal costs little balance; results at a given parallelism are now reproducible.
 * The shared state's second slot is the stage's cancel flag, checked before every morsel.
 */
import type { RecordBatch } from 'apache-arrow';
import * as arrow from 'apache-arrow';
import { clusteredOrder } from './ship-sorted.js';
import { CancelledError } from '../relnode/errors.js';
import type { Schema } from '../relnode/types.js';
import type { ScanOptions, TableSource } from '../io/source.js';
import { sliceData } from '../io/canonical.js';
import { toWireData, type WireData } from '../exec/workers/wire.js';
import { coResidentColumns, shareData } from '../exec/workers/shared-data.js';
import { storedBatches } from '../io/memory.js';
import { fixedStatistics, type ColumnStatistics } from '../io/stats.js';
import { rangesAtKeyChanges } from './ship-sorted.js';
import { clusteredSegments, type Segment } from './ship-clustered.js';
import type { ColumnCache } from './ship-column-cache.js';
import { ShippedColumns, scanShipped } from './ship-table-scan.js';

/** The last shared column id given out (ids are unique in the process). */
let lastColumnId = 0;

/** A table as a task carries it: its schema, batch lengths, and the shipped columns of every batch. */
export interface ShippedTable {
  readonly schema: Schema;
  readonly lengths: readonly number[];
  /**
   * Table ordinal → that column's data per batch (only the columns the stage reads; a column the
   * worker already holds may travel as its id only: ship-column-cache.ts).
   */
  readonly columns: Readonly<Record<number, readonly WireData[]>>;
  /** Table ordinal → the shared column's id (one per table version and column): a worker keeps its rebuilt Data by it (ship-column-cache.ts). */
  readonly ids?: Readonly<Record<number, number>>;
  /**
   * The coordinator's statistics of the shipped columns: a worker's estimates — and so its
   * build sides — are the ones the calling thread would choose.
   */
  readonly stats?: { readonly rowCount: number; readonly columns: Readonly<Record<number, ColumnStatistics>> };
}

/** The morsels of the distributed scan: [batch, start, end] triples, this worker's share of them, and the shared cancel flag. */
export interface Morsels {
  readonly key: string;
  readonly ranges: Int32Array;
  /** This worker reads morsels `worker`, `worker + workers`, … */
  readonly worker: number;
  readonly workers: number;
  /**
   * A partitioned stage (ship-stages.ts): the worker reads every morsel, keeping the rows whose value
   * in this table column hashes to `worker` (exec/partition.ts's hash, modulo `workers`), in table order.
   */
  readonly byKey?: number;
  /** [unused, cancelled] in a SharedArrayBuffer. */
  readonly state: Int32Array;
}

/** Rows per morsel: small enough for every worker to get several, at most 64k rows. */
export function morselRows(totalRows: number, workers: number): number {
  return Math.max(1024, Math.min(65536, Math.ceil(totalRows / (workers * 16))));
}

/**
 * The morsel ranges of a table with these batch lengths: each batch cut into the fewest pieces of
 * at most `rows` rows, all of about the same size. (Cutting `rows`-row pieces and a remainder
 * made the round-robin deal lopsided: TPC-H orders' 65,536-row batches at 46,875-row morsels gave
 * worker 0 every full piece and worker 1 every remainder, 2.5× fewer rows.)
 */
export function morselRanges(lengths: readonly number[], rows: number): Int32Array {
  const out: number[] = [];
  lengths.forEach((n, b) => {
    const k = Math.max(1, Math.ceil(n / rows));
    for (let i = 0; i < k; i++) {
      const start = Math.floor((i * n) / k);
      const end = Math.floor(((i + 1) * n) / k);
      if (end > start) out.push(b, start, end);
    }
  });
  return Int32Array.from(out);
}

/** Bytes copied into shared memory between two turns of the event loop (`SharedTables.share`). */
const SHARE_YIELD_BYTES = 32 << 20;

/** What SharedTables keeps of a source: batch lengths, the shared columns, sortedness tests. */
interface SharedEntry {
  readonly lengths: number[];
  readonly columns: Map<number, { id: number; wire: WireData[] }>;
  readonly sorted: Map<number, Segment[] | null>;
}

/**
 * The coordinator's shared copies of in-memory tables: per source object (one per table version)
 * the ids and wire form of its batches' columns in SharedArrayBuffers, made on first use. Weakly
 * held: a dropped table version releases its copy.
 *
 * Decision: the table then reads the shared copy itself (io/memory.ts `StoredBatches.adopt`), and
 * nothing here keeps the table's batches or Data objects, so a shipped column exists once in
 * memory, not twice (the original's buffers are freed unless the caller holds them); a column
 * already in shared memory is not copied at all, and its share step allocates nothing (no
 * report to V8). At parallelism > 1 the TPC-H generator and Arrow IPC files build tables
 * there from the start (io/column-memory.ts), so only an Arrow table the caller passed in, query
 * results and the CSV / Parquet / JSON readers' tables still take the copy path.
 */
export class SharedTables {
  private readonly tables = new WeakMap<TableSource, SharedEntry>();

  /**
   * Per worker, contiguous morsels of a shipped table cut where `column` changes value, when that
   * column is sorted in table order or in the order of its batches' first keys (ship-sorted.ts,
   * ship-clustered.ts; the test is cached per table version and column), else undefined. `ship` must have been called for the source first.
   */
  sortedRanges(source: TableSource, column: number, workers: number, rows: number): Int32Array[] | undefined {
    const t = this.tables.get(source);
    if (t === undefined) return undefined;
    return this.cut(source, `sorted ${column} ${workers} ${rows}`, [], () => {
      const cols = memoryBatches(source).map((b) => b.data.children[column]!);
      let segs = t.sorted.get(column);
      if (segs === undefined) { segs = clusteredSegments(cols) ?? null; t.sorted.set(column, segs); }
      if (segs === null) return undefined;
      const sg = segs;
      // Ranges over the pieces in key order (ship-clustered.ts), mapped back to [batch, start, end] of the table.
      return rangesAtKeyChanges(sg.map((x) => sliceData(cols[x.batch]!, x.start, x.end - x.start)), workers, rows).map((r) => {
        for (let i = 0; i < r.length; i += 3) { const x = sg[r[i]!]!; r[i] = x.batch; r[i + 1] = x.start + r[i + 1]!; r[i + 2] = x.start + r[i + 2]!; }
        return r;
      });
    });
  }

  /**
   * Cut points kept per table version (`source`, and the `others` it was cut with) and `key`:
   * `make()` the first time, the same value after. A cut depends on the data and the number of
   * workers only (ship-sorted.ts), and a table version's data never changes (adopting shared
   * copies keeps the values), so each query of a stage need not read every batch of the table
   * again: that pass (`memoryBatches` builds a RecordBatch per stored batch) was ~230 KB of the
   * calling thread's ~1.75 MB of JS allocation per TPC-H Q3 run at parallelism 2, and it runs
   * before the stage's tasks are posted. Callers must not change the arrays they get.
   */
  cut<T>(source: TableSource, key: string, others: readonly TableSource[], make: () => T): T {
    let byKey = this.cuts.get(source);
    if (byKey === undefined) { byKey = new Map(); this.cuts.set(source, byKey); }
    const hit = byKey.get(key);
    if (hit !== undefined && hit.others.length === others.length && hit.others.every((o, i) => o.deref() === others[i])) return hit.value as T;
    const value = make();
    byKey.set(key, { others: others.map((o) => new WeakRef(o)), value });
    return value;
  }

  /** The kept cuts (`cut`): per table version, by key; the other tables they depend on weakly held. */
  private readonly cuts = new WeakMap<TableSource, Map<string, { others: WeakRef<TableSource>[]; value: unknown }>>();

  private entry(source: TableSource): SharedEntry {
    let t = this.tables.get(source);
    if (t === undefined) {
      t = { lengths: memoryBatches(source).map((b) => b.numRows), columns: new Map(), sorted: new Map() };
      this.tables.set(source, t);
    }
    return t;
  }

  private keep(t: SharedEntry, wires: ReadonlyMap<number, WireData[]>): void {
    for (const [c, wire] of wires) if (!t.columns.has(c)) t.columns.set(c, { id: ++lastColumnId, wire });
  }

  /** The sharing of each source in progress (`share`): a second one waits for it. */
  private readonly pending = new WeakMap<TableSource, Promise<void>>();

  /**
   * Copies the `columns` of `source` not shared yet into shared memory ahead of `ship`; after
   * every SHARE_YIELD_BYTES copied it lets the event loop turn, so a garbage collection (which
   * the copy's shared buffers prompt: shared-data.ts `newSharedBuffer`) frees the originals
   * while the copy goes on. Stops between batches when `signal` aborts (what was copied stays
   * shared).
   */
  async share(source: TableSource, columns: readonly number[], signal?: AbortSignal): Promise<void> {
    for (let prev = this.pending.get(source); prev !== undefined; prev = this.pending.get(source)) await prev.catch(() => undefined);
    const t = this.entry(source);
    const missing = [...new Set(columns)].filter((c) => !t.columns.has(c));
    if (missing.length === 0) return;
    const run = async (): Promise<void> => {
      const wires = new Map<number, WireData[]>();
      let bytes = 0;
      for (const n of shareSteps(source, missing, wires)) {
        bytes += n;
        if (bytes < SHARE_YIELD_BYTES) continue;
        bytes = 0;
        await new Promise((r) => setImmediate(r));
        if (signal?.aborted) throw new CancelledError(`sharing ${source.description} with the workers was cancelled`);
      }
      this.keep(t, wires);
    };
    const p = run();
    this.pending.set(source, p);
    try { await p; } finally { if (this.pending.get(source) === p) this.pending.delete(source); }
  }

  /**
   * The table with (at least) `columns` shared. `source` must be an in-memory source; a column
   * shared here for the first time is copied into shared memory and the source reads the copy
   * from then on (see the class comment).
   */
  ship(source: TableSource, columns: readonly number[], withStats = true): ShippedTable {
    const t = this.entry(source);
    const missing = [...new Set(columns)].filter((c) => !t.columns.has(c));
    if (missing.length > 0) {
      const wires = new Map<number, WireData[]>();
      for (const _ of shareSteps(source, missing, wires)) { /* every batch at once */ }
      this.keep(t, wires);
    }
    const out: Record<number, readonly WireData[]> = {};
    const ids: Record<number, number> = {};
    for (const c of columns) {
      const col = t.columns.get(c)!;
      out[c] = col.wire;
      ids[c] = col.id;
    }
    const st = withStats ? source.statistics?.() : undefined;
    const stats = st === undefined ? undefined : { rowCount: st.rowCount, columns: Object.fromEntries(columns.map((c) => [c, st.column(c)])) };
    return { schema: source.schema, lengths: t.lengths, columns: out, ids, ...(stats ? { stats } : {}) };
  }

  /** Per source and column: the batch order of a clustered column (null: not clustered). Only the order: Data objects are read from the source, which may have adopted shared copies since. */
  private readonly clustered = new WeakMap<TableSource, Map<number, number[] | null>>();

  /**
   * The column's data per batch (the batches `ship` shares, in the same order) and the batches in
   * key order when the column is clustered (ship-sorted.ts `clusteredOrder`; the test is cached
   * per table version and column), else undefined. `source` must be an in-memory source.
   */
  clusteredColumn(source: TableSource, column: number): { cols: arrow.Data[]; order: number[] } | undefined {
    const order = this.clusteredOrderOf(source, column);
    return order === undefined ? undefined : { cols: memoryBatches(source).map((b) => b.data.children[column]!), order };
  }

  /**
   * Whether the column is clustered (`clusteredColumn` is defined), without reading the table's
   * batches once the test has run (the planner asks per candidate stage and join, every query).
   */
  isClustered(source: TableSource, column: number): boolean {
    return this.clusteredOrderOf(source, column) !== undefined;
  }

  private clusteredOrderOf(source: TableSource, column: number): number[] | undefined {
    let byColumn = this.clustered.get(source);
    if (byColumn === undefined) { byColumn = new Map(); this.clustered.set(source, byColumn); }
    let order = byColumn.get(column);
    if (order === undefined) {
      order = clusteredOrder(memoryBatches(source).map((b) => b.data.children[column]!)) ?? null;
      byColumn.set(column, order);
    }
    return order ?? undefined;
  }
}

/**
 * Copies `columns` of an in-memory source into shared memory, and the source reads the copies
 * from then on (io/memory.ts `StoredBatches.adopt`); fills `out` with each column's wire form per batch.
 * Batch by batch, with the columns that share an ArrayBuffer with them (shared-data.ts
 * `coResidentColumns`: an Arrow IPC batch's body), so each original can go as soon as its batch
 * is done; yields the bytes copied after each batch (`SharedTables.share` lets the garbage
 * collector run between batches). A column already in shared memory is not copied. A column
 * that cannot cross (NotShippableError) fails before anything is copied.
 */
function* shareSteps(source: TableSource, columns: readonly number[], out: Map<number, WireData[]>): Generator<number, void> {
  const stored = storedBatches(source);
  if (stored.count > 0) for (const c of columns) toWireData(stored.batch(0).data.children[c]!);
  for (let i = 0; i < stored.count; i++) {
    const b = stored.batch(i);
    const copies = new Map<number, arrow.Data>();
    let bytes = 0;
    for (const c of coResidentColumns(b, columns)) {
      const d = b.data.children[c]!;
      const s = shareData(d);
      if (s !== d) { copies.set(c, s); bytes += ownBytes(s); }
    }
    if (copies.size > 0) stored.adopt(i, copies);
    yield bytes;
  }
  // In the order ship() sends batches (memoryBatches), now over the shared copies.
  const batches = memoryBatches(source);
  const dicts = new Map<unknown, WireData>();
  for (const c of columns) out.set(c, batches.map((b) => toWireData(b.data.children[c]!, dicts, true)));
}

/** Bytes of a column's own buffers (not its dictionary's). */
function ownBytes(d: arrow.Data): number {
  return (d.values?.byteLength ?? 0) + (d.valueOffsets?.byteLength ?? 0) + (d.nullBitmap?.byteLength ?? 0);
}

/** Every batch of an in-memory source, whole (its partitions interleave batches; order is restored). */
function memoryBatches(source: TableSource): RecordBatch[] {
  const parts: RecordBatch[][] = [];
  // A batch size no stored batch exceeds (the source splits only batches over 4× the batch size; `| 0` bounds it to 2^31).
  for (let p = 0; p < source.partitions; p++) parts.push([...(source.scan({ partition: p, batchSize: 2 ** 30 }) as Iterable<RecordBatch>)]);
  const total = parts.reduce((n, x) => n + x.length, 0);
  const out: RecordBatch[] = [];
  for (let i = 0; out.length < total; i++) for (const x of parts) if (i < x.length) out.push(x[i]!);
  return out;
}

/**
 * A worker's source over a shipped table: all of it, or — with `morsels` — the morsels this
 * worker claims. One partition (a worker runs its share at parallelism 1). With `kept`, columns
 * that carry an id are rebuilt once per worker, not once per task (ship-column-cache.ts).
 */
export function shippedSource(t: ShippedTable, description: string, morsels?: Morsels, kept?: ColumnCache): TableSource {
  const column = new ShippedColumns(t, description, kept);
  return {
    schema: t.schema,
    description,
    partitions: 1,
    numRows: t.lengths.reduce((a, b) => a + b, 0),
    ...(t.stats ? { statistics: () => fixedStatistics(t.stats!.rowCount, t.schema.fields.map((_, i) => t.stats!.columns[i] ?? {})) } : {}),
    scan: (options: ScanOptions): Iterable<RecordBatch> => scanShipped(column, description, options, morsels),
  };
}


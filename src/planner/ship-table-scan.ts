/**
 * A worker's scan of a shipped table (ship-tables.ts shippedSource): its columns rebuilt from their wire form
 * on first use, its batches (or this worker's morsels of them), split to the batch size.
 *
 * Why functions of the module and a class, not closures and a generator made per source: a worker makes a
 * source per query, and a closure's optimized code lives only as long as its feedback; bench/deopt-runs.ts
 * counted the per-source `batchOf` and its `.map` callback among the first TurboFan compiles of TPC-H Q3's
 * timed runs, in both isolates, and the per-source `scan` generator (resumed per batch, so it got hot, and
 * compiled with everything it calls inlined: 15–20 KB, 90–150 ms) in Q6's and Q18's. Its setup read the
 * scan options, whose shape differs from query to query: a "wrong map" deopt, then that compile again. The
 * setup now runs once per scan in a plain function (`scanShipped`), and the generators read one shape of
 * state. One ShippedColumns and one ScanState are anchored (exec/map-anchors.ts) so optimized code keeps their maps across major GCs.
 */
import type { RecordBatch } from 'apache-arrow';
import * as arrow from 'apache-arrow';
import { makeBatch } from '../io/columns.js';
import { batchesOfSize, sliceBatch } from '../io/canonical.js';
import type { ScanOptions } from '../io/source.js';
import { CancelledError } from '../relnode/errors.js';
import { takeBatch } from '../exec/batch.js';
import { hashRows } from '../exec/partition.js';
import { anchorMaps } from '../exec/map-anchors.js';
import { fromWireData, type WireData } from '../exec/workers/wire.js';
import type { ColumnCache } from './ship-column-cache.js';
import type { Morsels, ShippedTable } from './ship-tables.js';

/** The columns of a shipped table, each rebuilt from its wire form on first use (per batch: its Data). */
export class ShippedColumns {
  private readonly dicts = new Map<WireData, arrow.Vector>();
  private readonly cache = new Map<number, arrow.Data[]>();

  constructor(readonly table: ShippedTable, private readonly description: string, private readonly kept: ColumnCache | undefined) {}

  /** Column `c`, one Data per batch. */
  of(c: number): arrow.Data[] {
    let d = this.cache.get(c);
    if (d === undefined) {
      const t = this.table;
      const w = t.columns[c];
      const id = t.ids?.[c];
      if (this.kept !== undefined && id !== undefined) d = this.kept.columns(id, w);
      else if (w === undefined) throw new Error(`internal error: column ${c} of ${this.description} was not shipped`);
      else d = w.map((x) => fromWireData(x, this.dicts));
      this.cache.set(c, d);
    }
    return d;
  }
}

/** Batch `b` of the shipped table, columns `cols` (in that order), with `schema`. */
export function shippedBatch(columns: ShippedColumns, cols: readonly number[], schema: arrow.Schema, b: number): RecordBatch {
  const data: arrow.Data[] = [];
  for (let i = 0; i < cols.length; i++) data.push(columns.of(cols[i]!)[b]!);
  return makeBatch(schema, data, columns.table.lengths[b]!);
}

/** What one scan reads, set up once per scan. */
class ScanState {
  constructor(
    readonly columns: ShippedColumns,
    readonly description: string,
    /** Table ordinals of the scanned columns, in output order. */
    readonly cols: readonly number[],
    readonly schema: arrow.Schema,
    /** Rows per output batch (a longer batch is split when over SPLIT_FACTOR times this: io/canonical.ts batchesOfSize). */
    readonly size: number,
    readonly signal: AbortSignal | undefined,
  ) {}
}

/** The batches of one scan of a shipped table: all of it, or with `morsels` this worker's morsels of it. */
export function scanShipped(columns: ShippedColumns, description: string, options: ScanOptions, morsels: Morsels | undefined): Iterable<RecordBatch> {
  const t = columns.table;
  const cols = options.columns ?? t.schema.fields.map((_, i) => i);
  const schema = new arrow.Schema(cols.map((c) => { const d = columns.of(c)[0]; const f = t.schema.fields[c]!; return new arrow.Field(f.name, d?.type ?? new arrow.Null(), f.nullable); }));
  const s = new ScanState(columns, description, cols, schema, Math.max(1, options.batchSize | 0), options.signal);
  if (morsels === undefined) return wholeBatches(s);
  const byKey = morsels.byKey;
  if (byKey === undefined) return morselBatches(s, morsels);
  return keyedMorselBatches(s, morsels, byKey, new arrow.Schema([new arrow.Field('k', columns.of(byKey)[0]?.type ?? new arrow.Null(), true)]));
}

function cancelled(s: ScanState): CancelledError {
  return new CancelledError(`scan of ${s.description} cancelled`);
}

/** Every batch of the table. */
function* wholeBatches(s: ScanState): Generator<RecordBatch, void, undefined> {
  const n = s.columns.table.lengths.length;
  for (let b = 0; b < n; b++) {
    if (s.signal?.aborted) throw cancelled(s);
    yield* batchesOfSize(shippedBatch(s.columns, s.cols, s.schema, b), s.size);
  }
}

/** Morsels `worker`, `worker + workers`, … of the table. */
function* morselBatches(s: ScanState, morsels: Morsels): Generator<RecordBatch, void, undefined> {
  const n = morsels.ranges.length / 3;
  for (let m = morsels.worker; m < n; m += morsels.workers) {
    if (Atomics.load(morsels.state, 1) !== 0 || s.signal?.aborted) throw cancelled(s);
    yield* batchesOfSize(morselOf(s, morsels, m), s.size);
  }
}

/** Every morsel, keeping the rows whose column `byKey` hashes to this worker (a partitioned stage). */
function* keyedMorselBatches(s: ScanState, morsels: Morsels, byKey: number, keySchema: arrow.Schema): Generator<RecordBatch, void, undefined> {
  const n = morsels.ranges.length / 3;
  for (let m = 0; m < n; m++) {
    if (Atomics.load(morsels.state, 1) !== 0 || s.signal?.aborted) throw cancelled(s);
    const part = morselOf(s, morsels, m);
    const b = morsels.ranges[3 * m]!;
    const start = morsels.ranges[3 * m + 1]!;
    const end = morsels.ranges[3 * m + 2]!;
    const keys = makeBatch(keySchema, [s.columns.of(byKey)[b]!], s.columns.table.lengths[b]!);
    const mine = rowsHashingTo(start === 0 && end === keys.numRows ? keys : sliceBatch(keys, start, end), morsels.worker, morsels.workers);
    if (mine.length === 0) continue;
    yield* batchesOfSize(mine.length === part.numRows ? part : takeBatch(part, mine), s.size);
  }
}

/** The rows of morsel `m`: a range of one batch. */
function morselOf(s: ScanState, morsels: Morsels, m: number): RecordBatch {
  const b = morsels.ranges[3 * m]!;
  const start = morsels.ranges[3 * m + 1]!;
  const end = morsels.ranges[3 * m + 2]!;
  const whole = shippedBatch(s.columns, s.cols, s.schema, b);
  return start === 0 && end === whole.numRows ? whole : sliceBatch(whole, start, end);
}

/**
 * The rows of a one-column batch whose value's hash (exec/partition.ts) picks part `p` of `n`:
 * part ⌊(hash >>> 16) · n / 2^16⌋ (integer arithmetic; `hash % n` on the unsigned 32-bit hashes is
 * a floating-point remainder, and was three quarters of the partitioned scan's time).
 */
export function rowsHashingTo(keys: RecordBatch, p: number, n: number): Int32Array {
  const h = hashRows(keys, [0]);
  const out = new Int32Array(h.length);
  let j = 0;
  for (let i = 0; i < h.length; i++) if ((((h[i]! >>> 16) * n) >>> 16) === p) out[j++] = i;
  return out.subarray(0, j);
}

// Keep the maps of ShippedColumns and ScanState across major GCs (see the header): instances over an empty table.
const anchorColumns = new ShippedColumns({ schema: { fields: [] } as unknown as ShippedTable['schema'], lengths: [], columns: {} }, '', undefined);
anchorMaps(anchorColumns, new ScanState(anchorColumns, '', [], new arrow.Schema([]), 1, undefined));

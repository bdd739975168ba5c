/**
 * Sort (ORDER BY) with optional OFFSET/FETCH (top-k). Per epoch: rows are
 * buffered and, when the epoch's watermark passes (or at finish), sorted by
 * an Int32Array permutation with a comparator specialized per key type
 * (sort-keys.ts) in bounded steps (sort-steps.ts), then emitted in batches ≤
 * stepRows (runtime/step-budget.ts), one per step. The sort is stable.
 *
 * Top-k (fetch set): only offset + fetch = k rows are kept. Instead of a
 * per-row heap, the buffer is compacted in bulk: once it holds more than
 * max(2k, 4096) rows it is sorted and cut to its first k rows, and the k-th
 * row's first key becomes a threshold that drops incoming rows whose first key
 * is strictly worse before they are buffered (numeric first keys). A batch
 * that would make the first compaction sort it whole gets that threshold by
 * selection instead (sort-threshold.ts: cached data comes in ~50k-row
 * batches). Memory
 * stays O(k + batch); work is O(n log k) amortized, vectorized per batch.
 */
import { Type, type RecordBatch } from 'apache-arrow';
import type { SortKey } from '../../relnode/rel.js';
import { takeBatch } from '../batch.js';
import { concatBatches } from '../batch-concat.js';
import { emitBounded, type Operator, type OperatorContext } from '../operator.js';
import { EpochStates } from './epoch-states.js';
import { sortPermutation } from './sort-keys.js';
import { sortSteps } from './sort-steps.js';
import { kthBestValue } from './sort-threshold.js';
import { countNotWorse, selectNotWorse, selectNotWorseMasked, type MaskedThreshold } from './sort-prefilter.js';
import { batchBytes } from '../memory.js';
import { stepRows } from '../runtime/step-budget.js';
import { packedMap } from '../packed.js';

/** Configuration of a sort (plain data). */
export interface SortConfig {
  readonly keys: readonly SortKey[];
  /** Keep only this many rows after `offset` (top-k); undefined = all. */
  readonly fetch?: number;
  readonly offset?: number;
}

/** The first key's boundary for top-k filtering: rows strictly worse cannot make the cut. */
interface Threshold { readonly value: number; readonly isNull: boolean }

interface EpochBuffer {
  batches: RecordBatch[];
  rows: number;
  threshold: Threshold | null;
}

/** Creates a sort operator instance. */
export function sort(config: SortConfig): Operator {
  return new SortOp(config);
}

class SortOp implements Operator {
  private ctx!: OperatorContext;
  private readonly epochs = new EpochStates<EpochBuffer>(() => ({ batches: [], rows: 0, threshold: null }));
  private readonly limit: number;
  private readonly offset: number;

  constructor(private readonly config: SortConfig) {
    this.offset = config.offset ?? 0;
    this.limit = config.fetch === undefined ? Infinity : this.offset + config.fetch;
  }

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
  }

  processBatch(_input: number, batch: RecordBatch, epoch: number): void {
    if (batch.numRows === 0 || this.limit === 0) return;
    const buf = this.epochs.get(epoch);
    // A batch that would be sorted whole by the first compaction sets the threshold by selection first.
    if (buf.threshold === null && this.limit !== Infinity && buf.rows + batch.numRows > Math.max(2 * this.limit, 4096)) buf.threshold = this.selectedThreshold(batch);
    const b = buf.threshold ? this.prefilter(batch, buf.threshold) : batch;
    if (b === null) return;
    // A top-k buffer is compacted to about 2k rows; a full sort holds every row.
    if (this.limit === Infinity) this.ctx.reserveMemory(batchBytes(b));
    buf.batches.push(b);
    buf.rows += b.numRows;
    if (this.limit !== Infinity && buf.rows > Math.max(2 * this.limit, 4096)) this.compact(buf);
  }

  /** Sorts the buffer and keeps its first `limit` rows. */
  private compact(buf: EpochBuffer): void {
    const all = concatBatches(buf.batches)!;
    const perm = this.permutation(all);
    const kept = takeBatch(all, perm, Math.min(this.limit, perm.length));
    buf.batches = [kept];
    buf.rows = kept.numRows;
    if (kept.numRows === this.limit) buf.threshold = this.thresholdOf(kept, kept.numRows - 1);
  }

  private permutation(b: RecordBatch): Int32Array {
    const cols = b.data.children;
    return sortPermutation(this.config.keys, packedMap(this.config.keys, (k) => cols[k.index]!), b.numRows);
  }

  /** The first key of row `r` as a number, when the first key is numeric (32-bit ints, dates, doubles). */
  private thresholdOf(b: RecordBatch, r: number): Threshold | null {
    const key = this.config.keys[0];
    if (key === undefined) return null;
    const d = b.data.children[key.index]!;
    if (!(d.values instanceof Int32Array || d.values instanceof Float64Array) || d.typeId === Type.Dictionary) return null;
    const bm = d.nullBitmap;
    const bit = d.offset + r;
    const isNull = d.nullCount > 0 && !!bm && ((bm[bit >> 3]! >> (bit & 7)) & 1) === 0;
    const value = d.values[r]!;
    if (value !== value) return null; // NaN boundary: no filter
    return { value, isNull };
  }

  /** The threshold the compaction of `b` alone would set, by quickselect (sort-threshold.ts), or null. */
  private selectedThreshold(b: RecordBatch): Threshold | null {
    const key = this.config.keys[0];
    if (key === undefined) return null;
    const value = kthBestValue(b.data.children[key.index]!, b.numRows, this.limit, key.desc);
    return value === null ? null : { value, isNull: false };
  }

  /**
   * Drops rows whose first key is strictly worse than the threshold; null when none is left. The
   * row loops are leaves in sort-prefilter.ts (why: its header); without NULLs the kept rows are
   * counted first, so the common batch that keeps none (or all) allocates nothing.
   */
  private prefilter(b: RecordBatch, t: Threshold): RecordBatch | null {
    const key = this.config.keys[0]!;
    const d = b.data.children[key.index]!;
    const v = d.values as unknown;
    if (!(v instanceof Int32Array || v instanceof Float64Array) || d.typeId === Type.Dictionary) return b;
    const n = b.numRows;
    let sel: Int32Array;
    let m: number;
    if (d.nullCount === 0 && !t.isNull) {
      m = countNotWorse(v, n, key.desc, t.value);
      if (m === 0) return null;
      if (m === n) return b;
      sel = new Int32Array(m);
      selectNotWorse(v, n, key.desc, t.value, sel);
    } else {
      sel = new Int32Array(n);
      const masked: MaskedThreshold = { desc: key.desc, nullsFirst: key.nullsFirst, value: t.value, isNull: t.isNull };
      m = selectNotWorseMasked(v, d.nullCount > 0 ? d.nullBitmap! : null, d.offset, n, masked, sel);
      if (m === n) return b;
      if (m === 0) return null;
    }
    return takeBatch(b, sel, m);
  }

  onEpochWatermarkIncremented(epoch: number): void {
    this.emitUpTo(epoch);
  }

  finish(): void {
    this.emitUpTo(Infinity);
  }

  /** Sorts and emits every epoch ≤ w in order: one epoch's sort, then one batch, per step. */
  private emitUpTo(w: number): void {
    this.epochs.drainUpTo(w, (buf, e) => this.emitSorted(buf, e));
  }

  private emitSorted(buf: EpochBuffer, epoch: number): void {
    let all: RecordBatch | null = null;
    let sorting: Generator<void, Int32Array, void> | undefined;
    let perm: Int32Array | undefined;
    let s = this.offset;
    let end = 0;
    const size = stepRows(this.ctx);
    // Steps: concatenate; sort in bounded pieces (sort-steps.ts); then one output batch per step
    // (all in one step when the rows fit one output batch).
    emitBounded(this.ctx, () => {
      if (sorting === undefined) {
        all = concatBatches(buf.batches);
        buf.batches = [];
        if (all === null) return false;
        const cols = all.data.children;
        sorting = sortSteps(this.config.keys, packedMap(this.config.keys, (k) => cols[k.index]!), all.numRows);
        // Rows no more than one output batch: sorting them is a bounded step too, so go on in this call
        // (a small query's ORDER BY then emits at once instead of over three scheduler steps).
        if (all.numRows > size) return true;
      }
      if (perm === undefined) {
        const r = sorting.next();
        if (!r.done) return true;
        perm = r.value;
        end = Math.min(perm.length, this.limit);
      }
      if (s >= end) return false;
      const e = Math.min(end, s + size);
      this.ctx.emit(takeBatch(all!, perm.subarray(s, e), e - s), epoch);
      s = e;
      return s < end;
    });
  }

  close(): void {
    this.epochs.clear();
  }
}

/**
 * The operators around a keyed iteration's store (keyed-store.ts): the
 * upserts of the initial rows and of each round's rows, and the reader of
 * `recurring.<name>`.
 *
 * Decision: kept apart from the store itself, which is a plain data
 * structure (also read in place by the fused pipelines, pipeline.ts).
 */
import type { RecordBatch } from 'apache-arrow';
import { sliceBatch, takeBatch } from '../../exec/batch.js';
import { concatBatches } from '../../exec/batch-concat.js';
import { END, emitBounded, type Operator, type OperatorContext } from '../../exec/operator.js';
import { EpochStates } from '../../exec/operators/epoch-states.js';
import { batchBytes } from '../../exec/memory.js';
import { KeyedStore, storeOf } from './keyed-store.js';
import { intSortKey, sortIdsByKey } from './int-order.js';

/** Writes rows into the store: the initial rows at their end, each round's rows at its watermark. */
export class KeyedUpsertOperator implements Operator {
  private ctx!: OperatorContext;
  private store!: KeyedStore;
  private readonly rounds = new EpochStates<RecordBatch[]>(() => []);

  /**
   * @param uniqueKeys the round's rows never repeat a key (they come from a GROUP BY of the keys):
   *   they are written as they are, without the per-round last-row-per-key pass
   */
  /**
   * @param keepMin the column whose minimum each key keeps (Iterate.keepMin): only rows that lower it are written,
   *   and only they go on to the next round
   */
  constructor(private readonly role: 'initial' | 'round', private readonly iterationId: number, private readonly variable: number, private readonly keys: readonly number[], private readonly uniqueKeys = false, private readonly keepMin?: number) {}

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
    this.store = storeOf(ctx, this.iterationId, this.variable, this.keys);
  }

  processBatch(_input: number, batch: RecordBatch, epoch: number): void {
    if (this.role === 'initial') {
      if (this.keepMin !== undefined) this.store.upsertMin(batch, this.keepMin);
      else this.store.upsert(batch);
      return;
    }
    this.ctx.reserveMemory(batchBytes(batch));
    this.rounds.get(epoch).push(batch);
  }

  onEpochWatermarkIncremented(w: number): void {
    this.rounds.drainUpTo(w, (batches, epoch) => {
      if (this.keepMin !== undefined) {
        // Rows in order against the store: each that lowers its key's value is written and goes on.
        for (const b of batches) {
          this.ctx.releaseMemory(batchBytes(b));
          const kept = this.store.upsertMin(b, this.keepMin);
          if (kept !== null) this.ctx.emit(kept, epoch);
        }
        return;
      }
      if (this.uniqueKeys) {
        for (const b of batches) { this.ctx.releaseMemory(batchBytes(b)); this.store.upsert(b); this.ctx.emit(b, epoch); }
        return;
      }
      // The round's rows, last per key, are both the store's update and the next round's working rows.
      const round = new KeyedStore(this.keys, this.ctx.outputSchema.fields.map((f) => f.type));
      for (const b of batches) { round.upsert(b); this.ctx.releaseMemory(batchBytes(b)); }
      const rows = round.snapshot();
      for (const b of rows) { this.store.upsert(b); this.ctx.emit(b, epoch); }
    });
  }

  finish(): void {
    // The initial rows went in as they came; the head gets them once each, deduplicated by key.
    // A keep-min variable's rows go smallest value first: the first round of in-place label updates then spreads
    // small labels first (int-order.ts); the order of a round's rows is free.
    if (this.role === 'initial') emitAll(this.ctx, this.keepMin !== undefined ? byValue(this.store.snapshot(), this.keepMin) : this.store.snapshot(), 0);
    this.rounds.clear(); // rows of the terminating round: not applied
  }

  close(): void {
    this.rounds.clear();
  }
}

/** The rows of `batches` ordered by INTEGER / DATE column `c`, smallest first, NULL last (as they are for other types). */
function byValue(batches: readonly RecordBatch[], c: number): readonly RecordBatch[] {
  const all = concatBatches(batches);
  if (all === null) return batches;
  const d = all.data.children[c]!;
  if (!(d.values instanceof Int32Array)) return batches;
  const n = all.numRows;
  const v = d.values;
  const bm = d.nullCount > 0 ? d.nullBitmap ?? null : null;
  const off = d.offset;
  const keys = new Uint32Array(n);
  for (let i = 0; i < n; i++) keys[i] = intSortKey(v[i]!, bm === null || ((bm[(off + i) >> 3]! >> ((off + i) & 7)) & 1) === 1);
  const ids = new Int32Array(n);
  for (let i = 0; i < n; i++) ids[i] = i;
  return [takeBatch(all, sortIdsByKey(ids, n, keys))];
}

/** Emits batches in bounded steps, at most about `batchSize` rows each. */
export function emitAll(ctx: OperatorContext, batches: readonly RecordBatch[], epoch: number): void {
  const size = Math.max(1, ctx.batchSize);
  const out = batches.flatMap((b) => (b.numRows <= size ? [b] : Array.from({ length: Math.ceil(b.numRows / size) }, (_, k) => sliceBatch(b, k * size, Math.min(b.numRows, (k + 1) * size)))));
  let i = 0;
  emitBounded(ctx, () => {
    if (i >= out.length) return false;
    ctx.emit(out[i++]!, epoch);
    return i < out.length;
  });
}

/**
 * FeedbackRef view `recurring`: the keyed table as the previous round left it. A
 * `manualWatermarks` operator on the first head's watermark-only output: when that
 * head releases round e, it emits the store with epoch e, then EW(e).
 */
export class RecurringOperator implements Operator {
  private ctx!: OperatorContext;
  private store!: KeyedStore;

  constructor(private readonly iterationId: number, private readonly variable: number, private readonly keys: readonly number[]) {}

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
    this.store = storeOf(ctx, this.iterationId, this.variable, this.keys);
  }

  processBatch(): void {}

  onInputWatermark(_input: number, watermark: number): void {
    if (watermark >= END) { this.ctx.emitWatermark(END); return; }
    emitAll(this.ctx, this.store.snapshot(), watermark);
    this.ctx.emitWatermark(watermark); // behind the pending rows
  }

  finish(): void {}
  close(): void {}
}

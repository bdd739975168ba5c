/**
 * The replayer of one replayed data stream: passes the data through in
 * round 0 (epoch 0) while caching it, then re-emits the cache with epoch e
 * for every round e ≥ 1 the first variable head releases
 * (ITERATION-SEMANTICS.md "Entry points").
 *
 * Decision: a `manualWatermarks` runtime operator with inputs
 * [0: the data, 1: the first head's watermark-only side output]. Round e is
 * replayed when that head's watermark reaches e — i.e. once the coordinator
 * decided that epoch e does not terminate — so the terminating round N is
 * never replayed, and the replayer's own EW(e) follows the replayed records,
 * so every body operator sees all of round e's data before its callback for
 * e. A replay is emitted one batch per scheduler step (bounded steps), from a
 * cache-backed list state (memory first, spilling through src/cache).
 */
import type { RecordBatch } from 'apache-arrow';
import { END, emitBounded, type Operator, type OperatorContext } from '../exec/operator.js';
import type { Schema } from '../relnode/types.js';
import { CachedListState, type ListStateOptions } from './list-state.js';

export const REPLAY_DATA = 0;
export const REPLAY_GATE = 1;

export class ReplayOperator implements Operator {
  private ctx!: OperatorContext;
  private cache!: CachedListState;
  private dataEnded = false;
  private gate = -1;
  /** The next round whose watermark this replayer has not emitted. */
  private next = 0;
  private ended = false;

  constructor(private readonly schema: Schema, private readonly cacheOptions: () => ListStateOptions = () => ({})) {}

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
    this.cache = new CachedListState(this.schema, { ...this.cacheOptions(), spillInstance: ctx.subtaskIndex });
  }

  processBatch(input: number, batch: RecordBatch): void {
    if (input !== REPLAY_DATA) return;
    this.cache.addBatch(batch);
    this.ctx.emit(batch, 0);
  }

  onInputWatermark(input: number, watermark: number): void {
    if (input === REPLAY_DATA) { if (watermark >= END) this.dataEnded = true; }
    else this.gate = watermark;
    this.advance();
  }

  private advance(): void {
    if (!this.dataEnded || this.ended) return;
    if (this.gate >= END) {
      this.ended = true;
      this.ctx.emitWatermark(END); // behind any replay still pending; the cache goes at close
      return;
    }
    if (this.next === 0) { this.ctx.emitWatermark(0); this.next = 1; }
    while (this.next <= this.gate) {
      const epoch = this.next++;
      const it = this.cache.batches()[Symbol.iterator]();
      emitBounded(this.ctx, () => {
        const r = it.next();
        if (r.done === true) return false;
        this.ctx.emit(r.value, epoch);
        return true;
      });
      this.ctx.emitWatermark(epoch); // behind the pending replay
    }
  }

  finish(): void {}
  close(): void { this.cache?.clear(); }

  /**
   * The cached data and the replay position (checkpoints). A cut is taken only
   * between scheduler steps with nothing pending, so a round is either fully
   * replayed or not started.
   */
  snapshotState(): unknown {
    return { batches: [...this.cache.batches()], dataEnded: this.dataEnded, gate: this.gate, next: this.next, ended: this.ended };
  }

  restoreState(state: unknown): void {
    const s = state as { batches: RecordBatch[]; dataEnded: boolean; gate: number; next: number; ended: boolean };
    this.cache.clear();
    for (const b of s.batches) this.cache.addBatch(b);
    ({ dataEnded: this.dataEnded, gate: this.gate, next: this.next, ended: this.ended } = s);
  }
}

/**
 * The tail of one variable stream: every feedback record and watermark goes
 * back to the head with epoch + 1 (ITERATION-SEMANTICS.md "Epochs": a record
 * written to feedback with epoch x arrives at the head with x + 1).
 *
 * Decision: a `manualWatermarks` runtime operator on the feedback stream,
 * connected to its head by a feedback edge (whose channels always queue).
 * Records of epoch END (emitted when the body terminated) go nowhere.
 */
import type { RecordBatch } from 'apache-arrow';
import { END, type Operator, type OperatorContext } from '../exec/operator.js';

export class TailOperator implements Operator {
  private ctx!: OperatorContext;
  open(ctx: OperatorContext): void { this.ctx = ctx; }
  processBatch(_input: number, batch: RecordBatch, epoch: number): void {
    if (epoch < END) this.ctx.emit(batch, epoch + 1);
  }
  onInputWatermark(_input: number, watermark: number): void {
    this.ctx.emitWatermark(watermark >= END ? END : watermark + 1);
  }
  finish(): void {}
  close(): void {}
  /** Stateless: a checkpoint holds nothing for a tail (its records in flight are in the feedback channel). */
  snapshotState(): undefined { return undefined; }
}

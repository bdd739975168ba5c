/**
 * TerminateOnMaxIter(n): a termination criteria that keeps an iteration
 * going for n rounds (ITERATION-SEMANTICS.md "Helper functions").
 *
 * Decision: a user operator (process.ts) emitting one record in
 * `onEpochWatermarkIncremented(w)` iff w + 1 < n, whatever its input: used as
 * the criteria, the iteration makes callbacks for w = 0..n−1 and terminates
 * at epoch n. Only the record's existence counts (criteria-record.ts).
 */
import type { RecordBatch } from 'apache-arrow';
import type { Collector, ProcessContext, ProcessOperator } from '../stream/process.js';
import { CriteriaRecord } from './criteria-record.js';

export class TerminateOnMaxIter implements ProcessOperator {
  /** @param maxIter the number of rounds (≥ 1) */
  constructor(readonly maxIter: number) {
    if (!Number.isInteger(maxIter) || maxIter < 1) throw new RangeError(`TerminateOnMaxIter needs a whole number of rounds ≥ 1, got ${maxIter}`);
  }
  private readonly record = new CriteriaRecord();
  processBatch(batch: RecordBatch): void {
    this.record.see(batch);
  }
  onEpochWatermarkIncremented(epoch: number, _ctx: ProcessContext, out: Collector): void {
    if (epoch + 1 < this.maxIter) this.record.emit(out);
  }
  onIterationTerminated(): void {}
}

/**
 * TerminateOnMaxIter(n): a termination criteria that keeps an iteration
 * going for n rounds (ITERATION-SEMANTICS.md "Helper functions").
 *
 * Decision: a user operator (process.ts) emitting one record in
 * `onEpochWatermarkIncremented(w)` iff w + 1 < n, whatever its input: used as
 * the criteria, the iteration makes callbacks for w = 0..n−1 and terminates
 * at epoch n. The record is an empty row (every column null): only its
 * existence counts.
 */
import type { Collector, ProcessContext, ProcessOperator, Row } from '../stream/process.js';

export class TerminateOnMaxIter implements ProcessOperator {
  /** @param maxIter the number of rounds (≥ 1) */
  constructor(readonly maxIter: number) {
    if (!Number.isInteger(maxIter) || maxIter < 1) throw new RangeError(`TerminateOnMaxIter needs a whole number of rounds ≥ 1, got ${maxIter}`);
  }
  processElement(_row: Row, _ctx: ProcessContext, _out: Collector): void {}
  onEpochWatermarkIncremented(epoch: number, _ctx: ProcessContext, out: Collector): void {
    if (epoch + 1 < this.maxIter) out.collect(Object.create(null) as Row);
  }
  onIterationTerminated(): void {}
}

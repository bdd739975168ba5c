/**
 * TerminateOnMaxIterOrTol(n, tol): a termination criteria fed one loss value
 * per round (ITERATION-SEMANTICS.md "Helper functions").
 *
 * Decision: the loss is the first column of the input (any numeric type);
 * the operator emits in `onEpochWatermarkIncremented(w)` iff w + 1 < n and
 * the loss of round w is above tol; a second loss in one round (at one
 * subtask) is an error naming the round. A round without a loss keeps
 * iterating — at parallelism 1. At parallelism > 1 the round's loss reaches
 * one subtask, and a subtask that received no loss does not vote (emits
 * nothing, as in Flink ML, where its loss stays −∞): otherwise the subtasks
 * that saw no loss would keep the iteration going after the loss fell below
 * tol. (So at parallelism > 1 a round without any loss ends the iteration.)
 */
import { IterationError } from '../../relnode/errors.js';
import type { RecordBatch } from 'apache-arrow';
import type { Collector, ProcessContext, ProcessOperator } from '../stream/process.js';
import { CriteriaRecord } from './criteria-record.js';

export class TerminateOnMaxIterOrTol implements ProcessOperator {
  private readonly losses = new Map<number, number>();

  /** @param maxIter the most rounds (≥ 1); @param tol iterate while the loss is above it */
  constructor(readonly maxIter: number, readonly tol: number) {
    if (!Number.isInteger(maxIter) || maxIter < 1) throw new RangeError(`TerminateOnMaxIterOrTol needs a whole number of rounds ≥ 1, got ${maxIter}`);
  }

  private readonly record = new CriteriaRecord();

  processBatch(batch: RecordBatch, ctx: ProcessContext): void {
    this.record.see(batch);
    const col = batch.getChildAt(0);
    for (let i = 0; i < batch.numRows; i++) {
      if (this.losses.has(ctx.epoch)) throw new IterationError(`TerminateOnMaxIterOrTol received a second loss value in round ${ctx.epoch}: give it one loss per round`);
      this.losses.set(ctx.epoch, Number(col?.get(i)));
    }
  }

  onEpochWatermarkIncremented(epoch: number, ctx: ProcessContext, out: Collector): void {
    const loss = this.losses.get(epoch);
    for (const e of [...this.losses.keys()]) if (e <= epoch) this.losses.delete(e);
    const vote = loss !== undefined ? loss > this.tol : ctx.parallelism === 1;
    if (epoch + 1 < this.maxIter && vote) this.record.emit(out);
  }

  onIterationTerminated(): void {}

  snapshotState(): unknown {
    return [...this.losses];
  }

  restoreState(state: unknown): void {
    this.losses.clear();
    for (const [e, l] of state as [number, number][]) this.losses.set(e, l);
  }
}

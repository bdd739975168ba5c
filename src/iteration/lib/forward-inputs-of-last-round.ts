/**
 * ForwardInputsOfLastRound: passes on, when the iteration terminates, the
 * records it received in the last completed round (the model of the last
 * round, as Flink ML's k-means uses it).
 *
 * Decision: batches are buffered per epoch (records of round w + 1 may come
 * before the callback for w); at the callback for w the inputs of round w
 * become "the last round" and earlier buffers are dropped; records of the
 * terminating round (which has no callback) are not forwarded.
 */
import type { RecordBatch } from 'apache-arrow';
import type { Collector, ProcessContext, ProcessOperator } from '../stream/process.js';

export class ForwardInputsOfLastRound implements ProcessOperator {
  private readonly byEpoch = new Map<number, RecordBatch[]>();
  private last: RecordBatch[] = [];

  processBatch(batch: RecordBatch, ctx: ProcessContext): void {
    let list = this.byEpoch.get(ctx.epoch);
    if (list === undefined) { list = []; this.byEpoch.set(ctx.epoch, list); }
    list.push(batch);
  }

  onEpochWatermarkIncremented(epoch: number): void {
    this.last = this.byEpoch.get(epoch) ?? [];
    for (const e of [...this.byEpoch.keys()]) if (e <= epoch) this.byEpoch.delete(e);
  }

  onIterationTerminated(_ctx: ProcessContext, out: Collector): void {
    for (const b of this.last) out.collectBatch(b);
    this.last = [];
    this.byEpoch.clear();
  }
}

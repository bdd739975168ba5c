/**
 * The way out of an iteration into a relational plan: the model leaves the
 * loop as epoch-0 rows, as any table's rows are.
 *
 * Decision: an iteration's outputs carry the epochs of the loop (the model
 * is emitted at termination, with epoch END), and relational operators
 * downstream keep epochs apart — a hash join matches build and probe rows
 * of the same epoch only, so a model joined with a scored table would
 * match nothing. This operator owns its watermarks (`manualWatermarks`):
 * it forwards none of the loop's epoch watermarks, re-emits every batch
 * with epoch 0, and sends END when its input ends, so below it the plan is
 * an ordinary one-epoch batch query. It also times the loop's rounds for
 * EXPLAIN ANALYZE: each epoch watermark it does not forward ends a round.
 */
import type { RecordBatch } from 'apache-arrow';
import { END, type Operator, type OperatorContext } from '../exec/operator.js';
import type { DataStream } from '../iteration/stream/data-stream.js';
import { streamOf } from '../iteration/stream/data-stream.js';
import type { Schema } from '../relnode/types.js';
import type { IterationStats } from '../iteration/table/state.js';

class ExitOperator implements Operator {
  private ctx!: OperatorContext;
  /** The last epoch watermark seen, and when it came (or when the run opened). */
  private lastEpoch = -1;
  private lastAt = 0;
  constructor(private readonly stats: IterationStats | undefined) {}
  open(ctx: OperatorContext): void {
    this.ctx = ctx;
    this.stats?.reset();
    this.lastAt = performance.now();
  }
  processBatch(_input: number, batch: RecordBatch): void { this.ctx.emit(batch, 0); }
  onInputWatermark(_input: number, watermark: number): void {
    if (watermark >= END) {
      if (this.stats !== undefined) this.stats.rounds = this.stats.roundMs.length;
      this.ctx.emitWatermark(END);
    } else if (watermark > this.lastEpoch && this.stats !== undefined) {
      const now = performance.now();
      for (let e = this.lastEpoch + 1; e <= watermark; e++) this.stats.roundMs.push(e === watermark ? now - this.lastAt : 0);
      this.lastEpoch = watermark;
      this.lastAt = now;
    }
  }
  finish(): void {}
  close(): void {}
  snapshotState(): undefined { return undefined; }
}

/**
 * `s` (an iteration's output) as epoch-0 rows named by `schema`, at one subtask; with `stats`, the
 * rounds the loop ran and their times go there (EXPLAIN ANALYZE).
 */
export function exitIteration(s: DataStream, schema: Schema, stats?: IterationStats): DataStream {
  const node = s.env.graph.add({
    name: 'ExitIteration', schema, parallelism: 1,
    inputs: [{ node: s.node, output: s.output, partitioner: s.parallelism === 1 ? { kind: 'forward' } : { kind: 'rebalance' } }],
    run: { kind: 'operator', factory: () => new ExitOperator(stats), manualWatermarks: true },
  });
  return streamOf(s.env, node);
}

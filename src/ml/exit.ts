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
 * an ordinary one-epoch batch query.
 */
import type { RecordBatch } from 'apache-arrow';
import { END, type Operator, type OperatorContext } from '../exec/operator.js';
import type { DataStream } from '../iteration/stream/data-stream.js';
import { streamOf } from '../iteration/stream/data-stream.js';
import type { Schema } from '../relnode/types.js';

class ExitOperator implements Operator {
  private ctx!: OperatorContext;
  open(ctx: OperatorContext): void { this.ctx = ctx; }
  processBatch(_input: number, batch: RecordBatch): void { this.ctx.emit(batch, 0); }
  onInputWatermark(_input: number, watermark: number): void {
    if (watermark >= END) this.ctx.emitWatermark(END);
  }
  finish(): void {}
  close(): void {}
  snapshotState(): undefined { return undefined; }
}

/** `s` (an iteration's output) as epoch-0 rows named by `schema`, at one subtask. */
export function exitIteration(s: DataStream, schema: Schema): DataStream {
  const node = s.env.graph.add({
    name: 'ExitIteration', schema, parallelism: 1,
    inputs: [{ node: s.node, output: s.output, partitioner: s.parallelism === 1 ? { kind: 'forward' } : { kind: 'rebalance' } }],
    run: { kind: 'operator', factory: () => new ExitOperator(), manualWatermarks: true },
  });
  return streamOf(s.env, node);
}

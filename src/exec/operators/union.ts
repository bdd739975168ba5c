/**
 * Union (ALL): forwards the batches of every input unchanged. Column types of
 * the inputs agree (the planner casts); columns are positional, and the
 * result is labelled with the plan's names when collected.
 */
import type { RecordBatch } from 'apache-arrow';
import type { Operator, OperatorContext } from '../operator.js';

/** Creates a union-all operator over any number of inputs. */
export function unionOperator(): Operator {
  let ctx!: OperatorContext;
  return {
    open(c) { ctx = c; },
    processBatch(_input: number, batch: RecordBatch, epoch: number) {
      ctx.emit(batch, epoch);
    },
    finish() {},
    close() {},
  };
}

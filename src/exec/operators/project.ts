/**
 * Project: computes one output column per compiled expression. Column
 * references pass their input Data through without copying.
 */
import type { Data, RecordBatch } from 'apache-arrow';
import { batchFromColumns } from '../batch.js';
import type { Kernel } from '../kernels/index.js';
import type { Operator, OperatorContext } from '../operator.js';

/** Creates a project operator from compiled kernels (compiled once per query). */
export function projectOperator(kernels: readonly Kernel[]): Operator {
  let ctx!: OperatorContext;
  return {
    open(c) { ctx = c; },
    processBatch(_input: number, batch: RecordBatch, epoch: number) {
      const cols: Data[] = kernels.map((k) => k(batch));
      ctx.emit(batchFromColumns(ctx.outputSchema, cols, batch.numRows), epoch);
    },
    finish() {},
    close() {},
  };
}


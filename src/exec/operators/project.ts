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
  return new ProjectOperator(kernels);
}

/** A class, not an object literal: its methods live as long as the module (filter.ts says why). */
class ProjectOperator implements Operator {
  private ctx!: OperatorContext;

  constructor(private readonly kernels: readonly Kernel[]) {}

  open(c: OperatorContext): void { this.ctx = c; }

  processBatch(_input: number, batch: RecordBatch, epoch: number): void {
    const kernels = this.kernels;
    // push: a PACKED array in every tier (exec/packed.ts), the map batchFromColumns' readers expect.
    const cols: Data[] = [];
    for (let i = 0; i < kernels.length; i++) cols.push(kernels[i]!(batch));
    this.ctx.emit(batchFromColumns(this.ctx.outputSchema, cols, batch.numRows), epoch);
  }

  finish(): void {}

  close(): void {}
}

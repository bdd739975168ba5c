/**
 * Filter: keeps the rows whose predicate is TRUE. A batch where every row
 * survives passes through untouched; a batch where none does is dropped (no
 * empty batches).
 */
import type { RecordBatch } from 'apache-arrow';
import type { Predicate } from '../kernels/index.js';
import { takeBatch } from '../batch.js';
import type { Operator, OperatorContext } from '../operator.js';

/** Creates a filter operator from a compiled predicate (compiled once per query). */
export function filterOperator(predicate: Predicate): Operator {
  let ctx!: OperatorContext;
  return {
    open(c) { ctx = c; },
    processBatch(_input: number, batch: RecordBatch, epoch: number) {
      const sel = predicate(batch);
      if (sel === null) ctx.emit(batch, epoch);
      else if (sel.length > 0) ctx.emit(takeBatch(batch, sel), epoch);
    },
    finish() {},
    close() {},
  };
}

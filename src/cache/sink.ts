/**
 * The cache sink operator: appends every batch it receives to its subtask's
 * partition of a pending entry (which coalesces small batches into blocks of
 * about the context's batch size, coalesce.ts).
 *
 * Lowering attaches it as a side branch of the cached subtree's top vertex
 * (forward edge, same parallelism) rather than in line between that vertex
 * and its consumer, so it emits nothing. In line, a satisfied LIMIT above the
 * cached subtree would stop the subtree early (the runtime propagates "input
 * satisfied" upstream through single-consumer chains) and the sink would see a
 * truncated result it could not tell from a complete one. As a second
 * consumer it keeps the producer running to END, so the entry is complete.
 */
import type { RecordBatch } from 'apache-arrow';
import type { Operator, OperatorContext } from '../exec/operator.js';
import type { PendingEntry } from './entry.js';

/** A sink instance writing partition `subtask` of `pending`. */
export function cacheSinkOperator(pending: PendingEntry, subtask: number): Operator {
  return {
    open(ctx: OperatorContext): void {
      pending.open(subtask, ctx.parallelism, ctx.batchSize);
    },
    processBatch(_input: number, batch: RecordBatch): void {
      pending.append(subtask, batch);
    },
    finish(): void {
      pending.finish(subtask);
    },
    close(): void {
      // Nothing to release: the blocks belong to the pending entry until commit or abort.
    },
  };
}

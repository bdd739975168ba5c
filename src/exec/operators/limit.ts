/**
 * Limit: passes `offset + fetch` rows (per epoch), dropping the first
 * `offset`; once satisfied in a batch query it tells the runtime to stop
 * upstream work.
 */
import type { RecordBatch } from 'apache-arrow';
import type { Operator, OperatorContext } from '../operator.js';

/** Creates a limit operator. Run it with parallelism 1 (a global limit). */
export function limitOperator(fetch: number, offset: number): Operator {
  let ctx!: OperatorContext;
  const seen = new Map<number, number>(); // epoch → rows seen
  let satisfied = false;
  return {
    open(c) {
      ctx = c;
      if (fetch === 0) { satisfied = true; ctx.markInputSatisfied(); }
    },
    processBatch(_input: number, batch: RecordBatch, epoch: number) {
      if (satisfied) return;
      const before = seen.get(epoch) ?? 0;
      const n = batch.numRows;
      seen.set(epoch, before + n);
      const start = Math.max(0, offset - before);
      const end = Math.min(n, offset + fetch - before);
      if (end > start) ctx.emit(start === 0 && end === n ? batch : batch.slice(start, end), epoch);
      // Only a single-epoch (batch) query can stop upstream: later epochs may still need rows.
      if (epoch === 0 && before + n >= offset + fetch) { satisfied = true; ctx.markInputSatisfied(); }
    },
    onEpochWatermarkIncremented(epoch: number) {
      for (const e of [...seen.keys()]) if (e <= epoch) seen.delete(e);
    },
    finish() {},
    close() {},
  };
}

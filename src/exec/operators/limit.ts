/**
 * Limit: passes `offset + fetch` rows per epoch, dropping the first `offset`.
 *
 * With one epoch (a batch query: `ctx.mayHaveMoreEpochs()` is false) a
 * satisfied limit tells the runtime to stop upstream work. When more epochs
 * may come (an iteration or stream input) each epoch is limited on its own
 * and upstream keeps running: a satisfied epoch only drops its later rows,
 * and its count is dropped at its watermark.
 */
import type { RecordBatch } from 'apache-arrow';
import type { Operator, OperatorContext } from '../operator.js';
import { EpochStates } from './epoch-states.js';

/** Creates a limit operator. Run it with parallelism 1 (a global limit). */
export function limitOperator(fetch: number, offset: number): Operator {
  let ctx!: OperatorContext;
  const seen = new EpochStates<{ rows: number }>(() => ({ rows: 0 }));
  let perEpoch = false;
  let satisfied = false;
  return {
    open(c) {
      ctx = c;
      perEpoch = c.mayHaveMoreEpochs();
      // No epoch ever needs a row: stop upstream in either mode.
      if (fetch === 0) { satisfied = true; ctx.markInputSatisfied(); }
    },
    processBatch(_input: number, batch: RecordBatch, epoch: number) {
      if (satisfied) return;
      const st = seen.get(epoch);
      const before = st.rows;
      const n = batch.numRows;
      if (before >= offset + fetch) return;
      st.rows = before + n;
      const start = Math.max(0, offset - before);
      const end = Math.min(n, offset + fetch - before);
      if (end > start) ctx.emit(start === 0 && end === n ? batch : batch.slice(start, end), epoch);
      if (!perEpoch && st.rows >= offset + fetch) { satisfied = true; ctx.markInputSatisfied(); }
    },
    onEpochWatermarkIncremented(epoch: number) {
      seen.dropUpTo(epoch);
    },
    finish() {},
    close() { seen.clear(); },
  };
}

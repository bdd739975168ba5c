/**
 * Group limit: per distinct value of the key columns (NULLs equal), drops the
 * first `offset` rows and passes the next `fetch`, in arrival order — a
 * LIMIT evaluated once per outer value of a decorrelated subquery (after a
 * Sort when the subquery has ORDER BY; DuckDB uses ROW_NUMBER() for this).
 * Counts are per epoch. Run it with parallelism 1 behind a global edge, so
 * the rows arrive in the sorted order.
 */
import type { RecordBatch } from 'apache-arrow';
import { emitInSlices, takeBatch } from '../batch.js';
import { KeyTable } from '../kernels/hash.js';
import type { Operator, OperatorContext } from '../operator.js';

/** Creates a group-limit operator over the key columns `keys`. */
export function groupLimitOperator(keys: readonly number[], fetch: number, offset: number): Operator {
  let ctx!: OperatorContext;
  const state = new Map<number, { table: KeyTable; counts: number[] }>();
  return {
    open(c) { ctx = c; },
    processBatch(_input: number, batch: RecordBatch, epoch: number) {
      const n = batch.numRows;
      if (n === 0 || fetch === 0) return;
      let s = state.get(epoch);
      if (s === undefined) {
        s = { table: new KeyTable(keys.map((k) => ctx.inputSchemas[0]!.fields[k]!.type)), counts: [] };
        state.set(epoch, s);
      }
      const gids = s.table.groupIds(keys.map((k) => batch.data.children[k]!), n);
      const sel = new Int32Array(n);
      let m = 0;
      for (let i = 0; i < n; i++) {
        const g = gids[i]!;
        const seen = s.counts[g] ?? 0;
        s.counts[g] = seen + 1;
        if (seen >= offset && seen < offset + fetch) sel[m++] = i;
      }
      if (m === 0) return;
      const out = m === n ? batch : takeBatch(batch, sel, m);
      emitInSlices(out, ctx.batchSize, (b) => ctx.emit(b, epoch));
    },
    onEpochWatermarkIncremented(epoch: number) {
      for (const e of [...state.keys()]) if (e <= epoch) state.delete(e);
    },
    finish() { state.clear(); },
    close() { state.clear(); },
  };
}

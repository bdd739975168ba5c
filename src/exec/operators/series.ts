/**
 * The row-wise series of LATERAL range() / generate_series() (sql/binder/lateral-series.ts): each input
 * row, whose first three columns are start, stop and step (BIGINT), is emitted once per value of its
 * series, followed by that value; a row with a NULL argument emits nothing (DuckDB), a step of 0 fails the
 * query. Output goes out in bounded steps of at most about `batchSize` rows.
 */
import { Int64, type Data, type RecordBatch } from 'apache-arrow';
import { fixedData } from '../arrow-build.js';
import { batchFromColumns, isValidAt, takeData } from '../batch.js';
import { emitBounded, type Operator, type OperatorContext } from '../operator.js';
import { ExecutionError, placeError } from '../../relnode/errors.js';
import type { SourceSpan } from '../../relnode/source-span.js';

/** How many values the series from `start` to `stop` by `step` has (`inclusive`: generate_series). */
export function seriesCount(start: bigint, stop: bigint, step: bigint, inclusive: boolean): bigint {
  // The message the binder gives a constant step of 0 (range-function.ts), for the function written.
  if (step === 0n) throw new ExecutionError(`${inclusive ? 'generate_series' : 'range'}: the step must not be 0`);
  const end = inclusive ? stop + (step > 0n ? 1n : -1n) : stop;
  const span = step > 0n ? end - start : start - end;
  const abs = step > 0n ? step : -step;
  return span <= 0n ? 0n : (span + abs - 1n) / abs;
}

/** A BIGINT argument column's values (a constant argument may arrive narrower, as an Int32 column). */
function bigintValues(d: Data): BigInt64Array {
  const v = d.values as BigInt64Array | Int32Array;
  return v instanceof BigInt64Array ? v : BigInt64Array.from(v, (x) => BigInt(x));
}

const valid = (d: Data, i: number): boolean => d.nullCount === 0 || isValidAt(d, i);

/**
 * Creates a series operator (`inclusive`: generate_series, else range); its errors (a step of 0)
 * point at `at`, where SQL text wrote the call.
 */
export function seriesOperator(inclusive: boolean, at?: SourceSpan): Operator {
  let ctx!: OperatorContext;
  const run = (batch: RecordBatch, epoch: number): void => {
    const cols = batch.data.children;
    const [a, z, s] = [cols[0]!, cols[1]!, cols[2]!];
    const [starts, stops, steps] = [bigintValues(a), bigintValues(z), bigintValues(s)];
    let row = 0;
    let next = 0n; // the index within row's series where the next step starts
    emitBounded(ctx, () => {
      const cap = Math.max(1, ctx.batchSize);
      const sel = new Int32Array(cap);
      const vals = new BigInt64Array(cap);
      let m = 0;
      while (row < batch.numRows && m < cap) {
        if (!valid(a, row) || !valid(z, row) || !valid(s, row)) { row++; continue; }
        const st = starts[row]!;
        const by = steps[row]!;
        let count: bigint;
        try {
          count = seriesCount(st, stops[row]!, by, inclusive);
        } catch (err) {
          throw placeError(err, at);
        }
        for (; next < count && m < cap; next++, m++) { sel[m] = row; vals[m] = st + next * by; }
        if (next >= count) { row++; next = 0n; }
      }
      if (m > 0) {
        const idx = sel.subarray(0, m);
        const out = [...cols.map((c) => takeData(c, idx, m, false)), fixedData(new Int64(), m, 0, null, vals.subarray(0, m))];
        ctx.emit(batchFromColumns(ctx.outputSchema, out, m), epoch);
      }
      return row < batch.numRows;
    });
  };
  return {
    open(c) { ctx = c; },
    processBatch(_input: number, batch: RecordBatch, epoch: number) { if (batch.numRows > 0) run(batch, epoch); },
    finish() {},
    close() {},
  };
}

/**
 * TIMESTAMP values read from binary files (Arrow IPC, Parquet, Arrow tables handed to fromArrow)
 * checked against eddy's TIMESTAMP range (relnode/types.ts: ±8.64e15 ms from 1970-01-01).
 *
 * Decision: a value past the range is an error naming the file, the column and the value, not a
 * NULL (a reader must not drop data silently) nor a value clamped or wrapped (a wrong answer).
 * DuckDB is the reference: its readers fail with a conversion error on a value its TIMESTAMP
 * cannot hold (its range is wider, to 294247-01-10, so files it writes can hold values eddy
 * refuses: the message says what the range is). Text readers (CSV, JSON) parse through the
 * checked literal parser already. The check is one pass over the column's 64-bit words per batch,
 * reading the high and low halves as numbers (exact within ±2^53, which covers the range); the
 * validity bitmap is only consulted for a value out of range (a NULL slot may hold anything).
 */
import type * as arrow from 'apache-arrow';
import { isValidAt } from '../exec/batch.js';
import { formatTimestamp } from '../exec/kernels/datetime.js';
import { ExecutionError } from '../relnode/errors.js';
import { MAX_TIMESTAMP_MS, TIMESTAMP_RANGE_TEXT } from '../relnode/types.js';

/** The error of a TIMESTAMP value `ms` (milliseconds from 1970-01-01) past the range, read at `what` (file and column). */
export function timestampRangeError(what: string, ms: number | bigint, row?: number): ExecutionError {
  const n = Number(ms);
  const text = Math.abs(n) < 1e18 ? formatTimestamp(n) : `${ms} ms from 1970-01-01`;
  return new ExecutionError(`${what}${row === undefined ? '' : `, row ${row}`}: TIMESTAMP value ${text} is past the range of TIMESTAMP (${TIMESTAMP_RANGE_TEXT}); eddy's TIMESTAMP holds milliseconds within JavaScript Date's range`);
}

/**
 * Throws timestampRangeError for the first valid value of a millisecond TIMESTAMP column outside the
 * range. `firstRow`: the 0-based row of the file the column's first value is (the message counts from 1).
 */
export function checkTimestampRange(d: arrow.Data, what: string, firstRow?: number): void {
  // Two 32-bit words per value, low first, whatever typed array holds them (a BigInt64Array, or the Int32Array of parquet-sinks.ts).
  const v = d.values as ArrayBufferView;
  const words = new Int32Array(v.buffer, v.byteOffset, d.length * 2);
  // The values start at the column's first row (isValidAt adds d.offset for the validity bitmap).
  for (let i = 0; i < d.length; i++) {
    const x = words[2 * i + 1]! * 4294967296 + (words[2 * i]! >>> 0);
    if (x <= MAX_TIMESTAMP_MS && x >= -MAX_TIMESTAMP_MS) continue;
    if (!isValidAt(d, i)) continue;
    const ms = (BigInt(words[2 * i + 1]!) << 32n) + BigInt(words[2 * i]! >>> 0);
    throw timestampRangeError(what, ms, firstRow === undefined ? undefined : firstRow + i + 1);
  }
}


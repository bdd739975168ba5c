/**
 * The shape of a table generator whose rows are addressable by index: any
 * range of rows can be generated on its own, which makes the output
 * independent of batch boundaries.
 */
import type { RecordBatch } from 'apache-arrow';

/** Generates rows [start, start + count) of one table as a record batch. */
export interface RowRangeGenerator {
  /** Total rows of the table. */
  readonly numRows: number;
  /** Rows [start, start + count) with 0 ≤ start, count ≥ 1, start + count ≤ numRows. */
  batch(start: number, count: number): RecordBatch;
}

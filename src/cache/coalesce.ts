/**
 * Coalescing of a cache sink's input into blocks of about `batchSize` rows.
 *
 * Decision: operators emit bounded steps (a join's probe output comes in
 * pieces of at most 16,384 rows, a filter after it shrinks them further), so
 * storing every incoming batch as a block gave FLIP-36's `b` 538 blocks of a
 * median 4,085 rows at SF 1, and every block costs a fixed price on each read
 * (a RecordBatch and its schema, a scheduler delivery, a call down the
 * operator chain): a cached count() spent more time on block overhead than
 * on rows. Small batches are therefore buffered per partition and stored as
 * one block (a copy into fresh, exactly sized buffers) once the next batch
 * would take the buffer past `batchSize` rows; a batch of at least
 * `batchSize` rows arriving on an empty buffer is stored as it is (no copy),
 * and a buffer holding a single batch is stored without a copy too.
 *
 * Memory: a partition buffers fewer than `batchSize` rows (the views of at
 * most that many rows) outside the instance's budget while it is written;
 * everything else is stored at once and counted. Each block keeps its own
 * statistics (zone maps per block, computed on demand: lazy-stats.ts), so
 * pruning works at block granularity as before.
 */
import type { RecordBatch } from 'apache-arrow';
import { concatBatches } from '../exec/batch-concat.js';

/** Buffers small batches of one partition and hands out blocks of about `targetRows` rows. */
export class BlockCoalescer {
  private buffered: RecordBatch[] = [];
  private rows = 0;

  constructor(
    /** Rows a block aims at (the environment's batch size; at least 1). */
    readonly targetRows: number,
  ) {}

  /** Rows waiting in the buffer. */
  get bufferedRows(): number {
    return this.rows;
  }

  /** True when nothing is buffered (not even an empty batch). */
  get empty(): boolean {
    return this.buffered.length === 0;
  }

  /** Adds a batch; returns the blocks now complete (in order; often none). */
  add(batch: RecordBatch): RecordBatch[] {
    const n = batch.numRows;
    const out: RecordBatch[] = [];
    if (this.buffered.length > 0 && this.rows + n > this.targetRows) out.push(this.flush()!);
    if (this.buffered.length === 0 && n >= this.targetRows) {
      out.push(batch);
      return out;
    }
    this.buffered.push(batch);
    this.rows += n;
    if (this.rows >= this.targetRows) out.push(this.flush()!);
    return out;
  }

  /** The buffered batches as one block (undefined when nothing is buffered); empties the buffer. */
  flush(): RecordBatch | undefined {
    const parts = this.buffered;
    if (parts.length === 0) return undefined;
    this.buffered = [];
    this.rows = 0;
    // Empty batches add nothing to a block with rows.
    const withRows = parts.filter((b) => b.numRows > 0);
    return concatBatches(withRows.length > 0 ? withRows : [parts[0]!])!;
  }

  /** Drops whatever is buffered (the write was abandoned). */
  discard(): void {
    this.buffered = [];
    this.rows = 0;
  }
}

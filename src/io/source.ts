/**
 * The contract every data source implements: a schema, a number of
 * independent partitions, and a scan that streams Arrow record batches.
 */
import type { RecordBatch } from 'apache-arrow';
import type { RexNode } from '../relnode/rex.js';
import type { Schema } from '../relnode/types.js';
import type { TableStatistics } from './stats.js';

export interface ScanOptions {
  /** Which partition to read, 0 ≤ partition < partitions. */
  readonly partition: number;
  /**
   * Ordinals of the source schema to read, in output order; undefined = all.
   * Emitted batches contain exactly these columns, in this order.
   */
  readonly columns?: readonly number[];
  /** Preferred rows per batch (a hint; sources may emit smaller or larger batches). */
  readonly batchSize: number;
  /** Conjuncts over the full source schema that the source MAY use to skip data (never required). */
  readonly filters?: readonly RexNode[];
  /** Aborted on cancellation: stop reading and release files. */
  readonly signal?: AbortSignal;
}

/** A scannable table: in-memory Arrow data, a file, or a generator. */
export interface TableSource {
  /** The eddy schema of the full table. */
  readonly schema: Schema;
  /** Human-readable description for EXPLAIN (`csv /path/file.csv`). */
  readonly description: string;
  /** Number of independent partitions a parallel scan may read concurrently (≥ 1). */
  readonly partitions: number;
  /** Exact row count when known without scanning. */
  readonly numRows?: number;
  /**
   * Row count and per-column statistics for cardinality estimation (stats.ts), or undefined when
   * the source cannot tell without reading everything. Called at planning time; cheap or cached.
   */
  statistics?(): TableStatistics | undefined;
  /**
   * Streams the batches of one partition. Batches never have zero rows.
   * Errors in the data (malformed file) are thrown as ExecutionError naming
   * the file, line and column and what was expected.
   */
  scan(options: ScanOptions): AsyncIterable<RecordBatch> | Iterable<RecordBatch>;
  /**
   * The files under this source, in partition order, when another thread can read any of its
   * partitions by opening the file itself (Parquet: a partition is a row group). Worker stages
   * deal these partitions to the threads instead of copying the table (planner/ship-files.ts).
   */
  readonly files?: readonly FilePartitions[];
}

/** One file of a source whose partitions a worker thread reads by opening the file itself. */
export interface FilePartitions {
  readonly format: 'parquet';
  readonly path: string;
  /** Size and modification time when the source opened it: a thread that opens it again checks them. */
  readonly bytes: number;
  readonly mtimeMs: number;
  /** Partitions of this file (its row groups). */
  readonly partitions: number;
  /** Rows of each partition. */
  readonly partitionRows: readonly number[];
  /** The file's own source (one file: partitions numbered from 0). */
  readonly source: TableSource;
  /** Whether the file's statistics prove that no row of `partition` passes `filters` (the scan then skips it). */
  canSkip(partition: number, filters: readonly RexNode[]): boolean;
}

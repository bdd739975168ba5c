/**
 * The user operator contract of the stream API (FLIP-176's process functions
 * and IterationListener, in TypeScript).
 *
 * Decision: `process` takes a factory `() => operator`, called once per
 * subtask (and, for per-round operators, once per round), so operator state
 * is never shared by accident; the runtime calls methods on the object, so
 * `this` is the operator. Rows are plain objects keyed by column name (a
 * null-prototype object, so `__proto__` is an ordinary column); the batch
 * methods are the fast path and see the Arrow record batches themselves.
 * Every callback is optional: an operator implements what it needs.
 */
import type { RecordBatch } from 'apache-arrow';
import type { Schema } from '../../relnode/types.js';

/** A row of a stream: column name → value (null for SQL NULL; BIGINT as bigint). */
export type Row = Record<string, unknown>;

/**
 * Names a side output of an operator: `ctx.output(tag, row)` emits to it and
 * `stream.getSideOutput(tag)` reads it. Two tags are the same output only if
 * they are the same object.
 */
export class OutputTag {
  /** @param name display name (EXPLAIN, errors); @param schema the side output's columns */
  constructor(readonly name: string, readonly schema: Schema) {}
}

/** Emits rows or batches on the operator's main output. */
export interface Collector {
  collect(row: Row): void;
  collectBatch(batch: RecordBatch): void;
}

/**
 * Append-only list state backed by the cache service's storage (Flink ML's
 * ListStateWithCache): memory first, spilling past the budget; part of
 * checkpoints. For data an iteration reads every round without replay.
 */
export interface ListState {
  add(row: Row): void;
  addBatch(batch: RecordBatch): void;
  /** The rows added so far, in order. */
  rows(): Iterable<Row>;
  /** The batches added so far, in order (rows added one by one are batched). */
  batches(): Iterable<RecordBatch>;
  /** Number of rows added. */
  readonly size: number;
  clear(): void;
}

/** What a user operator sees in every callback. */
export interface ProcessContext {
  /**
   * The epoch of the record being processed, or the watermark inside
   * `onEpochWatermarkIncremented`; END (2^31 − 2) inside
   * `onIterationTerminated` and `finish` of an all-round operator.
   */
  readonly epoch: number;
  readonly subtaskIndex: number;
  readonly parallelism: number;
  /** Emits `row` to the side output named by `tag`. */
  output(tag: OutputTag, row: Row): void;
  /** Cache-backed list state of this subtask, by name (created on first use). */
  getListState(name: string): ListState;
}

/**
 * A user operator with one input. Implement `processElement` (row at a time)
 * or `processBatch` (batch at a time; takes precedence when both exist).
 */
export interface ProcessOperator {
  open?(ctx: ProcessContext): void;
  processElement?(row: Row, ctx: ProcessContext, out: Collector): void;
  processBatch?(batch: RecordBatch, ctx: ProcessContext, out: Collector): void;
  /** Every record of epoch ≤ `epoch` has reached this operator (ITERATION-SEMANTICS.md). */
  onEpochWatermarkIncremented?(epoch: number, ctx: ProcessContext, out: Collector): void;
  /** The iteration terminated (the watermark reached END inside an iteration). */
  onIterationTerminated?(ctx: ProcessContext, out: Collector): void;
  /** End of input. */
  finish?(ctx: ProcessContext, out: Collector): void;
  close?(): void;
  /** The operator's state for a checkpoint (structured-cloneable). */
  snapshotState?(): unknown;
  restoreState?(state: unknown): void;
}

/** A user operator with two inputs (`a.connect(b).process(...)`). */
export interface CoProcessOperator {
  open?(ctx: ProcessContext): void;
  processElement1?(row: Row, ctx: ProcessContext, out: Collector): void;
  processElement2?(row: Row, ctx: ProcessContext, out: Collector): void;
  processBatch1?(batch: RecordBatch, ctx: ProcessContext, out: Collector): void;
  processBatch2?(batch: RecordBatch, ctx: ProcessContext, out: Collector): void;
  onEpochWatermarkIncremented?(epoch: number, ctx: ProcessContext, out: Collector): void;
  onIterationTerminated?(ctx: ProcessContext, out: Collector): void;
  finish?(ctx: ProcessContext, out: Collector): void;
  close?(): void;
  snapshotState?(): unknown;
  restoreState?(state: unknown): void;
}

/** Creates one user operator per subtask (and per round for per-round operators). */
export type ProcessFactory<O = ProcessOperator> = () => O;

/**
 * The operator contract of the one dataflow core (DESIGN.md "exec").
 *
 * Channels carry, in order: batches tagged with an epoch, and epoch
 * watermarks (END last). The runtime tracks each operator's minimum
 * watermark over all its input channels and calls
 * `onEpochWatermarkIncremented(w)` exactly once per strict rise to w < END,
 * after every row of an epoch ≤ w was processed; when the minimum reaches END
 * it calls `finish()` once. Then it forwards the watermark downstream, after
 * whatever the callback emitted.
 *
 * Bounded steps (DuckDB's HAVE_MORE_OUTPUT): no callback runs unbounded work
 * in one go. A callback with much output emits at most about one batch and
 * hands the rest back with `ctx.defer(step)`; the scheduler calls `step` from
 * its loop, one call per scheduling step, so cancellation, timers and async
 * sources stay responsive and a satisfied LIMIT above stops the work.
 */
import type { RecordBatch } from 'apache-arrow';
import type { Schema } from '../relnode/types.js';

/** The END watermark (Flink ML's 2^31 − 2): above every real epoch. */
export const END = 0x7ffffffe;

/** Per-operator-instance counters for EXPLAIN ANALYZE. */
export interface OperatorMetrics {
  rowsIn: number;
  batchesIn: number;
  rowsOut: number;
  batchesOut: number;
  /** Milliseconds spent inside this operator's own code (excluding downstream operators). */
  timeMs: number;
}

/** What an operator instance can see and do. */
export interface OperatorContext {
  /** Operator name for errors and metrics (e.g. `HashJoin#3`). */
  readonly name: string;
  readonly subtaskIndex: number;
  readonly parallelism: number;
  /** Preferred number of rows per emitted batch. */
  readonly batchSize: number;
  /** The output schema of this operator. */
  readonly outputSchema: Schema;
  /** The input schemas, by input number. */
  readonly inputSchemas: readonly Schema[];
  /**
   * The epoch of the current callback, stamped by the runtime
   * (ITERATION-SEMANTICS.md "Epochs"): in `processBatch` the input batch's
   * epoch; in `onEpochWatermarkIncremented(w)` w; in `finish` / `onInputEnd`
   * the last epoch (the highest input epoch, and never one a forwarded
   * watermark already closed); in a deferred step the epoch of the callback
   * that deferred it.
   */
  readonly epoch: number;
  /**
   * Whether rows of more than one epoch may still arrive on input `input`
   * (or on any input when omitted): false in a batch query (every source
   * emits only epoch 0) and for an input that has ended (a static input).
   */
  mayHaveMoreEpochs(input?: number): boolean;
  /**
   * True when this operator runs inside an iteration (its output may carry
   * more than one epoch): END-time output of user operators then carries END.
   */
  readonly inIteration: boolean;
  /**
   * Sends a batch downstream, tagged with `epoch` (default: `ctx.epoch`).
   * The runtime rejects a batch of an epoch this operator's forwarded
   * watermark already closed (a late record). Empty batches are dropped by
   * the runtime, but operators should not produce them.
   */
  emit(batch: RecordBatch, epoch?: number): void;
  /** Like `emit`, to side output `output` (≥ 1; declared by the vertex's `sideOutputs`). */
  emitTo(output: number, batch: RecordBatch, epoch?: number): void;
  /**
   * Forwards an epoch watermark (or END) on every output. Only for vertices
   * with `manualWatermarks` (iteration heads and tails); watermarks must rise.
   */
  emitWatermark(epoch: number): void;
  /**
   * Posts `task` to the run's mailbox: the scheduler runs it from its loop
   * (never re-entrantly, in posting order) as a callback of this operator —
   * how an iteration's coordinator delivers decisions to its heads.
   */
  post(task: () => void): void;
  /**
   * One object per run and key, created on first use and shared by every
   * instance that asks for the same key (an iteration's coordinator). A new
   * run (a restart) gets new objects. An object with `snapshotState()` /
   * `restoreState(s)` methods is part of checkpoints: a restored run calls
   * `restoreState` on the new object right after `create`.
   */
  shared<T>(key: string, create: () => T): T;
  /**
   * Tells the runtime this operator needs no more input (a satisfied LIMIT):
   * upstream operators and sources that feed only this one stop.
   */
  markInputSatisfied(): void;
  /**
   * Hands back pending output: the runtime calls `step` from its loop, once per
   * scheduling step, until it returns false. Each call does bounded work
   * (emits at most about `batchSize` rows) and returns true while more
   * remains. Deferred steps run in the order they were deferred; a step
   * deferred while a step runs goes right after that step. While any is
   * pending the operator receives no input and no watermark callback, and the
   * watermark owed downstream is forwarded after them. When every output
   * channel is closed (a satisfied LIMIT above) pending steps are dropped unrun.
   */
  defer(step: PendingStep): void;
  /** True while steps handed to `defer` are pending (including the one running). */
  readonly hasPendingOutput: boolean;
  /** True once the job was cancelled or failed; long loops in operators may poll it. */
  readonly cancelled: boolean;
  readonly metrics: OperatorMetrics;
  /**
   * Reserves `bytes` of state this operator now holds (build rows, buffered
   * rows, groups) from the query's memory limit (exec/memory.ts); throws an
   * ExecutionError naming the limit when the query would go past it.
   */
  reserveMemory(bytes: number): void;
  /** Gives back state bytes reserved earlier (the operator dropped that state). */
  releaseMemory(bytes: number): void;
}

/** One bounded piece of pending output: emits at most about one batch; true while more remains. */
export type PendingStep = () => boolean;

/**
 * Runs `step` now if nothing is pending (the common case: the output fits in
 * one batch and is pushed downstream synchronously), and defers whatever
 * remains; if output is already pending, defers the whole of it, so output
 * keeps its order.
 */
export function emitBounded(ctx: OperatorContext, step: PendingStep): void {
  if (ctx.hasPendingOutput || step()) ctx.defer(step);
}

/** An operator instance (one per subtask). Plans are immutable: all run state lives in instances. */
export interface Operator {
  open(ctx: OperatorContext): void;
  /** A batch arrived on input `input` (0-based) with all rows of epoch `epoch`. */
  processBatch(input: number, batch: RecordBatch, epoch: number): void;
  /** Every row of every epoch ≤ epoch has been processed (epoch < END). Called once per strict rise. */
  onEpochWatermarkIncremented?(epoch: number): void;
  /** All channels of input `input` reached END (that input is now static). */
  onInputEnd?(input: number): void;
  /**
   * The minimum watermark over the channels of input `input` rose to
   * `watermark` (END included). Called before the operator's own watermark is
   * re-evaluated; for `manualWatermarks` vertices the only watermark callback.
   */
  onInputWatermark?(input: number, watermark: number): void;
  /**
   * The operator's watermark reached END inside an iteration (some input
   * carried more than one epoch): called once, before `finish`, with
   * `ctx.epoch` = END (ITERATION-SEMANTICS.md: records emitted here carry END).
   */
  onIterationTerminated?(): void;
  /** The minimum watermark reached END: emit what is left. */
  finish(): void;
  /** Release resources; called once, after finish or on failure/cancellation. */
  close(): void;
  /**
   * Which input the operator wants next, or -1 for any. The runtime holds back
   * events of the other inputs (they buffer) until the selection changes.
   * Consulted after every event.
   */
  selectInput?(): number;
  /**
   * The instance's state for a checkpoint (runtime/snapshot.ts): anything
   * structured-cloneable, Arrow record batches included. An operator in a
   * checkpointed job must implement it (return undefined when stateless);
   * `restoreState` gets it back, after `open`, in a new run.
   */
  snapshotState?(): unknown;
  restoreState?(state: unknown): void;
}

/** Creates one operator instance per subtask. */
export type OperatorFactory = (subtaskIndex: number) => Operator;

/** What a source produces: a plain batch (epoch 0), an epoch-tagged batch, or an epoch watermark. */
export type SourceEvent = RecordBatch | { readonly batch: RecordBatch; readonly epoch: number } | { readonly watermark: number };

/**
 * A source instance: the runtime pulls batches from it. All batches have
 * epoch 0 unless the source says otherwise; after `next` returns null the
 * runtime sends END on all outputs. A source that has nothing yet returns a
 * promise: the run loop goes on with other work meanwhile (one outstanding
 * `next` per source, so order is kept) and waits for it only when nothing
 * else can run.
 */
export interface SourceInstance {
  /**
   * The next event: a batch (epoch 0), a batch with an explicit epoch, an epoch
   * watermark (the source will send no more rows of epochs ≤ it), or null
   * when done. May be async (I/O).
   */
  next(): SourceEvent | null | Promise<SourceEvent | null>;
  /** Stop early (cancellation or downstream satisfied). Must be idempotent. */
  close(): void | Promise<void>;
  /**
   * The source's position for a checkpoint: it must describe the state after
   * the events whose `next()` already returned (or resolved) — an outstanding
   * promise's event is produced again after a restore. A source without it
   * cannot be checkpointed. The factory gets it back as `ctx.restored`.
   */
  snapshot?(): unknown;
}

export interface SourceContext {
  readonly name: string;
  readonly subtaskIndex: number;
  readonly parallelism: number;
  readonly batchSize: number;
  /** Aborted when the job is cancelled or fails. */
  readonly signal: AbortSignal;
  /** See OperatorContext.shared: the same per-run objects. */
  shared<T>(key: string, create: () => T): T;
  /** When the run restores a checkpoint: what this source's `snapshot()` returned; resume after it. */
  readonly restored?: unknown;
}

export type SourceFactory = (ctx: SourceContext) => SourceInstance | Promise<SourceInstance>;

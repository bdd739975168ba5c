/**
 * The per-round lifecycle (ITERATION-SEMANTICS.md "Per-round lifecycle"):
 * one operator instance per subtask and epoch, created on the first record of
 * that epoch, closed when the watermark reaches it.
 *
 * Decision: a wrapper around the runtime operator factory of a body node
 * (installed through `BodyScope.wrapOperator`), so user operators, the stream
 * adapter and the runtime need no per-round knowledge. Each inner instance
 * sees its own context whose epoch is fixed to its round: whatever it emits,
 * in any callback (also in deferred steps), carries that epoch; it is not
 * "in an iteration" (it only ever sees one epoch). When the watermark reaches
 * w, every live instance of epoch ≤ w, oldest first, gets
 * `onEpochWatermarkIncremented(e)`, end of input on each input, `finish`,
 * `close`; at END they get `onIterationTerminated` instead of the callback.
 */
import type { RecordBatch } from 'apache-arrow';
import { END, type Operator, type OperatorContext, type OperatorFactory } from '../exec/operator.js';

/** The context an inner per-round instance sees: the real one with the epoch fixed to its round. */
function roundContext(ctx: OperatorContext, epoch: number): OperatorContext {
  return {
    get name() { return ctx.name; },
    get subtaskIndex() { return ctx.subtaskIndex; },
    get parallelism() { return ctx.parallelism; },
    get batchSize() { return ctx.batchSize; },
    get outputSchema() { return ctx.outputSchema; },
    get inputSchemas() { return ctx.inputSchemas; },
    epoch,
    mayHaveMoreEpochs: () => false,
    inIteration: false,
    emit: (batch, e = epoch) => ctx.emit(batch, e),
    emitTo: (output, batch, e = epoch) => ctx.emitTo(output, batch, e),
    emitWatermark: (e) => ctx.emitWatermark(e),
    post: (task) => ctx.post(task),
    shared: (key, create) => ctx.shared(key, create),
    markInputSatisfied: () => { /* one round's instance cannot stop the shared inputs */ },
    defer: (step) => ctx.defer(step),
    get hasPendingOutput() { return ctx.hasPendingOutput; },
    get cancelled() { return ctx.cancelled; },
    get metrics() { return ctx.metrics; },
    reserveMemory: (bytes) => ctx.reserveMemory(bytes),
    releaseMemory: (bytes) => ctx.releaseMemory(bytes),
  };
}

class PerRoundOperator implements Operator {
  private ctx!: OperatorContext;
  /** Live instances by epoch, in creation order (epochs only rise at one subtask). */
  private readonly live = new Map<number, Operator>();
  private inputs = 0;

  constructor(private readonly inner: OperatorFactory, private readonly subtask: number) {}

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
    this.inputs = ctx.inputSchemas.length;
  }

  private instance(epoch: number): Operator {
    let op = this.live.get(epoch);
    if (op === undefined) {
      op = this.inner(this.subtask);
      op.open(roundContext(this.ctx, epoch));
      this.live.set(epoch, op);
    }
    return op;
  }

  processBatch(input: number, batch: RecordBatch, epoch: number): void {
    this.instance(epoch).processBatch(input, batch, epoch);
  }

  onEpochWatermarkIncremented(w: number): void {
    this.closeUpTo(w, false);
  }

  onIterationTerminated(): void {
    this.closeUpTo(END, true);
  }

  finish(): void {
    this.closeUpTo(END, true);
  }

  close(): void {
    for (const op of this.live.values()) { try { op.close(); } catch { /* closing after a failure */ } }
    this.live.clear();
  }

  /** The live rounds' instances and their states (checkpoints). */
  snapshotState(): unknown {
    return [...this.live].map(([epoch, op]) => {
      if (op.snapshotState === undefined) throw new Error(`a per-round operator of round ${epoch} cannot be checkpointed: it has no snapshotState`);
      return [epoch, op.snapshotState()];
    });
  }

  restoreState(state: unknown): void {
    for (const [epoch, st] of state as [number, unknown][]) {
      const op = this.instance(epoch);
      if (st !== undefined) op.restoreState?.(st);
    }
  }

  private closeUpTo(w: number, terminated: boolean): void {
    const due = [...this.live.keys()].filter((e) => e <= w).sort((a, b) => a - b);
    for (const e of due) {
      const op = this.live.get(e)!;
      this.live.delete(e);
      if (terminated) op.onIterationTerminated?.();
      else op.onEpochWatermarkIncremented?.(e);
      for (let i = 0; i < this.inputs; i++) op.onInputEnd?.(i);
      op.finish();
      op.close();
    }
  }
}

/** Wraps a runtime operator factory so each subtask makes one instance per round. */
export function perRoundFactory(inner: OperatorFactory): OperatorFactory {
  return (subtask) => new PerRoundOperator(inner, subtask);
}

/**
 * Joins whose build side is not static: when the build input may carry
 * several epochs (an iteration feeding both sides), the result of epoch e is
 * join(build rows of epoch e, probe rows of epoch e), not a join against all
 * build rows seen so far.
 *
 * Decision: the join operators stay single-epoch (build to END, then probe —
 * the fast path every batch query takes); this wrapper, given the factory,
 * either delegates to one such instance (build input static: a batch query
 * or a finished, non-replayed input, kept across every epoch) or buffers
 * both inputs per epoch and, when the watermark passes e, runs a fresh inner
 * instance over epoch e's rows, its output retagged e. Output is bounded as
 * the inner operator's is (it defers through the same context).
 */
import type { RecordBatch } from 'apache-arrow';
import type { Operator, OperatorContext } from '../operator.js';
import { EpochStates } from './epoch-states.js';
import { batchBytes } from '../memory.js';

interface EpochRows { readonly build: RecordBatch[]; readonly probe: RecordBatch[] }

/** Wraps a two-input join whose input `build` is buffered first; `make(perEpoch)` says which mode the instance serves. */
export function perEpochJoin(build: number, make: (perEpoch: boolean) => Operator): Operator {
  let ctx!: OperatorContext;
  let single: Operator | null = null;
  const probe = 1 - build;
  const epochs = new EpochStates<EpochRows>(() => ({ build: [], probe: [] }));
  const runEpoch = (rows: EpochRows, epoch: number): void => {
    // The inner instance sees one epoch (0) with a static build side; its output is retagged `epoch`.
    const j = make(true);
    j.open(retagged(ctx, epoch));
    for (const b of rows.build) j.processBatch(build, b, 0);
    j.onInputEnd?.(build);
    for (const b of rows.probe) j.processBatch(probe, b, 0);
    j.onInputEnd?.(probe);
    j.finish();
    // Not closed here: its deferred output may still be pending; close only drops buffers the steps hold.
  };
  return {
    open(c) {
      ctx = c;
      if (!c.mayHaveMoreEpochs(build)) { single = make(false); single.open(c); }
    },
    selectInput() {
      return single === null ? -1 : single.selectInput?.() ?? -1;
    },
    processBatch(input, batch, epoch) {
      if (single !== null) { single.processBatch(input, batch, epoch); return; }
      const st = epochs.get(epoch);
      // Build rows are reserved by the inner join they are fed to; probe rows wait here.
      if (input !== build) ctx.reserveMemory(batchBytes(batch));
      (input === build ? st.build : st.probe).push(batch);
    },
    onInputEnd(input) {
      single?.onInputEnd?.(input);
    },
    onEpochWatermarkIncremented(w) {
      if (single !== null) single.onEpochWatermarkIncremented?.(w);
      else epochs.drainUpTo(w, runEpoch);
    },
    finish() {
      if (single !== null) single.finish();
      else epochs.drainUpTo(Infinity, runEpoch);
    },
    close() {
      single?.close();
      epochs.clear();
    },
  };
}

/** A view of `ctx` for an inner per-epoch instance: everything it emits is tagged `epoch`. */
function retagged(ctx: OperatorContext, epoch: number): OperatorContext {
  return {
    name: ctx.name,
    subtaskIndex: ctx.subtaskIndex,
    parallelism: ctx.parallelism,
    batchSize: ctx.batchSize,
    outputSchema: ctx.outputSchema,
    inputSchemas: ctx.inputSchemas,
    metrics: ctx.metrics,
    epoch: 0,
    mayHaveMoreEpochs: () => false,
    inIteration: false,
    emit: (batch) => ctx.emit(batch, epoch),
    emitTo: (output, batch) => ctx.emitTo(output, batch, epoch),
    emitWatermark: (w) => ctx.emitWatermark(w),
    post: (task) => ctx.post(task),
    shared: (key, create) => ctx.shared(key, create),
    // The inner instance's inputs are buffers, not the shared channels.
    markInputSatisfied: () => {},
    defer: (step) => ctx.defer(step),
    get hasPendingOutput() { return ctx.hasPendingOutput; },
    get cancelled() { return ctx.cancelled; },
    reserveMemory: (bytes) => ctx.reserveMemory(bytes),
    releaseMemory: (bytes) => ctx.releaseMemory(bytes),
  };
}

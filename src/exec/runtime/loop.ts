/**
 * The run loop: deliver what can be delivered, re-evaluate deferred
 * watermarks, else run one pending step, else pull one source event; one
 * feedback event when nothing else ran (or after 256 passes without); yield
 * result batches as they appear; wait for asynchronous sources only when
 * nothing else can run; yield to the event loop every ~YIELD_MS (10 ms) so timers,
 * signals and I/O stay responsive during long CPU-bound runs.
 */
import { performance } from 'node:perf_hooks';
import type { RecordBatch } from 'apache-arrow';
import { CancelledError, InternalError } from '../../relnode/errors.js';
import { JobFailure, type Run, type RunOptions } from './scheduler.js';
import { YIELD_MS } from './step-budget.js';

export async function* runLoop(run: Run, options: RunOptions): AsyncGenerator<RecordBatch> {
  const signal = options.signal;
  let lastYield = performance.now();
  let lastProgress = lastYield;
  const cp = options.checkpoint;
  let lastCheckpoint = lastYield;
  /** Passes since feedback was last offered a delivery (see Run.drainFeedback). */
  let starved = 0;
  try {
    const opening = run.open();
    if (opening !== undefined) await opening;
    for (;;) {
      if (signal?.aborted) throw new CancelledError('query cancelled');
      if (run.puller.sourceError) throw run.puller.sourceError;
      let progressed = run.drain(lastYield + YIELD_MS);
      if (run.flushDeferred()) progressed = true;
      if (!progressed) progressed = run.stepPending();
      if (!progressed) progressed = run.puller.pullOne();
      if (!progressed || ++starved >= 256) {
        starved = 0;
        if (run.drainFeedback()) progressed = true;
      }
      while (run.out.length > 0) yield run.out.shift()!;
      if (!progressed) {
        if (run.pending.size > 0 && run.drain()) continue;
        if (await run.puller.awaitSources()) { lastYield = performance.now(); continue; }
        if (run.allFinished()) break;
        throw new InternalError(`job stalled: ${run.unfinished()} never finished`);
      }
      const now = performance.now();
      if (cp !== undefined && now - lastCheckpoint >= cp.intervalMs) {
        const snap = run.snapshot();
        if (snap !== undefined) { await cp.take(snap); lastCheckpoint = performance.now(); }
      }
      if (now - lastYield > YIELD_MS) {
        await new Promise<void>((r) => setImmediate(r));
        lastYield = performance.now();
      }
      if (options.onProgress && now - lastProgress > 100) { options.onProgress(run.rowsRead); lastProgress = now; }
    }
    while (run.out.length > 0) yield run.out.shift()!;
  } catch (e) {
    run.failed = true;
    throw e instanceof JobFailure ? e.error : e;
  } finally {
    run.failed = run.failed || !run.allFinished();
    run.closeAll();
  }
}

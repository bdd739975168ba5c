/**
 * The dataflow runtime's public entry: `executeJob` runs a job graph with one
 * cooperative scheduler on the main thread.
 *
 * Decision: this file stays the one import for the rest of the engine; the
 * runtime itself is split by concept under runtime/ — channel.ts (events and
 * queues), instance.ts (source and operator instances, routing),
 * scheduler.ts (delivery rules), loop.ts (the run loop), feedback-queue.ts (iteration feedback that spills), metrics.ts (counters and
 * self-time), deque.ts (the O(1) queue).
 */
import type { RecordBatch } from 'apache-arrow';
import type { JobGraph } from './job.js';
import type { VertexMetrics } from './runtime/metrics.js';
import type { RunSnapshot } from './runtime/snapshot.js';
import { runLoop } from './runtime/loop.js';
import { Run, type RunOptions } from './runtime/scheduler.js';

export type { RunOptions } from './runtime/scheduler.js';
export type { VertexMetrics } from './runtime/metrics.js';
export type { RunSnapshot, OperatorSnapshot, SourceSnapshot, ChannelSnapshot } from './runtime/snapshot.js';
export { DEFAULT_FEEDBACK_BUDGET, type BatchSpill, type FeedbackOptions } from './runtime/feedback-queue.js';

/** A running job: iterate it for result batches; `metrics()` after it ends. */
export interface JobExecution extends AsyncIterable<RecordBatch> {
  /** Per-vertex metrics (valid during and after the run). */
  metrics(): VertexMetrics[];
  /** A consistent cut of the run now, or undefined when it is between steps with work owed (runtime/snapshot.ts). */
  snapshot(): RunSnapshot | undefined;
  /** Feedback queues: the most bytes held in memory at once, and bytes/batches spilled. */
  feedbackStats(): { readonly peakBytes: number; readonly spilledBytes: number; readonly spilledBatches: number };
}

/**
 * Runs a job graph. The returned execution yields result batches as they are
 * produced; iterate it to drive the run. Errors stop the whole job, close
 * every operator and are rethrown (operator failures name the operator).
 */
export function executeJob(graph: JobGraph, options: RunOptions): JobExecution {
  const run = new Run(graph, options);
  const gen = runLoop(run, options);
  return {
    [Symbol.asyncIterator]: () => gen,
    metrics: () => run.metricsByVertex(),
    snapshot: () => run.snapshot(),
    feedbackStats: () => ({ peakBytes: run.feedbackBudget.peak, spilledBytes: run.feedbackBudget.spilledBytes, spilledBatches: run.feedbackBudget.spilledBatches }),
  };
}

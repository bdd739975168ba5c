/**
 * Failover for stream jobs: checkpoints on an interval, and a restart from
 * the latest completed checkpoint when an operator throws.
 *
 * Decision: a restart happens in the same process, with a fresh run of the
 * same job graph restored from the cut (fresh operator instances from the
 * factories, their states put back with `restoreState`, queued channel
 * events — feedback in flight — re-queued, watermark bookkeeping restored so
 * callbacks made before the checkpoint are not made again). Checkpoints are
 * kept in memory (the latest, encoded — states are live objects that change
 * after the cut) or, when a directory is given, written there
 * atomically (checkpoint.ts) — the file is what a restore uses, so what is
 * tested is what survives. Without checkpoints a failed job restarts from the
 * beginning (a bounded iteration from round 0). Output produced after the
 * restored checkpoint is produced again (at-least-once output, as in Flink);
 * the final state equals a run without failure. Cancellation is never
 * retried.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { RecordBatch } from 'apache-arrow';
import type { JobGraph } from '../exec/job.js';
import { executeJob, type RunOptions, type RunSnapshot } from '../exec/runtime.js';
import { CancelledError, InternalError, IterationLimitError, ValidationError } from '../relnode/errors.js';
import { CheckpointStore, decodeSnapshot, encodeSnapshot } from './checkpoint.js';

let jobs = 0;

/** Checkpoint and restart settings of a stream job. */
export interface FailoverOptions {
  /** Take checkpoints every `intervalMs` (at the next quiescent point); write them to `dir` when given. */
  readonly checkpoint?: { readonly intervalMs: number; readonly dir?: string };
  /** How many times a failed job is restarted (default 0: a failure fails the job). */
  readonly restartAttempts?: number;
  /** Told about each restart (the error and whether it resumes from a checkpoint). */
  readonly onRestart?: (info: { readonly attempt: number; readonly error: Error; readonly fromCheckpoint: boolean }) => void;
}

/** Runs a job graph with checkpoints and restarts; yields the output batches of every attempt. */
export async function* runWithFailover(graph: JobGraph, options: RunOptions, failover: FailoverOptions): AsyncGenerator<RecordBatch> {
  const cp = failover.checkpoint;
  // Each job checkpoints into its own subdirectory: jobs sharing a directory never restore each other's cuts.
  const jobDir = cp?.dir !== undefined ? join(cp.dir, `job-${process.pid}-${Date.now().toString(36)}-${jobs++}`) : undefined;
  const store = jobDir !== undefined ? new CheckpointStore(jobDir) : undefined;
  // In memory a cut is kept encoded: operator states are live objects that change after the cut.
  let inMemory: Buffer | undefined;
  const attempts = failover.restartAttempts ?? 0;
  let restore: RunSnapshot | undefined;
  try {
    for (let attempt = 0; ; attempt++) {
      const run = executeJob(graph, {
        ...options,
        ...(restore !== undefined ? { restore } : {}),
        ...(cp !== undefined ? {
          checkpoint: {
            intervalMs: cp.intervalMs,
            take: (snap: RunSnapshot) => { if (store !== undefined) store.write(snap); else inMemory = encodeSnapshot(snap); },
          },
        } : {}),
      });
      try {
        for await (const b of run) yield b;
        return;
      } catch (e) {
        const err = e instanceof Error ? e : new Error(String(e));
        // Cancellation, a job that cannot be checkpointed and eddy's own bugs are never retried; operator and source failures are.
        if (err instanceof CancelledError || err instanceof InternalError || err instanceof ValidationError || err instanceof IterationLimitError || options.signal?.aborted || attempt >= attempts) throw err;
        restore = store !== undefined ? store.latest()?.snapshot : inMemory !== undefined ? decodeSnapshot(inMemory) : undefined;
        failover.onRestart?.({ attempt: attempt + 1, error: err, fromCheckpoint: restore !== undefined });
      }
    }
  } finally {
    if (jobDir !== undefined) rmSync(jobDir, { recursive: true, force: true });
  }
}

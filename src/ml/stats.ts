/**
 * Counts of training runs started, per function — how tests (and the
 * REPL's curious user) see that a cached model was read instead of trained
 * again — and training-round events for progress lines (the REPL's).
 *
 * Decision: a process-wide counter bumped when a training job's first
 * subtask opens (once per run, whatever the parallelism); cheap, and
 * nothing reads it on a hot path. Round events come from the one reducing
 * subtask of a training, once per round, to the listeners registered now
 * (none, usually: then a round costs a set lookup).
 */

/** One finished training round. */
export interface TrainingRound {
  /** The function (`kmeans`, `linear_regression`, …). */
  readonly fn: string;
  /** The round (epoch) that ended, from 0. */
  readonly round: number;
  /** The mean loss of the round, where the algorithm computes one (the SGD models). */
  readonly loss?: number;
}

const listeners = new Set<(r: TrainingRound) => void>();

/** Calls `listener` after every training round of any query until the returned function is called. */
export function onTrainingRound(listener: (r: TrainingRound) => void): () => void {
  listeners.add(listener);
  return () => { listeners.delete(listener); };
}

/** @internal Called by a training's reducer when round `round` ended. */
export function noteRound(fn: string, round: number, loss?: number): void {
  if (listeners.size === 0) return;
  const r: TrainingRound = { fn, round, ...(loss !== undefined && Number.isFinite(loss) ? { loss } : {}) };
  for (const l of listeners) l(r);
}

const counts = new Map<string, number>();

/** @internal Called by a training operator's subtask 0 when a run opens it. */
export function noteTraining(fn: string): void {
  counts.set(fn, (counts.get(fn) ?? 0) + 1);
}

/** Training runs started so far by `fn` (e.g. `kmeans`), or by every ML function when omitted. */
export function trainingsStarted(fn?: string): number {
  if (fn !== undefined) return counts.get(fn) ?? 0;
  let n = 0;
  for (const v of counts.values()) n += v;
  return n;
}

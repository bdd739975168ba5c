/**
 * Counts of training runs started, per function — how tests (and the
 * REPL's curious user) see that a cached model was read instead of trained
 * again.
 *
 * Decision: a process-wide counter bumped when a training job's first
 * subtask opens (once per run, whatever the parallelism); cheap, and
 * nothing reads it on a hot path.
 */

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

/**
 * Round events of table-valued iterations (env.iterate, WITH RECURSIVE) for
 * progress lines — the REPL's "iteration round 12 · 3,480 rows".
 *
 * Decision: a process-wide listener set, as src/ml/stats.ts has for
 * trainings: the loop's shared state reports each ended round once (the
 * first gate's watermark), with the rows the heads released in it; with no
 * listener a round costs one size check.
 */

/** One finished round of a table iteration. */
export interface IterationRound {
  /** The round (epoch) that ended, from 0. */
  readonly round: number;
  /** Rows the loop variables held in that round (accumulate mode: the rows it added before). */
  readonly rows: number;
}

const listeners = new Set<(r: IterationRound) => void>();

/** Calls `listener` after every round of every table iteration until the returned function is called. */
export function onIterationRound(listener: (r: IterationRound) => void): () => void {
  listeners.add(listener);
  return () => { listeners.delete(listener); };
}

/** @internal Reports a finished round (state.ts). */
export function noteIterationRound(round: number, rows: number): void {
  if (listeners.size === 0) return;
  const r: IterationRound = { round, rows };
  for (const l of listeners) l(r);
}

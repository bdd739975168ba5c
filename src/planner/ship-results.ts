/**
 * Which table sources hold a worker stage's result (docs/multi-core.md): the batches a run's
 * stage returned (ship-run.ts), and EXPLAIN's placeholder for a stage it does not run
 * (ship-choose.ts). A stage result is never distributed again, and a later stage decided over
 * one depends on its rows, which EXPLAIN only estimates.
 *
 * Decision: a registry of source objects (weakly held), not a naming convention on table ids,
 * so the coordinator and EXPLAIN recognise the same thing without importing each other.
 */
import type { TableSource } from '../io/source.js';

const results = new WeakMap<TableSource, string>();

/** Records that `src` holds the result of the stage named `stage` ("stage 1"). */
export function markStageResult(src: TableSource, stage: string): void {
  results.set(src, stage);
}

/** The stage whose result `src` holds, or undefined for any other source. */
export function stageResultOf(src: TableSource): string | undefined {
  return results.get(src);
}

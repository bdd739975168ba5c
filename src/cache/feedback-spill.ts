/**
 * Feedback queues of iterations spill into the cache's spill area.
 *
 * Decision: one spill area per environment holds both cache blocks and
 * iteration feedback, so one disk budget and one cleanup (owner.json, exit and
 * signal hooks) cover every file eddy writes; feedback files live under their
 * own pseudo-instance directories (`instance-1000000` and up, one per run) and are checksummed
 * like cache blocks, so a corrupted file fails the iteration with a clear
 * error instead of feeding it wrong records.
 */
import type { RecordBatch } from 'apache-arrow';
import type { BatchSpill } from '../exec/runtime.js';
import type { SpillArea, SpillFile } from './spill.js';

/** Instance numbers of feedback spills start here (cache service instances are 0..n−1). */
const FEEDBACK_INSTANCE_BASE = 1_000_000;
let runs = 0;

/** A spill store for one run's feedback queues in `area`. */
export function feedbackSpill(area: SpillArea): BatchSpill {
  const instance = FEEDBACK_INSTANCE_BASE + runs++;
  let n = 0;
  return {
    write(batch: RecordBatch): object | string {
      return area.write(instance, `feedback-${n++}`, batch);
    },
    read(handle: object): RecordBatch {
      try {
        return area.read(handle as SpillFile);
      } catch (e) {
        throw new Error(`a spilled feedback batch could not be read back: ${(e as Error).message}`, { cause: e });
      }
    },
    remove(handle: object): void {
      area.removeSync(handle as SpillFile);
    },
  };
}

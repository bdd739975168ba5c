/**
 * Watermark bookkeeping of an operator instance (split from scheduler.ts):
 * after a channel's watermark rose, the instance's per-input minimum may
 * rise (then `onInputEnd` / `onInputWatermark`), and its own minimum over all
 * inputs may rise (then `onEpochWatermarkIncremented`, or at END
 * `onIterationTerminated` and `finish`), and is forwarded downstream. Every
 * step waits behind the instance's pending work (`after`), so a watermark
 * never overtakes output it covers.
 */
import { END } from '../operator.js';
import type { OpInstance } from './instance.js';
import type { Run } from './scheduler.js';

/** Re-evaluates an instance's inputs after a channel watermark changed. */
export function evaluateWatermark(run: Run, c: OpInstance, input: number): void {
  if (c.work.length > 0) { c.after(() => evaluateWatermark(run, c, input)); return; }
  let inMin = END;
  for (const x of c.inputChannels[input]!) if (x.wm < inMin) inMin = x.wm;
  if (inMin > c.inputWatermarks[input]!) {
    c.inputWatermarks[input] = inMin;
    if (inMin >= END && !c.inputEnded[input]) {
      c.inputEnded[input] = true;
      c.epoch = c.lastEpoch();
      if (c.op.onInputEnd) run.call(c, 'onInputEnd', c.op.onInputEnd, input);
    }
    if (c.op.onInputWatermark) {
      c.epoch = inMin >= END ? c.lastEpoch() : inMin;
      run.call(c, 'onInputWatermark', c.op.onInputWatermark, input, inMin);
    }
    if (c.work.length > 0) { c.after(() => evaluateWatermark(run, c, input)); return; }
  }
  let min = END;
  for (const chs of c.inputChannels) for (const x of chs) if (x.wm < min) min = x.wm;
  if (c.vertex.inputs.length === 0) min = END;
  if (min <= c.watermark) return;
  c.watermark = min;
  const manual = c.vertex.manualWatermarks === true;
  if (min >= END) {
    if (c.op.onIterationTerminated && !manual && c.inIteration) {
      c.epoch = END;
      run.call(c, 'onIterationTerminated', c.op.onIterationTerminated);
    }
    // Closures only when work is pending (the common small query has none: no allocation).
    if (c.work.length > 0) c.after(() => finish(run, c)); else finish(run, c);
  } else if (!manual) {
    c.epoch = min;
    if (c.op.onEpochWatermarkIncremented) run.call(c, 'onEpochWatermarkIncremented', c.op.onEpochWatermarkIncremented, min);
    if (c.work.length > 0) c.after(() => c.forwardWatermark(min)); else c.forwardWatermark(min);
  }
}

/** Calls `finish`, then (behind any output it deferred) marks the instance finished and forwards END. */
function finish(run: Run, c: OpInstance): void {
  c.epoch = c.lastEpoch();
  run.call(c, 'finish', c.op.finish);
  if (c.work.length > 0) c.after(() => done(c)); else done(c);
}

function done(c: OpInstance): void {
  c.finished = true;
  if (c.forwarded < END) c.forwardWatermark(END);
}

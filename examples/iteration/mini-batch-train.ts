/**
 * The Train operator of FLIP-176's online (unbounded) examples, shared by
 * the synchronous and the asynchronous one: it buffers the samples that
 * stream in and, whenever it holds a model addressed to it and a full
 * mini-batch, emits the gradient of that mini-batch (tagged with its task)
 * and forgets both — then waits for the next model.
 *
 * Decision: the FLIP makes Train an `InputSelectable` that reads data until
 * its mini-batch is full and then the model; the stream API has no input
 * selection, so Train buffers instead. The runtime pulls a never-ending
 * source when the loop has nothing else to do, so the buffer stays near one
 * source batch; should a stream still outrun training, the buffer is a window
 * of the freshest `window` rows and older samples are dropped (`dropped`
 * counts them), as online learners do with data that arrives faster than
 * they train. A model row whose `task`
 * is −1 is for every Train task (the synchronous Parameters broadcasts one
 * model), otherwise only for the task it names (the asynchronous one answers
 * the sender).
 */
import type { RecordBatch } from 'apache-arrow';
import type { Collector, CoProcessOperator } from '../../src/index.js';
import { DIM, addGradient, rowOf, vec } from './linear-model.js';

/** Buffer statistics over all Train subtasks of one run. */
export interface TrainStats {
  maxBuffered: number;
  dropped: number;
}

/** @param window the most samples a Train task keeps (≥ batchSize) */
export function miniBatchTrain(batchSize: number, window: number, stats: TrainStats): () => CoProcessOperator {
  return () => {
    let model: number[] | undefined;
    const buffer: RecordBatch[] = [];
    let offset = 0; // rows of buffer[0] already used
    let buffered = 0;
    const tryUpdate = (task: number, out: Collector): void => {
      if (model === undefined || buffered < batchSize) return;
      const delta = new Array<number>(DIM).fill(0);
      let n = 0;
      while (n < batchSize) {
        const b = buffer[0]!;
        const take = Math.min(batchSize - n, b.numRows - offset);
        n += addGradient(b, model, delta, offset, offset + take);
        offset += take;
        if (offset >= b.numRows) { buffer.shift(); offset = 0; }
      }
      buffered -= n;
      model = undefined;
      out.collect(rowOf('d', delta, { n, task }));
    };
    return {
      processElement1(m, ctx, out) {
        const task = m['task'] as number;
        if (task >= 0 && task !== ctx.subtaskIndex) return;
        model = vec(m, 'a');
        tryUpdate(ctx.subtaskIndex, out);
      },
      processBatch2(b, ctx, out) {
        buffer.push(b);
        buffered += b.numRows;
        while (buffered - (buffer[0]!.numRows - offset) >= window) { // drop the oldest batch while the rest still fill the window
          const old = buffer.shift()!;
          buffered -= old.numRows - offset;
          stats.dropped += old.numRows - offset;
          offset = 0;
        }
        if (buffered > stats.maxBuffered) stats.maxBuffered = buffered;
        tryUpdate(ctx.subtaskIndex, out);
      },
    };
  };
}

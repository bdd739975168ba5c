/**
 * TerminateOnMaxIterOrTol at parallelism > 1: the one loss of a round
 * reaches one of the criteria's subtasks; the others saw no loss and must
 * not keep the iteration going (Flink ML: a subtask without a loss emits
 * nothing), so the iteration stops the round after the loss is at most tol,
 * as at parallelism 1.
 */
import { describe, expect, it } from 'vitest';
import { Iterations, TerminateOnMaxIterOrTol } from '../../src/index.js';
import { callbacks, envOf, plusOne, withEpochs, wmsUpTo } from './helpers/streams.js';

describe('TerminateOnMaxIterOrTol at parallelism 4', () => {
  for (const route of ['rebalance', 'keyBy'] as const) {
    it(`stops once the loss is at most tol, whichever subtask gets it (${route})`, async () => {
      const env = envOf(4);
      const log: string[] = [];
      const [out] = Iterations.iterateBoundedStreamsUntilTermination([env.fromRows([{ v: 0 }])], [], {}, ([x]) => {
        const m = plusOne(x!, log).setParallelism(1);
        // loss of round e = 1 / 2^(e+1): ≤ 0.1 from round 3 (0.0625) on.
        const loss = m.map((r) => ({ loss: 1 / 2 ** (r['v'] as number), r: r['v'] }), { schema: { loss: 'DOUBLE', r: 'INTEGER' } }).setParallelism(1);
        const routed = route === 'rebalance' ? loss.rebalance() : loss.keyBy('r');
        return { feedbackVariableStreams: [m], outputStreams: [withEpochs(m).setParallelism(1)], terminationCriteria: routed.process(() => new TerminateOnMaxIterOrTol(100, 0.1)).setParallelism(4) };
      });
      expect((await out!.collect()).map((r) => r['e'])).toEqual([0, 1, 2, 3, 4]);
      expect(callbacks(log)).toEqual(wmsUpTo(4));
    });
  }

  it('still stops at maxIter when every loss is above tol', async () => {
    const env = envOf(4);
    const log: string[] = [];
    const [out] = Iterations.iterateBoundedStreamsUntilTermination([env.fromRows([{ v: 0 }])], [], {}, ([x]) => {
      const m = plusOne(x!, log).setParallelism(1);
      const loss = m.map(() => ({ loss: 5 }), { schema: { loss: 'DOUBLE' } }).setParallelism(1);
      return { feedbackVariableStreams: [m], outputStreams: [m], terminationCriteria: loss.rebalance().process(() => new TerminateOnMaxIterOrTol(6, 0.1)).setParallelism(4) };
    });
    await out!.collect();
    expect(callbacks(log)).toEqual(wmsUpTo(6));
  });
});

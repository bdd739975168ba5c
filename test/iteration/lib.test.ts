/**
 * The helper operators (TerminateOnMaxIterOrTol, ForwardInputsOfLastRound),
 * the replay-everything entry point and an iteration over two variable
 * streams aligned by one coordinator.
 */
import { describe, expect, it } from 'vitest';
import { ForwardInputsOfLastRound, Iterations, TerminateOnMaxIter, TerminateOnMaxIterOrTol } from '../../src/index.js';
import type { ProcessOperator } from '../../src/iteration/stream/process.js';
import { callbacks, envOf, plusOne, withEpochs, wmsUpTo } from './helpers/streams.js';

describe('iteration helpers', () => {
  it('TerminateOnMaxIterOrTol stops once the loss is at most tol (the round after)', async () => {
    const env = envOf();
    const log: string[] = [];
    const [out] = Iterations.iterateBoundedStreamsUntilTermination([env.fromRows([{ v: 0 }])], [], {}, ([x]) => {
      const m = plusOne(x!, log);
      // loss of round e = 1 / 2^(e+1): ≤ 0.1 from round 3 (0.0625) on.
      const loss = m.map((r) => ({ loss: 1 / 2 ** (r['v'] as number) }), { schema: { loss: 'DOUBLE' } });
      return { feedbackVariableStreams: [m], outputStreams: [withEpochs(m)], terminationCriteria: loss.process(() => new TerminateOnMaxIterOrTol(100, 0.1)) };
    });
    expect((await out!.collect()).map((r) => r['e'])).toEqual([0, 1, 2, 3, 4]);
    expect(callbacks(log)).toEqual(wmsUpTo(4));
  });

  it('TerminateOnMaxIterOrTol stops at maxIter, and a second loss in one round is an error', async () => {
    const env = envOf();
    const log: string[] = [];
    const [out] = Iterations.iterateBoundedStreamsUntilTermination([env.fromRows([{ v: 0 }])], [], {}, ([x]) => {
      const m = plusOne(x!, log);
      return { feedbackVariableStreams: [m], outputStreams: [m], terminationCriteria: m.map(() => ({ loss: 5 }), { schema: { loss: 'DOUBLE' } }).process(() => new TerminateOnMaxIterOrTol(3, 0.1)) };
    });
    await out!.collect();
    expect(callbacks(log)).toEqual(wmsUpTo(3));
    const [bad] = Iterations.iterateBoundedStreamsUntilTermination([env.fromRows([{ v: 0 }, { v: 1 }])], [], {}, ([x]) => {
      const m = x!.map((r) => r);
      return { feedbackVariableStreams: [m], outputStreams: [m], terminationCriteria: m.map(() => ({ loss: 5 }), { schema: { loss: 'DOUBLE' } }).process(() => new TerminateOnMaxIterOrTol(3, 0.1)) };
    });
    await expect(bad!.collect()).rejects.toThrow(/second loss value in round 0/);
  });

  it('ForwardInputsOfLastRound emits the last completed round\'s inputs at termination', async () => {
    const env = envOf();
    const [out] = Iterations.iterateBoundedStreamsUntilTermination([env.fromRows([{ v: 0 }, { v: 100 }])], [], {}, ([x]) => {
      const m = x!.map((r) => ({ v: (r['v'] as number) + 1 }));
      return { feedbackVariableStreams: [m], outputStreams: [withEpochs(m.process(() => new ForwardInputsOfLastRound()))], terminationCriteria: m.process(() => new TerminateOnMaxIter(4)) };
    });
    // Rounds 0..3 complete; round 3 saw 4 and 104; the terminating round's records (5, 105) are not forwarded.
    expect((await out!.collect()).map((r) => `${String(r['v'])}@${String(r['e'])}`).sort()).toEqual(['104@-1', '4@-1']);
  });
});

describe('entry points', () => {
  it('iterateAndReplayBoundedStreamsUntilTermination replays every data stream each round', async () => {
    const env = envOf(2);
    let total = 0;
    const [out] = Iterations.iterateAndReplayBoundedStreamsUntilTermination([env.fromRows([{ v: 0 }], { parallelism: 2 })], [env.fromRows([{ v: 1 }, { v: 2 }], { parallelism: 2 }), env.fromRows([{ v: 10 }])], ([x], [a, b]) => {
      const sum = a!.union(b!).process((): ProcessOperator => ({ processElement(r) { total += r['v'] as number; } })).setParallelism(1);
      return { feedbackVariableStreams: [x!.map((r) => r)], outputStreams: [sum], terminationCriteria: x!.process(() => new TerminateOnMaxIter(3)) };
    });
    await out!.collect();
    expect(total).toBe(3 * 13);
  });

  it('two variable streams: one coordinator aligns both heads; termination needs both feedbacks empty', async () => {
    const env = envOf();
    const logA: string[] = [];
    const logB: string[] = [];
    const [a, b] = Iterations.iterateBoundedStreamsUntilTermination([env.fromRows([{ v: 0 }]), env.fromRows([{ v: 0 }], { parallelism: 2 }).setParallelism(2)], [], {}, ([x, y]) => {
      const ma = plusOne(x!, logA);
      const mb = plusOne(y!, logB).setParallelism(2);
      return {
        feedbackVariableStreams: [ma.filter((r) => (r['v'] as number) < 2), mb.filter((r) => (r['v'] as number) < 5).setParallelism(2)],
        outputStreams: [ma, mb],
      };
    });
    // Each job runs the whole iteration (both heads), whichever output it collects.
    for (const [out, want] of [[a!, [1, 2]], [b!, [1, 2, 3, 4, 5]]] as const) {
      logA.length = 0;
      logB.length = 0;
      expect((await out.collect()).map((r) => r['v']).sort()).toEqual(want);
      // A's feedback ends after round 1, B's after round 4: both see rounds 0..4.
      expect(callbacks(logA)).toEqual(wmsUpTo(5));
      expect(callbacks(logB, 0)).toEqual(wmsUpTo(5));
      expect(callbacks(logB, 1)).toEqual(wmsUpTo(5));
    }
  });
});

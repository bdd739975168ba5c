/**
 * Termination criteria made only from constants — from data streams, not
 * from the variables (a Flink ML ITCase): criteria records count in the
 * round that carries their epoch, whatever stream they come from.
 * - From not-replayed data: records only in round 0, so epoch 1 goes on
 *   and epoch 2 terminates (ITERATION-SEMANTICS.md rule 3): callbacks 0, 1.
 * - From replayed data: records in every round, so the criteria never stops
 *   the loop; the feedback (filter v < 5) does, at epoch 5.
 */
import { describe, expect, it } from 'vitest';
import { Iterations, ReplayableDataStreamList } from '../../src/iteration/index.js';
import { callbacks, envOf, plusOne, wmsUpTo } from './helpers/streams.js';

describe.each([1, 3])('criteria made only from constants (p%i)', (p) => {
  it('from not-replayed data: the iteration ends at epoch 2', { timeout: 10_000 }, async () => {
    const env = envOf(p);
    const log: string[] = [];
    const [out] = Iterations.iterateBoundedStreamsUntilTermination([env.fromRows([{ v: 0 }])], ReplayableDataStreamList.notReplay(env.fromRows([{ v: 1 }, { v: 2 }, { v: 3 }], { parallelism: p })), {}, ([x], [d]) => {
      const m = plusOne(x!, log).setParallelism(1);
      return { feedbackVariableStreams: [m], outputStreams: [m], terminationCriteria: d!.map((r) => ({ c: r['v'] }), { schema: { c: 'INTEGER' } }) };
    });
    expect((await out!.collect()).map((r) => r['v'])).toEqual([1, 2, 3]); // rounds 0, 1 and the terminating round 2
    expect(callbacks(log)).toEqual(wmsUpTo(2));
  });

  it('from replayed data: the criteria never stops it; the empty feedback at epoch 5 does', async () => {
    const env = envOf(p);
    const log: string[] = [];
    const [out] = Iterations.iterateBoundedStreamsUntilTermination([env.fromRows([{ v: 0 }])], ReplayableDataStreamList.replay(env.fromRows([{ v: 1 }, { v: 2 }], { parallelism: p })), {}, ([x], [d]) => {
      const m = plusOne(x!, log).setParallelism(1);
      return { feedbackVariableStreams: [m.filter((r) => (r['v'] as number) < 5).setParallelism(1)], outputStreams: [m], terminationCriteria: d!.map((r) => ({ c: r['v'] }), { schema: { c: 'INTEGER' } }) };
    });
    expect((await out!.collect()).map((r) => r['v'])).toEqual([1, 2, 3, 4, 5]);
    expect(callbacks(log)).toEqual(wmsUpTo(5));
  });
});

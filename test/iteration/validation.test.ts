/**
 * S13: each row of ITERATION-SEMANTICS.md's validation table raises its
 * error when the iteration is built, before anything runs.
 */
import { describe, expect, it } from 'vitest';
import { Iterations, ReplayableDataStreamList, TerminateOnMaxIter, forEachRound } from '../../src/iteration/index.js';
import type { DataStream } from '../../src/iteration/stream/data-stream.js';
import { envOf } from './helpers/streams.js';

const V = { v: 'INTEGER' } as const;

describe('S13 validation at build time', () => {
  it('no variable stream', () => {
    expect(() => Iterations.iterateBoundedStreamsUntilTermination([], [], {}, () => ({ feedbackVariableStreams: [], outputStreams: [] })))
      .toThrow(/there should be at least one variable stream/);
  });

  it('the number of feedback streams does not match', () => {
    const env = envOf();
    expect(() => Iterations.iterateBoundedStreamsUntilTermination([env.fromRows([{ v: 1 }])], [], {}, ([x]) => ({
      feedbackVariableStreams: [x!.map((r) => r), x!.map((r) => r)], outputStreams: [],
    }))).toThrow(/the number of feedback streams 2 does not match the initialized one 1/);
  });

  it('a feedback stream with another parallelism than its initial stream', () => {
    const env = envOf();
    expect(() => Iterations.iterateBoundedStreamsUntilTermination([env.fromRows([{ v: 1 }])], [], {}, ([x]) => ({
      feedbackVariableStreams: [x!.map((r) => r).setParallelism(2)], outputStreams: [],
    }))).toThrow(/the feedback stream 0 has parallelism 2, the initial stream 1/);
  });

  it('a feedback that is a bare union', () => {
    const env = envOf();
    expect(() => Iterations.iterateBoundedStreamsUntilTermination([env.fromRows([{ v: 1 }])], [], {}, ([x]) => ({
      feedbackVariableStreams: [x!.map((r) => r).union(x!.map((r) => r))], outputStreams: [],
    }))).toThrow(/the feedback must come from a single operator; add a map after the union/);
  });

  it('a criteria given to an unbounded iteration', () => {
    const env = envOf();
    expect(() => Iterations.iterateUnboundedStreams([env.fromRows([{ v: 1 }])], [], ([x]) => {
      const m = x!.map((r) => r);
      return { feedbackVariableStreams: [m], outputStreams: [], terminationCriteria: m.process(() => new TerminateOnMaxIter(2)) };
    })).toThrow(/this iteration type does not support a termination criteria/);
  });

  it('a criteria not created inside the body', () => {
    const env = envOf();
    const outside = env.fromRows([{ v: 1 }]).process(() => new TerminateOnMaxIter(2));
    expect(() => Iterations.iterateBoundedStreamsUntilTermination([env.fromRows([{ v: 1 }])], [], {}, ([x]) => ({
      feedbackVariableStreams: [x!.map((r) => r)], outputStreams: [], terminationCriteria: outside,
    }))).toThrow(/the termination criteria must be a stream of the body/);
  });

  it('a source created inside the body', () => {
    const env = envOf();
    expect(() => Iterations.iterateBoundedStreamsUntilTermination([env.fromRows([{ v: 1 }])], [], {}, ([x]) => ({
      feedbackVariableStreams: [x!.union(env.fromRows([{ v: 2 }])).map((r) => r)], outputStreams: [],
    }))).toThrow(/unsupported inside an iteration body/);
  });

  it('a sink (an action) inside the body', async () => {
    const env = envOf();
    let failure: Promise<unknown> | undefined;
    Iterations.iterateBoundedStreamsUntilTermination([env.fromRows([{ v: 1 }])], [], {}, ([x]) => {
      const m = x!.map((r) => r);
      failure = m.collect();
      failure.catch(() => {});
      return { feedbackVariableStreams: [m], outputStreams: [] };
    });
    await expect(failure).rejects.toThrow(/unsupported inside an iteration body/);
  });

  it('forEachRound outside a body, and wrong arguments', () => {
    const env = envOf();
    const s = env.fromRows([{ v: 1 }]);
    expect(() => forEachRound([s], (xs) => xs)).toThrow(/forEachRound must be called inside an iteration body/);
    expect(() => Iterations.iterateBoundedStreamsUntilTermination([s], ReplayableDataStreamList.replay(s), {}, 'nope' as unknown as () => never)).toThrow(/the body must be a function/);
    expect(() => Iterations.iterateBoundedStreamsUntilTermination([s], [], {}, () => ({ feedbackVariableStreams: [1 as unknown as DataStream], outputStreams: [] }))).toThrow(/feedbackVariableStreams\[0\] is not a DataStream/);
  });

  it('a failed build leaves the environment usable (no body scope left behind)', async () => {
    const env = envOf();
    expect(() => Iterations.iterateBoundedStreamsUntilTermination([env.fromRows([{ v: 1 }])], [], {}, () => { throw new Error('boom'); })).toThrow(/boom/);
    expect(await env.fromRows([{ v: 3 }], { schema: V }).collect()).toEqual([{ v: 3 }]);
  });
});

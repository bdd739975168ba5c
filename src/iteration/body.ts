/**
 * What an iteration body is and returns, and the data-stream list that says
 * which data streams are replayed (Flink ML's IterationBody,
 * IterationBodyResult and ReplayableDataStreamList).
 *
 * Decision: plain arrays of DataStreams in and out (TypeScript has no need
 * for Flink's DataStreamList wrapper); the body receives the replayed data
 * streams first, in the order given, then the others.
 */
import { ValidationError } from '../relnode/errors.js';
import type { DataStream } from './stream/data-stream.js';

/** What the body function returns. */
export interface IterationBodyResult {
  /** One per initial variable stream, in the same order, each with the parallelism of its initial stream. */
  readonly feedbackVariableStreams: readonly DataStream[];
  /** The iteration's outputs: they stream out as produced and end when the iteration terminates. */
  readonly outputStreams: readonly DataStream[];
  /**
   * Optional: the iteration terminates at epoch e when this stream produced
   * no record in round e − 1 (bounded iterations only). Must be made inside the body.
   */
  readonly terminationCriteria?: DataStream;
}

/**
 * The body of an iteration: called once, while the job graph is built, with
 * the variable streams (each initial variable stream merged with its
 * feedback) and the data streams.
 */
export type IterationBody = (variableStreams: DataStream[], dataStreams: DataStream[]) => IterationBodyResult;

/**
 * The data streams of a bounded iteration, each replayed every round or not:
 * `ReplayableDataStreamList.replay(a, b).andNotReplay(c)` or
 * `ReplayableDataStreamList.notReplay(c)`.
 */
export class ReplayableDataStreamList {
  private constructor(
    /** Streams re-emitted in every round e ≥ 1 with epoch e. */
    readonly replayedStreams: readonly DataStream[],
    /** Streams seen once, in round 0 (cache them, e.g. with `ctx.getListState`). */
    readonly nonReplayedStreams: readonly DataStream[],
  ) {}

  /** Data streams replayed in every round (then `.andNotReplay(...)` for the others). */
  static replay(...streams: DataStream[]): ReplayableDataStreamList {
    return new ReplayableDataStreamList(checked(streams, 'replay'), []);
  }

  /** Data streams that are not replayed: seen once, in round 0. */
  static notReplay(...streams: DataStream[]): ReplayableDataStreamList {
    return new ReplayableDataStreamList([], checked(streams, 'notReplay'));
  }

  /** Adds data streams that are not replayed. */
  andNotReplay(...streams: DataStream[]): ReplayableDataStreamList {
    return new ReplayableDataStreamList(this.replayedStreams, [...this.nonReplayedStreams, ...checked(streams, 'andNotReplay')]);
  }
}

function checked(streams: readonly DataStream[], what: string): DataStream[] {
  streams.forEach((s, i) => {
    if (s === null || typeof s !== 'object' || !('node' in s)) throw new ValidationError(`ReplayableDataStreamList.${what}: argument ${i} is not a DataStream`);
  });
  return [...streams];
}

/**
 * The entry points of the iteration library (FLIP-176 as shipped in Flink
 * ML): bounded iterations until termination (with or without replay),
 * unbounded iterations, and `forEachRound`.
 *
 * Decision: each entry point checks its arguments, then builds the loop in
 * the streams' graph (loop.ts) while the user's body runs under a body
 * scope, and hands back the body's output streams — nothing runs until an
 * action (collect, rows, batches) runs one of them. All validation errors
 * are raised here, at build time (ITERATION-SEMANTICS.md "Validation").
 */
import { ValidationError } from '../relnode/errors.js';
import type { ListStateOptions } from './list-state.js';
import { cachedListStateProvider } from './list-state.js';
import { DataStream, isUnion, streamOf } from './stream/data-stream.js';
import type { StreamEnvironment } from './stream/environment.js';
import { ReplayableDataStreamList, type IterationBody, type IterationBodyResult } from './body.js';
import { OperatorLifeCycle, type IterationConfig } from './config.js';
import { buildLoop, withPerRoundScope, type StreamRef } from './loop.js';
import * as v from './validation.js';

function refOf(s: DataStream): StreamRef {
  return { node: s.node, output: s.output };
}

function checkStreams(what: string, streams: unknown, label: string): DataStream[] {
  if (!Array.isArray(streams)) throw new ValidationError(`${what}: ${label} must be an array of DataStreams, got ${String(streams)}`);
  streams.forEach((s, i) => { if (!(s instanceof DataStream)) throw new ValidationError(`${what}: ${label}[${i}] is not a DataStream`); });
  return streams as DataStream[];
}

/** Installs the cache-backed list state on an environment that has none yet. */
function ensureListState(env: StreamEnvironment): void {
  if (env.listState === undefined) env.listState = cachedListStateProvider(env.cache?.spillArea);
}

function replayCache(env: StreamEnvironment): () => ListStateOptions {
  return () => (env.cache !== undefined ? { spill: env.cache.spillArea } : {});
}

interface Build {
  readonly what: string;
  readonly initVariables: DataStream[];
  readonly replayed: DataStream[];
  readonly plain: DataStream[];
  readonly lifecycle: OperatorLifeCycle;
  readonly allowCriteria: boolean;
  readonly body: IterationBody;
}

function build(b: Build): DataStream[] {
  if (typeof b.body !== 'function') throw new ValidationError(`${b.what}: the body must be a function (variables, data) => ({ feedbackVariableStreams, outputStreams })`);
  if (b.initVariables.length === 0) throw v.noVariableStream();
  const env = b.initVariables[0]!.env;
  for (const s of [...b.initVariables, ...b.replayed, ...b.plain]) if (s.env !== env) throw new ValidationError(`${b.what}: all streams must come from one stream environment`);
  ensureListState(env);
  const plainByRef = new Map<StreamRef, DataStream>();
  const data = [
    ...b.replayed.map((s) => ({ ref: refOf(s), replay: true })),
    ...b.plain.map((s) => { const ref = refOf(s); plainByRef.set(ref, s); return { ref, replay: false }; }),
  ];
  let outputs: readonly DataStream[] = [];
  buildLoop({
    graph: env.graph,
    initVariables: b.initVariables.map(refOf),
    data,
    lifecycle: b.lifecycle,
    allowCriteria: b.allowCriteria,
    replayCache: replayCache(env),
    isBareUnion: (r) => isUnion(streamOf(env, r.node, r.output)),
    body: (variables, dataRefs) => {
      const result: IterationBodyResult = b.body(
        variables.map((r) => streamOf(env, r.node, r.output)),
        dataRefs.map((r) => plainByRef.get(r) ?? streamOf(env, r.node, r.output)),
      );
      if (result === null || typeof result !== 'object') throw new ValidationError(`${b.what}: the body must return { feedbackVariableStreams, outputStreams }`);
      const feedback = checkStreams(b.what, result.feedbackVariableStreams, 'feedbackVariableStreams');
      outputs = checkStreams(b.what, result.outputStreams, 'outputStreams');
      const criteria = result.terminationCriteria;
      if (criteria !== undefined && !(criteria instanceof DataStream)) throw new ValidationError(`${b.what}: terminationCriteria must be a DataStream`);
      return { feedback: feedback.map(refOf), outputs: outputs.map(refOf), ...(criteria !== undefined ? { criteria: refOf(criteria) } : {}) };
    },
  });
  return [...outputs];
}

/** The iteration entry points (Flink ML's `Iterations`). */
export class Iterations {
  private constructor() {}

  /**
   * Iterates over bounded streams until termination: when a round's feedback
   * is empty, or the termination criteria produced no record in the round
   * before. `data` says which data streams are replayed every round
   * (`ReplayableDataStreamList.replay(...).andNotReplay(...)`) — a plain
   * array means none is. Returns the body's output streams.
   */
  static iterateBoundedStreamsUntilTermination(initVariables: DataStream[], data: ReplayableDataStreamList | DataStream[], config: IterationConfig, body: IterationBody): DataStream[] {
    const what = 'iterateBoundedStreamsUntilTermination';
    const list = data instanceof ReplayableDataStreamList ? data : ReplayableDataStreamList.notReplay(...checkStreams(what, data, 'data'));
    const lifecycle = config?.operatorLifeCycle ?? OperatorLifeCycle.ALL_ROUND;
    if (lifecycle !== OperatorLifeCycle.ALL_ROUND && lifecycle !== OperatorLifeCycle.PER_ROUND) throw new ValidationError(`${what}: operatorLifeCycle must be OperatorLifeCycle.ALL_ROUND or OperatorLifeCycle.PER_ROUND, got ${String(lifecycle)}`);
    return build({
      what, initVariables: checkStreams(what, initVariables, 'initVariables'), replayed: [...list.replayedStreams], plain: [...list.nonReplayedStreams],
      lifecycle, allowCriteria: true, body,
    });
  }

  /**
   * Iterates over streams of which some never end: all-round operators, no
   * replay, no termination criteria. Until the initial variable streams end,
   * no epoch callbacks happen, yet records go round the loop.
   */
  static iterateUnboundedStreams(initVariables: DataStream[], data: DataStream[], body: IterationBody): DataStream[] {
    const what = 'iterateUnboundedStreams';
    return build({
      what, initVariables: checkStreams(what, initVariables, 'initVariables'), replayed: [], plain: checkStreams(what, data, 'data'),
      lifecycle: OperatorLifeCycle.ALL_ROUND, allowCriteria: false, body,
    });
  }

  /** The FLIP's replay-everything form: every data stream is replayed in every round; all-round operators. */
  static iterateAndReplayBoundedStreamsUntilTermination(initVariables: DataStream[], data: DataStream[], body: IterationBody): DataStream[] {
    const what = 'iterateAndReplayBoundedStreamsUntilTermination';
    return build({
      what, initVariables: checkStreams(what, initVariables, 'initVariables'), replayed: checkStreams(what, data, 'data'), plain: [],
      lifecycle: OperatorLifeCycle.ALL_ROUND, allowCriteria: true, body,
    });
  }
}

/**
 * Makes the operators `subBody` creates per-round (one instance per round,
 * closed at the round's end) inside an all-round body. Returns what
 * `subBody` returns.
 */
export function forEachRound(inputs: DataStream[], subBody: (inputs: DataStream[]) => DataStream[]): DataStream[] {
  const streams = checkStreams('forEachRound', inputs, 'inputs');
  if (streams.length === 0) throw new ValidationError('forEachRound needs at least one input stream');
  return withPerRoundScope(streams[0]!.env.graph, () => subBody(streams));
}

/**
 * Hosts a DataStream-API job (an iteration) inside a planned query: the
 * `lower` step of the training table functions.
 *
 * Decision: the training is written with the stream API (Iterations,
 * list state, TerminateOnMaxIter…) in a private stream environment whose
 * inputs are "external" stream nodes bound to the planner's already-lowered
 * input vertices; `compileStreamInto` then adds the stream nodes to the
 * planner's JobGraphBuilder, so the query and the iteration are one job on
 * one core (no nested run, no copy of the input). Edges are always given a
 * partitioner (never the stream environment's default edges, which are
 * settled only by its own actions).
 */
import type { JobGraphBuilder, Partitioner } from '../exec/job.js';
import type { Schema } from '../relnode/types.js';
import { cachedListStateProvider } from '../iteration/list-state.js';
import { DataStream, streamOf } from '../iteration/stream/data-stream.js';
import { StreamEnvironment } from '../iteration/stream/environment.js';
import { compileStreamInto } from '../iteration/stream/graph.js';

/** The planner's inputs as streams, and the environment to build on. */
export interface HostedInputs {
  readonly env: StreamEnvironment;
  readonly inputs: readonly DataStream[];
}

/** A view of `s` whose consumer reads it with `partitioner`. */
export function partitioned(s: DataStream, partitioner: Partitioner): DataStream {
  return new DataStream(s.env, s.node, s.output, partitioner);
}

/** A forward view of `s` (same subtask to same subtask; equal parallelism). */
export function forwardOf(s: DataStream): DataStream {
  return partitioned(s, { kind: 'forward' });
}

/**
 * Builds a stream job over the planner's input vertices and adds it to `b`;
 * returns the vertex of the stream `build` returns (a main output).
 */
export function hostStreamJob(b: JobGraphBuilder, vertices: readonly number[], schemas: readonly Schema[], parallelism: number, build: (h: HostedInputs) => DataStream): number {
  const env = new StreamEnvironment({ parallelism, listState: cachedListStateProvider(undefined) });
  const inputs = vertices.map((vertex, i) => streamOf(env, env.graph.add({
    name: 'Input', schema: schemas[i]!, parallelism: b.parallelismOf(vertex), run: { kind: 'external', vertex },
  })));
  const out = build({ env, inputs });
  if (out.output !== 0) throw new Error('internal error: a hosted stream job must end in a main output');
  return compileStreamInto(b, out.node).get(out.node)!;
}

/**
 * Assembles an iteration in the stream graph (ITERATION-SEMANTICS.md): one
 * head and one tail per variable stream, a replayer per replayed data
 * stream, the termination criteria counted by the first head, and the body's
 * nodes made under a BodyScope (sources rejected, per-round wrapping).
 *
 * Decision: everything here works on stream nodes, not DataStreams, so the
 * loop is one ordinary stream (sub)graph of runtime operators that the stream
 * compiler lowers to one JobGraph — no second scheduler. The DataStream entry
 * points (iterations.ts) are a thin layer over `buildLoop`.
 */
import type { Schema } from '../relnode/types.js';
import type { Partitioner } from '../exec/job.js';
import type { OperatorFactory } from '../exec/operator.js';
import type { BodyScope, StreamGraph, StreamNode } from './stream/graph.js';
import { OperatorLifeCycle } from './config.js';
import { HeadOperator } from './head.js';
import { TailOperator } from './tail.js';
import { ReplayOperator } from './replay.js';
import { perRoundFactory } from './per-round.js';
import type { ListStateOptions } from './list-state.js';
import * as v from './validation.js';

/** One stream of the graph: a node's output (0 = main, i ≥ 1 = side output i). */
export interface StreamRef {
  readonly node: StreamNode;
  readonly output: number;
}

/** What the body returns, at the node level. */
export interface LoopBodyResult {
  readonly feedback: readonly StreamRef[];
  readonly outputs: readonly StreamRef[];
  readonly criteria?: StreamRef;
}

export interface LoopSpec {
  readonly graph: StreamGraph;
  readonly initVariables: readonly StreamRef[];
  /** Data streams in the order the body receives them (replayed ones first). */
  readonly data: readonly { readonly ref: StreamRef; readonly replay: boolean }[];
  readonly lifecycle: OperatorLifeCycle;
  readonly allowCriteria: boolean;
  readonly body: (variables: StreamRef[], data: StreamRef[]) => LoopBodyResult;
  /** Where replay caches may spill (the environment's cache storage). */
  readonly replayCache?: () => ListStateOptions;
  /** Says whether a stream is a bare union of several (the feedback must come from one operator). */
  readonly isBareUnion?: (ref: StreamRef) => boolean;
}

/** The scope of one iteration body (or of a forEachRound part of it). */
export class IterationScope implements BodyScope {
  constructor(readonly iterationId: number, readonly lifecycle: OperatorLifeCycle) {}
  wrapOperator(factory: OperatorFactory): OperatorFactory {
    return this.lifecycle === OperatorLifeCycle.PER_ROUND ? perRoundFactory(factory) : factory;
  }
}

let nextIterationId = 0;

/** The schema of a node's output. */
export function schemaOfRef(r: StreamRef): Schema {
  return r.output === 0 ? r.node.schema : r.node.sideOutputs[r.output - 1]!;
}

const forward = { kind: 'forward' } as const;

/** Builds the loop and returns the body's output streams. */
export function buildLoop(spec: LoopSpec): StreamRef[] {
  const { graph } = spec;
  if (spec.initVariables.length === 0) throw v.noVariableStream();
  if (graph.currentScope !== undefined) throw v.unsupportedInBody('a nested iteration');
  const id = nextIterationId++;
  const heads: StreamNode[] = [];
  // Head run kinds stay mutable here: the first head gains its criteria input once the body returned one.
  const headRuns: { kind: 'operator'; factory: OperatorFactory; manualWatermarks: true; multiEpoch: true; feedbackInputs: number }[] = [];
  let criteriaNode: StreamNode | undefined;
  const variableSubtasks = (): number => heads.reduce((n, h) => n + h.parallelism, 0);
  const criteriaSubtasks = (): number => (criteriaNode !== undefined ? heads[0]!.parallelism : 0);
  const n = spec.initVariables.length;
  spec.initVariables.forEach((init, i) => {
    const schema = schemaOfRef(init);
    // Head i ≥ 1 reads head 0's watermark-only side output (a link), so its feedback is input 2.
    const feedbackInput = i === 0 ? 1 : 2;
    const run = {
      kind: 'operator' as const,
      factory: () => new HeadOperator({ iterationId: id, variableSubtasks, criteriaSubtasks, feedbackInput, criteriaInput: () => (i === 0 && criteriaNode !== undefined ? 2 : -1) }),
      manualWatermarks: true as const,
      multiEpoch: true as const,
      feedbackInputs: 1,
    };
    headRuns.push(run);
    const inputs: { node: StreamNode; partitioner: Partitioner; output: number }[] = [{ node: init.node, partitioner: forward, output: init.output }];
    if (i > 0) inputs.push({ node: heads[0]!, partitioner: { kind: 'broadcast' }, output: 1 });
    heads.push(graph.add({
      name: `Head${n > 1 ? i : ''}`,
      schema,
      parallelism: init.node.parallelism,
      run,
      inputs,
      sideOutputs: [schema],
      detail: `iteration ${id}`,
    }));
  });
  const replayed: StreamRef[] = [];
  const plain: StreamRef[] = [];
  for (const d of spec.data) {
    if (!d.replay) { plain.push(d.ref); continue; }
    const schema = schemaOfRef(d.ref);
    const cacheOptions = spec.replayCache ?? (() => ({}));
    const node = graph.add({
      name: 'Replay',
      schema,
      parallelism: d.ref.node.parallelism,
      run: { kind: 'operator', factory: () => new ReplayOperator(schema, cacheOptions), manualWatermarks: true, multiEpoch: true },
      inputs: [
        { node: d.ref.node, partitioner: forward, output: d.ref.output },
        { node: heads[0]!, partitioner: { kind: 'broadcast' }, output: 1 },
      ],
      detail: `iteration ${id}`,
    });
    replayed.push({ node, output: 0 });
  }
  const root = new IterationScope(id, spec.lifecycle);
  graph.currentScope = root;
  let result: LoopBodyResult;
  try {
    result = spec.body(heads.map((node) => ({ node, output: 0 })), [...replayed, ...plain]);
  } finally {
    graph.currentScope = undefined;
  }
  const fb = result.feedback;
  if (fb.length !== heads.length) throw v.feedbackCountMismatch(fb.length, heads.length);
  fb.forEach((f, i) => {
    if (spec.isBareUnion?.(f) === true) throw v.feedbackIsUnion();
    const want = heads[i]!.parallelism;
    if (f.node.parallelism !== want) throw v.feedbackParallelismMismatch(i, f.node.parallelism, want);
  });
  if (result.criteria !== undefined) {
    if (!spec.allowCriteria) throw v.criteriaNotSupported();
    const s = result.criteria.node.scope;
    if (!(s instanceof IterationScope) || s.iterationId !== id) throw v.criteriaNotInBody();
    if (spec.isBareUnion?.(result.criteria) === true) throw v.feedbackIsUnion();
  }
  fb.forEach((f, i) => {
    const tail = graph.add({
      name: `Tail${heads.length > 1 ? i : ''}`,
      schema: schemaOfRef(f),
      parallelism: f.node.parallelism,
      run: { kind: 'operator', factory: () => new TailOperator(), manualWatermarks: true },
      inputs: [{ node: f.node, partitioner: forward, output: f.output }],
      detail: `iteration ${id}`,
    });
    graph.connectFeedback(heads[i]!, tail, forward);
  });
  // The first head's further feedback inputs: the criteria (input 2), then links from the other heads.
  headRuns[0]!.feedbackInputs = 1 + (result.criteria !== undefined ? 1 : 0) + (n - 1);
  if (heads[0]!.run.kind !== 'operator' || heads[0]!.run.feedbackInputs !== headRuns[0]!.feedbackInputs) throw new Error('internal error: the head did not take its extra inputs');
  if (result.criteria !== undefined) {
    criteriaNode = result.criteria.node;
    graph.connectFeedback(heads[0]!, criteriaNode, { kind: 'rebalance' }, result.criteria.output);
  }
  for (let i = 1; i < n; i++) graph.connectFeedback(heads[0]!, heads[i]!, { kind: 'broadcast' }, 1);
  return result.outputs.map((o) => ({ node: o.node, output: o.output }));
}

/** Runs `subBody` with operators made per-round (forEachRound): only inside an iteration body. */
export function withPerRoundScope<T>(graph: StreamGraph, subBody: () => T): T {
  const outer = graph.currentScope;
  if (!(outer instanceof IterationScope)) throw v.forEachRoundOutsideBody();
  graph.currentScope = new IterationScope(outer.iterationId, OperatorLifeCycle.PER_ROUND);
  try {
    return subBody();
  } finally {
    graph.currentScope = outer;
  }
}

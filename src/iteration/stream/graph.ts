/**
 * The stream graph: what DataStream transformations and iteration entry
 * points build, and how it becomes one runtime JobGraph.
 *
 * Decision: a stream node lowers to exactly one runtime vertex (a source or
 * an operator with runtime factories), so the stream API adds no second
 * scheduler and no second operator contract — user operators are adapted to
 * the runtime's `Operator` when a node is made. Feedback inputs (an
 * iteration head's input from its tail) are connected after the tail exists
 * and always come after a node's regular inputs; they are the only edges
 * that may close a cycle. Compiling takes the upstream closure of the
 * stream being consumed (following feedback edges too), orders it
 * topologically ignoring feedback edges, and wires feedback last.
 *
 * Compiling into a given builder (`compileStreamInto`) is how a planned
 * query hosts a stream job (the ML table functions, src/ml): the query's
 * input vertices become "external" stream nodes (`kind: 'external'`, bound
 * to a vertex the builder already has), the stream nodes are added to the
 * planner's JobGraphBuilder after them, and the query consumes the output
 * node's vertex — one job on one core, no second run. An external node adds
 * no vertex; a standalone `compileStream` refuses one.
 */
import { ValidationError } from '../../relnode/errors.js';
import type { Schema } from '../../relnode/types.js';
import { JobGraphBuilder, type JobGraph, type Partitioner } from '../../exec/job.js';
import type { OperatorFactory, SourceFactory } from '../../exec/operator.js';

/** One input of a stream node. */
export interface StreamInput {
  readonly node: StreamNode;
  readonly partitioner: Partitioner;
  /** The producer's output: 0 = main, i ≥ 1 = side output i. */
  readonly output: number;
  /** A feedback edge (tail → head), connected with `StreamGraph.connectFeedback`. */
  readonly feedback: boolean;
}

/** How a node runs: a source or an operator, with runtime factories. */
export type StreamNodeKind =
  | { readonly kind: 'source'; readonly factory: SourceFactory; readonly multiEpoch: boolean }
  | {
    readonly kind: 'operator';
    readonly factory: OperatorFactory;
    readonly manualWatermarks?: boolean;
    readonly multiEpoch?: boolean;
    /** Number of feedback inputs to be connected after the regular ones. */
    readonly feedbackInputs?: number;
  }
  /** A vertex of the JobGraphBuilder the graph is compiled into (`compileStreamInto`): a planned query's input. */
  | { readonly kind: 'external'; readonly vertex: number };

/**
 * The iteration body being built (set by the iteration entry points while
 * the user's body function runs): nodes made meanwhile belong to it.
 */
export interface BodyScope {
  /** Wraps the runtime factory of an operator made in the body (the per-round lifecycle), or returns it unchanged. */
  wrapOperator(factory: OperatorFactory, name: string): OperatorFactory;
}

/** A node of the stream graph (one runtime vertex). */
export interface StreamNode {
  readonly id: number;
  readonly graph: StreamGraph;
  readonly name: string;
  readonly schema: Schema;
  /** Mutable until the graph runs (`setParallelism`). */
  parallelism: number;
  readonly run: StreamNodeKind;
  /** Regular inputs, then feedback inputs once connected. */
  readonly inputs: StreamInput[];
  /** Schemas of side outputs 1..n. */
  readonly sideOutputs: Schema[];
  /** One-line detail for EXPLAIN. */
  readonly detail?: string;
  /** The iteration body this node was made in, if any. */
  readonly scope?: BodyScope;
}

/** What `StreamGraph.add` needs to make a node. */
export interface StreamNodeSpec {
  readonly name: string;
  readonly schema: Schema;
  readonly parallelism: number;
  readonly run: StreamNodeKind;
  readonly inputs?: readonly Omit<StreamInput, 'feedback'>[];
  readonly sideOutputs?: readonly Schema[];
  readonly detail?: string;
}

/** All nodes made through one stream environment. */
export class StreamGraph {
  readonly nodes: StreamNode[] = [];
  /** The iteration body being built, if any: new nodes get it as their scope. */
  currentScope: BodyScope | undefined;

  /**
   * Makes a node. Inside an iteration body a source is an error (ITERATION-SEMANTICS.md
   * "Validation") and an operator's factory goes through the body's `wrapOperator`.
   */
  add(spec: StreamNodeSpec): StreamNode {
    const scope = this.currentScope;
    if (scope !== undefined && spec.run.kind === 'source') throw new ValidationError(`a source (${spec.name}) is unsupported inside an iteration body`);
    const run: StreamNodeKind = scope !== undefined && spec.run.kind === 'operator' ? { ...spec.run, factory: scope.wrapOperator(spec.run.factory, spec.name) } : spec.run;
    const node: StreamNode = {
      id: this.nodes.length,
      graph: this,
      name: spec.name,
      schema: spec.schema,
      parallelism: spec.parallelism,
      run,
      inputs: (spec.inputs ?? []).map((i) => ({ ...i, feedback: false })),
      sideOutputs: [...(spec.sideOutputs ?? [])],
      ...(spec.detail !== undefined ? { detail: spec.detail } : {}),
      ...(scope !== undefined ? { scope } : {}),
    };
    for (const i of node.inputs) if (i.node.graph !== this) throw new Error('internal error: a stream of another environment');
    this.nodes.push(node);
    return node;
  }

  /** Appends a feedback input to `head` (declared with `feedbackInputs`) from `from`'s output. */
  connectFeedback(head: StreamNode, from: StreamNode, partitioner: Partitioner, output = 0): void {
    if (head.run.kind !== 'operator' || (head.run.feedbackInputs ?? 0) === 0) throw new Error(`internal error: ${head.name} takes no feedback input`);
    const have = head.inputs.filter((i) => i.feedback).length;
    if (have >= head.run.feedbackInputs!) throw new Error(`internal error: ${head.name}'s feedback inputs are all connected`);
    head.inputs.push({ node: from, partitioner, output, feedback: true });
  }
}

/** A compiled job: the runtime graph and the vertex id of every stream node in it. */
export interface CompiledStream {
  readonly graph: JobGraph;
  readonly vertexOf: ReadonlyMap<StreamNode, number>;
}

/** Compiles the part of the stream graph that `output` needs into a JobGraph whose output is `output`'s main output. */
export function compileStream(output: StreamNode): CompiledStream {
  const b = new JobGraphBuilder();
  const vertexOf = addStreamNodes(b, output, false);
  return { graph: b.build(vertexOf.get(output)!), vertexOf };
}

/**
 * Adds the part of the stream graph that `output` needs to `b`, an existing
 * builder (a planned query's): external nodes stand for vertices `b`
 * already has. Returns the vertex of every stream node (the caller reads
 * `output`'s); `b` is not built.
 */
export function compileStreamInto(b: JobGraphBuilder, output: StreamNode): ReadonlyMap<StreamNode, number> {
  return addStreamNodes(b, output, true);
}

function addStreamNodes(b: JobGraphBuilder, output: StreamNode, externals: boolean): Map<StreamNode, number> {
  // Upstream closure, following feedback edges (the loop is part of what an iteration output needs).
  const closure = new Set<StreamNode>();
  const stack = [output];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (closure.has(n)) continue;
    closure.add(n);
    for (const i of n.inputs) stack.push(i.node);
  }
  // Topological order over regular edges only (feedback edges close cycles).
  const order: StreamNode[] = [];
  const state = new Map<StreamNode, 1 | 2>();
  const visit = (n: StreamNode): void => {
    const s = state.get(n);
    if (s === 2) return;
    if (s === 1) throw new Error(`internal error: a cycle through ${n.name} without a feedback edge`);
    state.set(n, 1);
    for (const i of n.inputs) if (!i.feedback) visit(i.node);
    state.set(n, 2);
    order.push(n);
  };
  for (const n of [...closure].sort((a, b) => a.id - b.id)) visit(n);
  const vertexOf = new Map<StreamNode, number>();
  for (const n of order) {
    if (n.run.kind === 'external') {
      if (!externals) throw new Error(`internal error: ${n.name} is an external input; compile it into the builder that has its vertex (compileStreamInto)`);
      vertexOf.set(n, n.run.vertex);
      continue;
    }
    if (n.run.kind === 'source') {
      vertexOf.set(n, b.addSource(n.name, n.parallelism, n.schema, n.run.factory, n.detail, { multiEpoch: n.run.multiEpoch }));
      continue;
    }
    const regular = n.inputs.filter((i) => !i.feedback);
    const feedback = n.inputs.filter((i) => i.feedback);
    const want = n.run.feedbackInputs ?? 0;
    if (feedback.length !== want) throw new Error(`internal error: ${n.name} has ${feedback.length} of ${want} feedback inputs connected`);
    const edges = regular.map((i) => ({ from: vertexOf.get(i.node)!, partitioner: i.partitioner, ...(i.output !== 0 ? { output: i.output } : {}) }));
    vertexOf.set(n, b.addOperator(n.name, n.parallelism, n.schema, n.run.factory, edges, n.detail, {
      ...(n.sideOutputs.length > 0 ? { sideOutputs: n.sideOutputs } : {}),
      ...(n.run.manualWatermarks ? { manualWatermarks: true } : {}),
      ...(n.run.multiEpoch ? { multiEpoch: true } : {}),
      ...(want > 0 ? { feedbackInputs: want } : {}),
      // A DataStream program's operators are the user's own (map, process, ...): their errors name them.
      namedByUser: true,
    }));
  }
  for (const n of order) {
    n.inputs.forEach((i, input) => {
      if (i.feedback) b.connectFeedback(vertexOf.get(n)!, input, vertexOf.get(i.node)!, i.partitioner, i.output);
    });
  }
  return vertexOf;
}

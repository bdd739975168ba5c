/**
 * The job graph: vertices (sources and operators) with a parallelism, and
 * edges with a partitioner. A run instantiates one instance per subtask and
 * one channel per (producer subtask, consumer subtask) pair.
 */
import type { Schema } from '../relnode/types.js';
import type { OperatorFactory, SourceFactory } from './operator.js';

/** How a producer's rows are routed to the consumer's subtasks. */
export type Partitioner =
  /** Subtask i → subtask i (equal parallelism). */
  | { readonly kind: 'forward' }
  /** Rows by the hash of key columns. */
  | { readonly kind: 'hash'; readonly keys: readonly number[] }
  /** Every batch to every subtask. */
  | { readonly kind: 'broadcast' }
  /** Batches round-robin over the subtasks. */
  | { readonly kind: 'rebalance' }
  /** Everything to subtask 0. */
  | { readonly kind: 'global' };

/** An input edge of an operator vertex; its position in `inputs` is the input number. */
export interface Edge {
  readonly from: number;
  readonly partitioner: Partitioner;
  /** Which output of the producer feeds this edge: 0 = its main output, i ≥ 1 = side output i (default 0). */
  readonly output?: number;
  /**
   * A feedback edge (an iteration's tail → head): the only kind of edge that
   * may point to a later vertex, so every cycle passes through one. Its
   * channels always queue — never deliver re-entrantly — and never block.
   */
  readonly feedback?: boolean;
}

interface VertexBase {
  readonly id: number;
  /** Display name, e.g. `HashJoin`. Instance names are `${name}#${id}[${subtask}]`. */
  readonly name: string;
  readonly parallelism: number;
  readonly schema: Schema;
  /** One-line detail for EXPLAIN's physical plan. */
  readonly detail?: string;
  /** Schemas of side outputs 1..n (output 0 is `schema`); edges pick one with `Edge.output`. */
  readonly sideOutputs?: readonly Schema[];
}

export interface SourceVertex extends VertexBase {
  readonly kind: 'source';
  readonly factory: SourceFactory;
  /**
   * The source may emit batches of epochs other than 0 and watermarks below
   * END (an iteration or stream input). Default false: a batch source, whose
   * consumers may rely on there being one epoch (a LIMIT stops upstream).
   */
  readonly multiEpoch?: boolean;
}

/** Options of a source vertex. */
export interface SourceOptions {
  readonly multiEpoch?: boolean;
}

export interface OperatorVertex extends VertexBase {
  readonly kind: 'operator';
  readonly factory: OperatorFactory;
  readonly inputs: readonly Edge[];
  /**
   * The operator owns its watermarks (an iteration head or tail): the runtime
   * reports each input's watermark (`onInputWatermark`) and calls `finish`
   * at END, but never calls `onEpochWatermarkIncremented` and never forwards
   * a watermark itself — the operator does, with `ctx.emitWatermark`.
   */
  readonly manualWatermarks?: boolean;
  /** The output may carry more than one epoch although no input does (an iteration head, a replayer). */
  readonly multiEpoch?: boolean;
  /**
   * The output carries one epoch (0, then END) although inputs carry several: the exit of a
   * table-valued iteration, above which operators run as in a batch query (a LIMIT stops upstream).
   */
  readonly singleEpochOutput?: boolean;
  /**
   * The user built and named this operator (the DataStream API's map, process, ...): its instance
   * (`Parse#2[0]`) is in the user's terms, so an error raised in it names it in the message. A
   * planner-made operator (`Project#1[0]`) is not, and is named only on the error's `operator`.
   */
  readonly namedByUser?: boolean;
}

/**
 * A vertex's EXPLAIN detail: the text, or a function computing it when first read (lowering a
 * small query built every detail string for nothing: only EXPLAIN reads them).
 */
export type Detail = string | (() => string);

/** Sets `v.detail` (an enumerable property; a function becomes a memoized getter). */
function withDetail<V extends Vertex>(v: V, d: Detail | undefined): V {
  if (d === undefined || d === '') return v;
  if (typeof d === 'string') { (v as { detail?: string }).detail = d; return v; }
  let text: string | undefined;
  Object.defineProperty(v, 'detail', { enumerable: true, configurable: true, get: () => (text ??= d()) });
  return v;
}

/** Options of an operator vertex. */
export interface OperatorOptions {
  readonly detail?: Detail;
  readonly sideOutputs?: readonly Schema[];
  readonly manualWatermarks?: boolean;
  readonly multiEpoch?: boolean;
  readonly singleEpochOutput?: boolean;
  /**
   * Extra inputs after `inputs`, connected later with `connectFeedback` (from
   * vertices that do not exist yet: the tail of an iteration).
   */
  readonly feedbackInputs?: number;
  /** See OperatorVertex.namedByUser. */
  readonly namedByUser?: boolean;
}

export type Vertex = SourceVertex | OperatorVertex;

export interface JobGraph {
  /** Vertices in topological order (every edge but a feedback edge points to an earlier vertex). */
  readonly vertices: readonly Vertex[];
  /** The vertex whose output is the job's result. */
  readonly output: number;
}

/** Builds a job graph incrementally, assigning ids in topological order. */
export class JobGraphBuilder {
  private readonly vertices: Vertex[] = [];
  /** Per vertex with feedback inputs: its edges so far (feedback slots still open are undefined). */
  private readonly open = new Map<number, (Edge | undefined)[]>();

  addSource(name: string, parallelism: number, schema: Schema, factory: SourceFactory, detail?: Detail, options: SourceOptions = {}): number {
    const id = this.vertices.length;
    this.vertices.push(withDetail<SourceVertex>({ kind: 'source', id, name, parallelism, schema, factory, ...(options.multiEpoch ? { multiEpoch: true } : {}) }, detail));
    return id;
  }

  addOperator(name: string, parallelism: number, schema: Schema, factory: OperatorFactory, inputs: readonly Edge[], detail?: Detail, options: OperatorOptions = {}): number {
    const id = this.vertices.length;
    for (const e of inputs) this.checkEdge(e, id, parallelism);
    const d = detail ?? options.detail;
    const slots = options.feedbackInputs ?? 0;
    const all: Edge[] = [...inputs];
    this.vertices.push(withDetail<OperatorVertex>({
      kind: 'operator', id, name, parallelism, schema, factory, inputs: all,
      ...(options.sideOutputs && options.sideOutputs.length > 0 ? { sideOutputs: options.sideOutputs } : {}),
      ...(options.manualWatermarks ? { manualWatermarks: true } : {}),
      ...(options.multiEpoch ? { multiEpoch: true } : {}),
      ...(options.singleEpochOutput ? { singleEpochOutput: true } : {}),
      ...(options.namedByUser ? { namedByUser: true } : {}),
    }, d));
    if (slots > 0) this.open.set(id, [...inputs, ...new Array<Edge | undefined>(slots).fill(undefined)]);
    return id;
  }

  /**
   * Connects feedback input `input` of vertex `to` (declared with
   * `feedbackInputs`) to vertex `from`'s output — typically a later vertex,
   * closing a cycle.
   */
  connectFeedback(to: number, input: number, from: number, partitioner: Partitioner, output = 0): void {
    const slots = this.open.get(to);
    if (slots === undefined || input < 0 || input >= slots.length || slots[input] !== undefined) throw new Error(`internal error: vertex ${to} has no open feedback input ${input}`);
    const v = this.vertices[to]!;
    const e: Edge = { from, partitioner, feedback: true, ...(output !== 0 ? { output } : {}) };
    this.checkEdge(e, Infinity, v.parallelism);
    slots[input] = e;
  }

  private checkEdge(e: Edge, id: number, parallelism: number): void {
    if (e.from < 0 || e.from >= (e.feedback ? this.vertices.length : id)) throw new Error(`internal error: edge from unknown vertex ${e.from}`);
    const src = this.vertices[e.from]!;
    const p = src.parallelism;
    if (e.partitioner.kind === 'forward' && p !== parallelism) throw new Error(`internal error: forward edge between parallelism ${p} and ${parallelism}`);
    const out = e.output ?? 0;
    if (out !== 0 && (src.sideOutputs === undefined || out > src.sideOutputs.length)) throw new Error(`internal error: vertex ${e.from} has no output ${out}`);
  }

  parallelismOf(id: number): number {
    return this.vertices[id]!.parallelism;
  }

  build(output: number): JobGraph {
    const vertices = this.vertices.map((v) => {
      const slots = this.open.get(v.id);
      if (slots === undefined || v.kind !== 'operator') return v;
      const missing = slots.findIndex((e) => e === undefined);
      if (missing >= 0) throw new Error(`internal error: feedback input ${missing} of vertex ${v.id} (${v.name}) is not connected`);
      return { ...v, inputs: slots as Edge[] };
    });
    return { vertices, output };
  }
}

/** The schema of output `output` of a vertex (0 = main). */
export function outputSchema(v: Vertex, output = 0): Schema {
  return output === 0 ? v.schema : v.sideOutputs![output - 1]!;
}

/** The physical plan as indented text (EXPLAIN's physical section). */
export function explainJob(g: JobGraph, metrics?: ReadonlyMap<number, string>): string {
  const lines: string[] = [];
  // A feedback edge's source (an iteration body) is shown once, under the first edge reaching it;
  // inside it, vertices already shown are named, not repeated (the loop closes at its head).
  const shown = new Set<number>();
  // A vertex with several consumers (a shared subplan, planner/lower-shared.ts) is shown once, as
  // `Name#id`; later consumers name it (`shared: Name#id`).
  const reached = new Map<number, number>();
  const count = (id: number): void => {
    const k = (reached.get(id) ?? 0) + 1;
    reached.set(id, k);
    const v = g.vertices[id]!;
    if (k === 1 && v.kind === 'operator') for (const e of v.inputs) if (!e.feedback) count(e.from);
  };
  count(g.output);
  const walk = (id: number, depth: number, via?: Edge, inFeedback = false): void => {
    const v = g.vertices[id]!;
    const p = via?.partitioner;
    const part = p && p.kind !== 'forward' ? ` <- ${p.kind}${p.kind === 'hash' ? `(${p.keys.map((k) => `$${k}`).join(', ')})` : ''}` : '';
    const m = metrics?.get(id);
    const out = via?.output ? ` output ${via.output}` : '';
    const pad = '  '.repeat(depth);
    if (via?.feedback || (inFeedback && shown.has(id))) {
      const again = shown.has(id);
      const what = again ? '' : `${v.detail ? `(${v.detail})` : ''} [p=${v.parallelism}]`;
      lines.push(`${pad}${via?.feedback ? 'feedback from ' : ''}${v.name}#${v.id}${what}${out}${part}${again ? '' : `${m ? `  ${m}` : ''}:`}`);
      if (shown.has(id)) return;
      inFeedback = true;
    } else if (shown.has(id)) {
      lines.push(`${pad}shared: ${v.name}#${v.id}${out}${part}`);
      return;
    } else {
      const tag = (reached.get(id) ?? 0) > 1 ? `#${v.id}` : '';
      lines.push(`${pad}${v.name}${tag}${v.detail ? `(${v.detail})` : ''} [p=${v.parallelism}]${out}${part}${m ? `  ${m}` : ''}`);
    }
    shown.add(id);
    if (v.kind === 'operator') for (const e of v.inputs) walk(e.from, depth + 1, e, inFeedback);
  };
  walk(g.output, 0);
  return lines.join('\n');
}

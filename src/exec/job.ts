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
}

interface VertexBase {
  readonly id: number;
  /** Display name, e.g. `HashJoin`. Instance names are `${name}#${id}[${subtask}]`. */
  readonly name: string;
  readonly parallelism: number;
  readonly schema: Schema;
  /** One-line detail for EXPLAIN's physical plan. */
  readonly detail?: string;
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
}

export type Vertex = SourceVertex | OperatorVertex;

export interface JobGraph {
  /** Vertices in topological order (every edge points to an earlier vertex). */
  readonly vertices: readonly Vertex[];
  /** The vertex whose output is the job's result. */
  readonly output: number;
}

/** Builds a job graph incrementally, assigning ids in topological order. */
export class JobGraphBuilder {
  private readonly vertices: Vertex[] = [];

  addSource(name: string, parallelism: number, schema: Schema, factory: SourceFactory, detail?: string, options: SourceOptions = {}): number {
    const id = this.vertices.length;
    this.vertices.push({ kind: 'source', id, name, parallelism, schema, factory, ...(detail ? { detail } : {}), ...(options.multiEpoch ? { multiEpoch: true } : {}) });
    return id;
  }

  addOperator(name: string, parallelism: number, schema: Schema, factory: OperatorFactory, inputs: readonly Edge[], detail?: string): number {
    const id = this.vertices.length;
    for (const e of inputs) {
      if (e.from < 0 || e.from >= id) throw new Error(`internal error: edge from unknown vertex ${e.from}`);
      const p = this.vertices[e.from]!.parallelism;
      if (e.partitioner.kind === 'forward' && p !== parallelism) throw new Error(`internal error: forward edge between parallelism ${p} and ${parallelism}`);
    }
    this.vertices.push({ kind: 'operator', id, name, parallelism, schema, factory, inputs, ...(detail ? { detail } : {}) });
    return id;
  }

  parallelismOf(id: number): number {
    return this.vertices[id]!.parallelism;
  }

  build(output: number): JobGraph {
    return { vertices: [...this.vertices], output };
  }
}

/** The physical plan as indented text (EXPLAIN's physical section). */
export function explainJob(g: JobGraph, metrics?: ReadonlyMap<number, string>): string {
  const lines: string[] = [];
  const walk = (id: number, depth: number, via?: Partitioner): void => {
    const v = g.vertices[id]!;
    const part = via && via.kind !== 'forward' ? ` <- ${via.kind}${via.kind === 'hash' ? `(${via.keys.map((k) => `$${k}`).join(', ')})` : ''}` : '';
    const m = metrics?.get(id);
    lines.push(`${'  '.repeat(depth)}${v.name}${v.detail ? `(${v.detail})` : ''} [p=${v.parallelism}]${part}${m ? `  ${m}` : ''}`);
    if (v.kind === 'operator') for (const e of v.inputs) walk(e.from, depth + 1, e.partitioner);
  };
  walk(g.output, 0);
  return lines.join('\n');
}

/**
 * DataStream: a stream of rows of one schema, in record batches tagged with
 * epochs — the handle users transform and run.
 *
 * Decision: a DataStream is a view of one output of one stream node plus
 * how its consumer should partition it: `keyBy`, `broadcast` and
 * `rebalance` make no node, only a view with that partitioner (Flink's
 * partition transformations), and a view without one makes a default edge
 * (environment.ts). Every transformation is one node running a user
 * operator through the adapter (adapter.ts) — map, flatMap and filter are
 * built-in user operators — so an iteration body can wrap them all the same
 * way (BodyScope.wrapOperator). Actions compile the stream's upstream and
 * run it (environment.ts).
 */
import type { RecordBatch } from 'apache-arrow';
import { ValidationError } from '../../relnode/errors.js';
import type { Schema } from '../../relnode/types.js';
import { toSchema, type SchemaSpec } from '../../relnode/schema-spec.js';
import { takeBatch } from '../../exec/batch.js';
import type { Partitioner } from '../../exec/job.js';
import type { StreamNode } from './graph.js';
import { SideOutputs, userOperatorFactory } from './adapter.js';
import type { StreamEnvironment } from './environment.js';
import type { CoProcessOperator, OutputTag, ProcessFactory, ProcessOperator, Row } from './process.js';
import { rowsOfBatch } from './rows.js';
import { forwardOperator } from './forward.js';

/** Options of a transformation. */
export interface TransformOptions {
  /** The output columns; default: the (first) input's. */
  readonly schema?: SchemaSpec;
  /** Display name of the operator (EXPLAIN, error messages); default the transformation's (`Map`, `Process`, ...). */
  readonly name?: string;
}

/** Side output tables per node. */
const sideOutputsOf = new WeakMap<StreamNode, SideOutputs>();

/** @internal Wraps output `output` of `node` as a stream (how src/iteration hands out heads' and bodies' streams). */
export function streamOf(env: StreamEnvironment, node: StreamNode, output = 0): DataStream {
  return new DataStream(env, node, output, undefined);
}

/** @internal True when `s` is the output of a bare `union` (the iteration validation needs to know). */
export function isUnion(s: DataStream): boolean {
  return s.node.name === 'Union' && s.node.run.kind === 'operator' && s.node.detail === UNION_DETAIL;
}
const UNION_DETAIL = 'union';

/** A stream of rows (plain objects) of one schema, carried in Arrow record batches tagged with epochs. */
export class DataStream {
  /**
   * @internal Use env.streams' sources and the transformations.
   * @param partitioner how the next operator's edge partitions this stream; undefined = the default edge
   */
  constructor(
    /** @internal */ readonly env: StreamEnvironment,
    /** @internal The node producing this stream. */ readonly node: StreamNode,
    /** @internal Which output of the node: 0 = main, i ≥ 1 = side output i. */ readonly output: number,
    /** @internal */ readonly partitioner: Partitioner | undefined,
  ) {}

  /** The stream's columns. */
  get schema(): Schema {
    return this.output === 0 ? this.node.schema : this.node.sideOutputs[this.output - 1]!;
  }

  /** The number of subtasks of the operator producing this stream. */
  get parallelism(): number {
    return this.node.parallelism;
  }

  // ---------------------------------------------------------------- transformations

  /** One output row per input row: `fn(row)`. The output schema defaults to the input's. */
  map(fn: (row: Row) => Row, options: TransformOptions = {}): DataStream {
    checkFn(fn, 'map');
    return this.process(() => ({ processElement(row, _ctx, out) { out.collect(fn(row)); } }), { name: 'Map', ...options });
  }

  /** Any number of output rows per input row: `fn(row)` returns an iterable (an array, a generator) of rows. */
  flatMap(fn: (row: Row) => Iterable<Row>, options: TransformOptions = {}): DataStream {
    checkFn(fn, 'flatMap');
    return this.process(() => ({
      processElement(row, _ctx, out) {
        const rows = fn(row);
        if (rows === null || typeof rows !== 'object' || typeof (rows as Iterable<Row>)[Symbol.iterator] !== 'function') {
          throw new ValidationError(`flatMap: the function must return an iterable of rows (an array or a generator), got ${String(rows)}`);
        }
        for (const r of rows) out.collect(r);
      },
    }), { name: 'FlatMap', ...options });
  }

  /** The rows for which `fn(row)` is true (batches whose rows all pass go through untouched). */
  filter(fn: (row: Row) => boolean, options: Omit<TransformOptions, 'schema'> = {}): DataStream {
    checkFn(fn, 'filter');
    const names = this.schema.fields.map((f) => f.name);
    return this.process(() => ({
      processBatch(batch: RecordBatch, _ctx, out) {
        const rows = rowsOfBatch(batch, names);
        const sel = new Int32Array(rows.length);
        let n = 0;
        for (let i = 0; i < rows.length; i++) if (fn(rows[i]!) === true) sel[n++] = i;
        if (n === rows.length) out.collectBatch(batch);
        else if (n > 0) out.collectBatch(takeBatch(batch, sel, n));
      },
    }), { name: 'Filter', ...options });
  }

  /**
   * Runs a user operator: `factory` is called once per subtask (and once per
   * round for per-round operators inside an iteration), so state is never
   * shared by accident. See ProcessOperator for the callbacks.
   */
  process(factory: ProcessFactory<ProcessOperator>, options: TransformOptions = {}): DataStream {
    return userNode(this.env, [this], factory, 1, options, 'Process');
  }

  /** Pairs this stream with `other` for a two-input operator: `a.connect(b).process(...)`. */
  connect(other: DataStream): ConnectedStreams {
    return new ConnectedStreams(this, other);
  }

  /** Partitions the stream by the hash of `columns`: rows with equal keys go to the same subtask of the next operator. */
  keyBy(...columns: string[]): DataStream {
    if (columns.length === 0) throw new ValidationError('keyBy needs at least one column');
    const names = this.schema.fields.map((f) => f.name);
    const keys = columns.map((c) => {
      const i = names.indexOf(c);
      if (i < 0) throw new ValidationError(`keyBy: the stream has no column "${c}" (columns: ${names.join(', ')})`);
      return i;
    });
    return new DataStream(this.env, this.node, this.output, { kind: 'hash', keys });
  }

  /** Sends every batch to every subtask of the next operator. */
  broadcast(): DataStream {
    return new DataStream(this.env, this.node, this.output, { kind: 'broadcast' });
  }

  /** Spreads batches round-robin over the subtasks of the next operator. */
  rebalance(): DataStream {
    return new DataStream(this.env, this.node, this.output, { kind: 'rebalance' });
  }

  /** The rows of this stream and of `others` (same column types; names are this stream's), each keeping its epoch. */
  union(...others: DataStream[]): DataStream {
    const mine = this.schema.fields;
    for (const o of others) {
      const theirs = o.schema.fields;
      const same = theirs.length === mine.length && theirs.every((f, i) => f.type === mine[i]!.type);
      if (!same) {
        const show = (fs: Schema['fields']): string => fs.map((f) => `${f.name} ${f.type}`).join(', ');
        throw new ValidationError(`union: the streams' columns differ: (${show(mine)}) and (${show(theirs)}); map them to the same column types first`);
      }
    }
    const node = this.env.operator('Union', [this, ...others], this.schema, forwardOperator, { detail: UNION_DETAIL });
    return streamOf(this.env, node);
  }

  /** Sets the number of subtasks of the operator (or source) producing this stream; returns this stream. */
  setParallelism(n: number): this {
    if (!Number.isInteger(n) || n < 1 || n > 64) throw new ValidationError(`setParallelism: parallelism must be an integer from 1 to 64, got ${n}`);
    this.node.parallelism = n;
    return this;
  }

  /** The side output named by `tag` of the operator producing this stream (rows it emitted with `ctx.output(tag, row)`). */
  getSideOutput(tag: OutputTag): DataStream {
    const sides = sideOutputsOf.get(this.node);
    if (sides === undefined) throw new ValidationError(`getSideOutput: ${this.node.name} is not a process operator; side outputs come from process(...)`);
    return new DataStream(this.env, this.node, sides.outputOf(tag), undefined);
  }

  // ---------------------------------------------------------------- actions

  /** The job graph this stream's actions would run, as indented text (operators, parallelism, partitioning). */
  explain(): string {
    return this.env.explain(this);
  }

  /** Runs the job and returns the stream's rows (null-prototype objects; BIGINT as bigint, DATE/TIMESTAMP as Date). */
  async collect(options: { readonly signal?: AbortSignal } = {}): Promise<Row[]> {
    const names = this.schema.fields.map((f) => f.name);
    const out: Row[] = [];
    for await (const b of this.env.execute(this, options.signal)) for (const r of rowsOfBatch(b, names)) out.push(r);
    return out;
  }

  /** Runs the job and yields its rows as they are produced; breaking out of the loop cancels the job. */
  async *rows(options: { readonly signal?: AbortSignal } = {}): AsyncGenerator<Row, void, undefined> {
    const names = this.schema.fields.map((f) => f.name);
    for await (const b of this.env.execute(this, options.signal)) yield* rowsOfBatch(b, names);
  }

  /** Runs the job and yields its Arrow record batches as they are produced; breaking out of the loop cancels the job. */
  batches(options: { readonly signal?: AbortSignal } = {}): AsyncGenerator<RecordBatch, void, undefined> {
    return this.env.execute(this, options.signal);
  }
}

/** Two streams feeding one two-input operator (`a.connect(b)`). */
export class ConnectedStreams {
  /** @internal */
  constructor(readonly first: DataStream, readonly second: DataStream) {
    if (first.env !== second.env) throw new ValidationError('connect: the streams belong to different stream environments');
  }

  /**
   * Runs a two-input user operator: `processElement1` / `processBatch1` see
   * the first stream, `...2` the second. The output schema defaults to the
   * first stream's.
   */
  process(factory: ProcessFactory<CoProcessOperator>, options: TransformOptions = {}): DataStream {
    return userNode(this.first.env, [this.first, this.second], factory, 2, options, 'CoProcess');
  }
}

function checkFn(fn: unknown, what: string): void {
  if (typeof fn !== 'function') throw new ValidationError(`${what} needs a function, got ${String(fn)}`);
}

/** A node running a user operator over `inputs`. */
function userNode(env: StreamEnvironment, inputs: readonly DataStream[], factory: () => ProcessOperator | CoProcessOperator, arity: 1 | 2, options: TransformOptions, kind: string): DataStream {
  if (typeof factory !== 'function') throw new ValidationError(`${kind.toLowerCase()} needs a factory function returning an operator (() => ({ processElement(row, ctx, out) { ... } })), got ${String(factory)}`);
  const schema = options.schema !== undefined ? toSchema(options.schema) : inputs[0]!.schema;
  const name = options.name ?? kind;
  const sides = new SideOutputs();
  const run = userOperatorFactory(factory, { what: name, inputs: arity, sideOutputs: sides, listState: () => env.listState });
  const node = env.addNode({ name, inputs, schema, sideOutputs: [], run: { kind: 'operator', factory: run } });
  sides.attach(node.sideOutputs);
  sideOutputsOf.set(node, sides);
  return streamOf(env, node);
}

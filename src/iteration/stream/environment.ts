/**
 * The stream environment: where DataStreams start (sources), how their
 * nodes are made, and how an action runs the job.
 *
 * Decision: every DataStream of one environment lives in one StreamGraph;
 * an action compiles just the part its stream needs (graph.ts) and runs it
 * on the one runtime with the environment's batch size and memory limit,
 * under its own AbortController, so leaving `rows()` / `batches()` early
 * cancels the job (sources get the abort). Edges made without a
 * partitioner are "default" edges, settled when the job is compiled —
 * forward between equal parallelisms, else rebalance (Flink's rule) — so
 * `setParallelism` may be called at any time before an action.
 */
import type { RecordBatch } from 'apache-arrow';
import { ValidationError } from '../../relnode/errors.js';
import type { Schema } from '../../relnode/types.js';
import { toSchema, type SchemaSpec } from '../../relnode/schema-spec.js';
import { batchFromColumns } from '../../exec/batch.js';
import { explainJob, type JobGraph, type Partitioner } from '../../exec/job.js';
import type { OperatorFactory, SourceFactory } from '../../exec/operator.js';
import type { RunOptions } from '../../exec/runtime.js';
import { runWithFailover } from '../failover.js';
import { compileStream, StreamGraph, type StreamNode, type StreamNodeSpec } from './graph.js';
import type { CacheServiceManager } from '../../cache/manager.js';
import type { ListStateProvider } from './adapter.js';
import { DataStream, streamOf } from './data-stream.js';
import type { Row } from './process.js';
import { batchOfRows, inferRowSchema } from './rows.js';
import { iterableSource, rowsSource, type StreamItem } from './sources.js';
import { forwardOperator } from './forward.js';

/** Options of a StreamEnvironment (a TableEnvironment's `env.streams` takes them from its own). */
export interface StreamEnvironmentOptions {
  /** Parallelism of new operators unless `setParallelism` says otherwise. Default 1. */
  readonly parallelism?: number;
  /** Preferred rows per record batch. Default 65536. */
  readonly batchSize?: number;
  /** Bytes of operator state one job may hold (read at each run). Default unlimited. */
  readonly memoryLimit?: number | (() => number);
  /** Storage for `ctx.getListState` (the cache-backed one: src/iteration/list-state.ts). */
  readonly listState?: ListStateProvider;
  /** The cache service whose storage list state and replayed iteration data use (a TableEnvironment's own). */
  readonly cache?: CacheServiceManager;
  /**
   * @internal Attribute each operator callback's own time in runs of this
   * environment (default false: no stream action reports per-operator
   * times, and the clock reads cost a fifth of an iteration round).
   */
  readonly selfTime?: boolean;
}

/** Options of `fromRows`. */
export interface FromRowsOptions {
  /** Column types; inferred from the rows when omitted (as fromRecords does). */
  readonly schema?: SchemaSpec;
  /** Subtasks of the source (default 1); the rows are split over them in order. */
  readonly parallelism?: number;
}

/** Options of `fromAsyncIterable`. */
export interface FromAsyncIterableOptions {
  readonly schema: SchemaSpec;
  /** Subtasks of the source (default 1); they share the items between them. */
  readonly parallelism?: number;
}

/** A node as `addNode` makes it: inputs are streams, the parallelism defaults to the environment's. */
export interface NodeSpec extends Omit<StreamNodeSpec, 'inputs' | 'parallelism'> {
  readonly inputs?: readonly DataStream[];
  readonly parallelism?: number;
}

/** Checks a parallelism given by a user. */
export function checkParallelism(p: number, what: string): number {
  if (!Number.isInteger(p) || p < 1 || p > 64) throw new ValidationError(`${what}: parallelism must be an integer from 1 to 64, got ${p}`);
  return p;
}

/** Per node: which of its inputs are default edges (settled at compile time). */
const defaultInputs = new WeakMap<StreamNode, number[]>();

/**
 * The entry point of the DataStream API: sources, and the settings every
 * stream of it runs with. Get one from a TableEnvironment (`env.streams`).
 *
 * ```ts
 * const s = env.streams.fromRows([{ v: 1 }, { v: 2 }]).map((r) => ({ v: (r.v as number) * 10 }));
 * console.log(await s.collect()); // [{ v: 10 }, { v: 20 }]
 * ```
 */
export class StreamEnvironment {
  /** @internal The graph every stream of this environment belongs to. */
  readonly graph = new StreamGraph();
  /** Parallelism of new operators. */
  readonly parallelism: number;
  /** Preferred rows per record batch. */
  readonly batchSize: number;
  private readonly memoryLimit: () => number;
  /** @internal Storage for list state (set by the environment's owner; see ListStateProvider). */
  listState: ListStateProvider | undefined;
  /** @internal The cache service shared with the TableEnvironment, if any (list state and replay storage). */
  readonly cache: CacheServiceManager | undefined;

  /** @internal The in-memory byte budget of a run's feedback queues (default 64 MiB; past it they spill). */
  feedbackBudgetBytes: number | undefined;
  /** @internal Whether runs attribute per-operator times (StreamEnvironmentOptions.selfTime). */
  readonly selfTime: boolean;
  private checkpointing: { readonly dir?: string; readonly intervalMs: number } | undefined;
  private restartAttempts = 0;

  /**
   * Checkpoints for the jobs this environment runs: every `intervalMs`, at the
   * next point between two scheduler steps, a consistent cut of the whole job
   * — operator states (`snapshotState`), source positions, each head's
   * per-epoch counts and the coordinator's alignment, replay positions and the
   * records in flight on feedback edges — written atomically to `dir` (write,
   * fsync, rename; the newest two kept, removed when the job finishes). Without
   * `dir` the latest cut is kept in memory. Used when a job restarts
   * (`setRestartStrategy`). docs/iteration.md "Checkpoints and failover".
   */
  enableCheckpointing(options: { readonly dir?: string; readonly intervalMs?: number } = {}): this {
    const intervalMs = options.intervalMs ?? 1000;
    if (!Number.isFinite(intervalMs) || intervalMs < 0) throw new ValidationError(`enableCheckpointing: intervalMs must be a number ≥ 0, got ${intervalMs}`);
    this.checkpointing = { intervalMs, ...(options.dir !== undefined ? { dir: options.dir } : {}) };
    return this;
  }

  /**
   * How often a failed job is restarted (default 0). A restart resumes from
   * the latest completed checkpoint, or from the beginning without one (a
   * bounded iteration from round 0). Output made after that checkpoint is
   * made again (at-least-once output, as in Flink); the final state equals a
   * run without failure. Cancellation is never retried.
   */
  setRestartStrategy(options: { readonly attempts: number }): this {
    if (!Number.isInteger(options.attempts) || options.attempts < 0) throw new ValidationError(`setRestartStrategy: attempts must be an integer ≥ 0, got ${options.attempts}`);
    this.restartAttempts = options.attempts;
    return this;
  }

  constructor(options: StreamEnvironmentOptions = {}) {
    this.parallelism = checkParallelism(options.parallelism ?? 1, 'StreamEnvironment');
    const bs = options.batchSize ?? 65536;
    if (!Number.isInteger(bs) || bs < 1) throw new ValidationError(`batchSize must be a positive integer, got ${bs}`);
    this.batchSize = bs;
    const m = options.memoryLimit;
    this.memoryLimit = typeof m === 'function' ? m : () => m ?? Infinity;
    this.listState = options.listState;
    this.cache = options.cache;
    this.selfTime = options.selfTime ?? false;
  }

  /**
   * A bounded stream of the given rows (plain objects). Types are inferred
   * unless `schema` is given; a row that does not fit the schema fails here.
   * With `parallelism` > 1 the rows are split over the subtasks in order.
   */
  fromRows(rows: readonly Readonly<Record<string, unknown>>[], options: FromRowsOptions = {}): DataStream {
    if (!Array.isArray(rows)) throw new ValidationError(`fromRows needs an array of row objects, got ${String(rows)}`);
    const schema = options.schema !== undefined ? toSchema(options.schema) : inferRowSchema(rows, 'fromRows');
    const batch = batchOfRows(rows as readonly Row[], schema, 'fromRows');
    return this.source('FromRows', schema, rowsSource(batch), options.parallelism, `${rows.length} rows`);
  }

  /**
   * A stream of the rows or record batches an async iterable yields — bounded
   * when it ends, never-ending otherwise (break out of `rows()` to stop it).
   * Each run iterates it afresh (an async generator object can be run once).
   */
  fromAsyncIterable(iterable: AsyncIterable<Readonly<Record<string, unknown>> | RecordBatch> | Iterable<Readonly<Record<string, unknown>> | RecordBatch>, options: FromAsyncIterableOptions): DataStream {
    if (options?.schema === undefined) throw new ValidationError('fromAsyncIterable needs { schema } (the items arrive only when the job runs)');
    const schema = toSchema(options.schema);
    return this.source('FromAsyncIterable', schema, iterableSource(iterable as AsyncIterable<StreamItem>, schema), options.parallelism);
  }

  /** @internal A source node (parallelism default 1). */
  source(name: string, schema: Schema, factory: SourceFactory, parallelism?: number, detail?: string, multiEpoch = false): DataStream {
    const p = checkParallelism(parallelism ?? 1, name);
    const node = this.graph.add({ name, schema, parallelism: p, run: { kind: 'source', factory, multiEpoch }, ...(detail !== undefined ? { detail } : {}) });
    return streamOf(this, node);
  }

  /**
   * @internal Makes a node reading `inputs` (each with its stream's
   * partitioner, or a default edge), at the environment's parallelism
   * unless given.
   */
  addNode(spec: NodeSpec): StreamNode {
    const inputs = spec.inputs ?? [];
    for (const i of inputs) if (i.env !== this) throw new ValidationError(`${spec.name}: a stream of another stream environment cannot be an input`);
    const auto: number[] = [];
    const node = this.graph.add({
      ...spec,
      parallelism: checkParallelism(spec.parallelism ?? this.parallelism, spec.name),
      inputs: inputs.map((s, k) => {
        if (s.partitioner === undefined) auto.push(k);
        return { node: s.node, output: s.output, partitioner: s.partitioner ?? { kind: 'rebalance' } };
      }),
    });
    if (auto.length > 0) defaultInputs.set(node, auto);
    return node;
  }

  /** @internal An operator node over `inputs` from a runtime factory. */
  operator(name: string, inputs: readonly DataStream[], schema: Schema, factory: OperatorFactory, extra: Partial<Omit<NodeSpec, 'name' | 'inputs' | 'schema' | 'run'>> = {}): StreamNode {
    return this.addNode({ ...extra, name, inputs, schema, run: { kind: 'operator', factory } });
  }

  /**
   * @internal Runs the job that `stream` needs and yields its batches (named
   * by the stream's schema). Returning early cancels the job.
   */
  async *execute(stream: DataStream, signal?: AbortSignal): AsyncGenerator<RecordBatch> {
    const graph = this.jobOf(stream, 'collect, rows or batches');
    const ctrl = new AbortController();
    const onAbort = (): void => ctrl.abort(signal?.reason);
    if (signal?.aborted) ctrl.abort(signal.reason);
    else signal?.addEventListener('abort', onAbort, { once: true });
    const schema = stream.schema;
    try {
      const options: RunOptions = {
        batchSize: this.batchSize,
        signal: ctrl.signal,
        memoryLimit: this.memoryLimit(),
        // Nothing reads a stream job's per-operator times: skip the clock reads (exec/runtime/scheduler.ts).
        selfTime: this.selfTime,
        // Iteration feedback past its memory budget spills into the cache's spill area (same disk budget).
        ...(this.cache !== undefined || this.feedbackBudgetBytes !== undefined
          ? { feedback: { ...(this.cache !== undefined ? { spill: this.cache.feedbackSpill() } : {}), ...(this.feedbackBudgetBytes !== undefined ? { budgetBytes: this.feedbackBudgetBytes } : {}) } }
          : {}),
      };
      const failover = { ...(this.checkpointing !== undefined ? { checkpoint: this.checkpointing } : {}), restartAttempts: this.restartAttempts };
      for await (const b of runWithFailover(graph, options, failover)) {
        yield batchFromColumns(schema, b.data.children, b.numRows);
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
      ctrl.abort();
    }
  }

  /** @internal The job graph of `stream` as text (explainJob). */
  explain(stream: DataStream): string {
    return explainJob(this.jobOf(stream, 'explain'));
  }

  /**
   * @internal The job graph that consumes `stream`. Inside an iteration body
   * this is the "sink inside the body" error (ITERATION-SEMANTICS.md "Validation").
   */
  jobOf(stream: DataStream, what: string): JobGraph {
    if (this.graph.currentScope !== undefined) throw new ValidationError(`a sink (${what}) is unsupported inside an iteration body; return the stream in outputStreams`);
    const node = stream.output === 0 ? stream.node : this.sideOutputReader(stream);
    this.settleDefaultEdges();
    return compileStream(node).graph;
  }

  private readonly readers = new Map<StreamNode, Map<number, StreamNode>>();

  /** A forwarding node over side output `stream.output` (a job's result is a vertex's main output). */
  private sideOutputReader(stream: DataStream): StreamNode {
    let m = this.readers.get(stream.node);
    if (m === undefined) { m = new Map(); this.readers.set(stream.node, m); }
    let n = m.get(stream.output);
    if (n === undefined) {
      n = this.graph.add({
        name: 'SideOutput', schema: stream.schema, parallelism: stream.node.parallelism, detail: `output ${stream.output}`,
        inputs: [{ node: stream.node, output: stream.output, partitioner: { kind: 'forward' } }],
        run: { kind: 'operator', factory: forwardOperator },
      });
      m.set(stream.output, n);
    }
    return n;
  }

  /** Settles default edges: forward between equal parallelisms, else rebalance. */
  private settleDefaultEdges(): void {
    for (const node of this.graph.nodes) {
      const auto = defaultInputs.get(node);
      if (auto === undefined) continue;
      for (const k of auto) {
        const i = node.inputs[k]!;
        const partitioner: Partitioner = i.node.parallelism === node.parallelism ? { kind: 'forward' } : { kind: 'rebalance' };
        node.inputs[k] = { ...i, partitioner };
      }
    }
    // A side-output reader follows its producer's parallelism.
    for (const m of this.readers.values()) for (const n of m.values()) n.parallelism = n.inputs[0]!.node.parallelism;
  }
}

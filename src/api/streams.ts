/**
 * The DataStream API as a TableEnvironment offers it (`env.streams`): the
 * stream environment of src/iteration/stream plus the bridges to tables —
 * `fromTable(table)` and `DataStream.toTable()` — which need the planner,
 * so they live in this layer.
 *
 * Decision: a table read as a stream is a source (one subtask) that runs
 * the table's query when the stream job runs and passes its batches on, so
 * the query streams and is cancelled with the job. A stream read as a table
 * is a table source whose scan runs the stream job: every query over it
 * runs the stream again (cache it, `.cache()`, to run it once). Row keys of
 * a table with repeated column names are made unique as `toArray()` makes
 * them (`name`, `name_1`).
 */
import type { RecordBatch } from 'apache-arrow';
import { CancelledError, EddyError, ValidationError } from '../relnode/errors.js';
import * as rel from '../relnode/rel.js';
import { field, schemaOf } from '../relnode/types.js';
import { batchFromColumns } from '../exec/batch.js';
import type { SourceInstance } from '../exec/operator.js';
import type { TableSource } from '../io/source.js';
import { DataStream } from '../iteration/stream/data-stream.js';
import { StreamEnvironment as CoreStreamEnvironment, type StreamEnvironmentOptions } from '../iteration/stream/environment.js';
import type { Catalog } from './catalog.js';
import type { QueryRunner } from './runner.js';
import { uniqueRowKeys } from './result.js';
import { Table } from './table.js';

const CLOSED_MESSAGE = 'stream job cancelled: the TableEnvironment was closed while it ran';

/** What the stream environment needs from its TableEnvironment. */
export interface TableHost extends QueryRunner {
  /** @internal */ readonly catalog: Catalog;
}

/**
 * The stream environment of a TableEnvironment (`env.streams`): it runs with
 * the table environment's parallelism, batch size and memory limit, and
 * converts between tables and streams.
 */
export class StreamEnvironment extends CoreStreamEnvironment {
  /** @internal Use `env.streams`. */
  constructor(readonly tables: TableHost, options: StreamEnvironmentOptions) {
    super(options);
  }

  private readonly live = new Set<AbortController>();
  private closed = false;

  /** @internal Stream jobs running now. */
  get runningJobs(): number {
    return this.live.size;
  }

  /**
   * @internal Cancels the running stream jobs (they fail with a CancelledError saying the
   * environment was closed; a job whose consumer is not pulling fails at its next pull) and
   * refuses new ones. Called by TableEnvironment.close().
   */
  close(): void {
    this.closed = true;
    for (const c of this.live) c.abort(new CancelledError(CLOSED_MESSAGE));
  }

  /** @internal Runs a stream job tracked by the environment (close cancels it). */
  override async *execute(stream: DataStream, signal?: AbortSignal): AsyncGenerator<RecordBatch> {
    if (this.closed) throw new EddyError('this TableEnvironment is closed; create a new one');
    const ctrl = new AbortController();
    const onAbort = (): void => ctrl.abort(signal?.reason);
    if (signal?.aborted) ctrl.abort(signal.reason);
    else signal?.addEventListener('abort', onAbort, { once: true });
    this.live.add(ctrl);
    try {
      yield* super.execute(stream, ctrl.signal);
    } catch (e) {
      if (e instanceof CancelledError && this.closed && signal?.aborted !== true) throw new CancelledError(CLOSED_MESSAGE, { cause: e });
      throw e;
    } finally {
      signal?.removeEventListener('abort', onAbort);
      this.live.delete(ctrl);
    }
  }

  /** A stream of a table's rows (the table's query runs when the stream job runs). */
  fromTable(table: Table): DataStream {
    if (!(table instanceof Table)) throw new ValidationError(`fromTable needs a Table, got ${String(table)}`);
    if (table.runner !== this.tables) throw new ValidationError('fromTable: the table belongs to another TableEnvironment');
    const keys = uniqueRowKeys(table.plan.schema.fields.map((f) => f.name));
    const schema = schemaOf(table.plan.schema.fields.map((f, i) => field(keys[i]!, f.type, true)));
    const runner = this.tables;
    const plan = table.plan;
    return this.source('FromTable', schema, (ctx): SourceInstance => {
      const it = ctx.subtaskIndex === 0 ? runner.stream(plan, ctx.signal)[Symbol.asyncIterator]() : undefined;
      let done = it === undefined;
      return {
        next: async () => {
          if (done) return null;
          const r = await it!.next();
          if (r.done) { done = true; return null; }
          return batchFromColumns(schema, r.value.data.children, r.value.numRows);
        },
        close: () => {
          if (done) return;
          done = true;
          void Promise.resolve(it?.return?.()).catch(() => {});
        },
      };
    }, 1, 'table');
  }
}

declare module '../iteration/stream/data-stream.js' {
  interface DataStream {
    /**
     * This stream as a Table (for SQL and the Table API). Each query over the
     * table runs the stream job again; the stream must be bounded for queries
     * that need all rows (aggregates, sorts).
     */
    toTable(): Table;
  }
}

DataStream.prototype.toTable = function toTable(this: DataStream): Table {
  const env = this.env;
  if (!(env instanceof StreamEnvironment)) throw new ValidationError('toTable: this stream was not made through a TableEnvironment (env.streams)');
  const stream = this;
  env.jobOf(stream, 'toTable'); // fails now inside an iteration body, not when the table is read
  const schema = stream.schema;
  const source: TableSource = {
    schema,
    description: `stream ${stream.node.name}#${stream.node.id}`,
    partitions: 1,
    async *scan(options): AsyncGenerator<RecordBatch> {
      const cols = options.columns;
      for await (const b of env.execute(stream, options.signal)) {
        yield cols === undefined ? b : batchFromColumns(cols.map((c) => schema.fields[c]!.name), cols.map((c) => b.data.children[c]!), b.numRows);
      }
    },
  };
  const ref = env.tables.catalog.anonymousRef('stream', source);
  const plan = rel.scan(ref);
  return new Table(env.tables, plan, plan.schema.fields);
};

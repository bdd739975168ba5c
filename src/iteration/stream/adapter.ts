/**
 * The adapter from the stream API's user operators (process.ts) to the
 * runtime's `Operator` (exec/operator.ts).
 *
 * Decision: one adapter for one- and two-input operators. Rows are decoded
 * only when the user operator takes rows (`processElement*`); the batch
 * methods take precedence and see the runtime's batches. Rows collected in
 * a callback are encoded and emitted when the callback returns, or as soon
 * as a batch's worth has gathered, so every output batch carries the
 * callback's epoch (the runtime stamps it: ITERATION-SEMANTICS.md "Epochs").
 * The one epoch the adapter chooses itself is that of `finish` inside an
 * iteration: END, as for an all-round operator (outside one, the runtime's
 * epoch). Side outputs are looked up by tag in a table that
 * `getSideOutput` fills while the graph is built; rows for a tag nobody
 * reads are dropped, as Flink does.
 *
 * A wrapper that runs the adapter as a per-round instance (src/iteration's
 * per-round lifecycle) should give it a context whose `inIteration` is false and
 * whose `epoch` is the round's, so its closing output carries the round's
 * epoch (ITERATION-SEMANTICS.md: "emitted by a per-round instance of round
 * e while it closes | e").
 */
import type { RecordBatch } from 'apache-arrow';
import { END, type Operator, type OperatorContext, type OperatorFactory } from '../../exec/operator.js';
import type { Schema } from '../../relnode/types.js';
import { ValidationError } from '../../relnode/errors.js';
import type { Collector, CoProcessOperator, ListState, OutputTag, ProcessContext, ProcessOperator, Row } from './process.js';
import { batchOfRows, checkBatch, rowsOfBatch } from './rows.js';

/**
 * Makes the list state named `name` of one operator subtask (`operator` is
 * the instance name, e.g. `Process#3[1]`, unique in a run). Supplied by the
 * environment: the cache-backed implementation is src/iteration/list-state.ts.
 */
export type ListStateProvider = (subtaskIndex: number, name: string, operator: string) => ListState;

/** The side outputs of one stream node: tag → output number (≥ 1), filled by `getSideOutput`. */
export class SideOutputs {
  private readonly byTag = new Map<OutputTag, number>();
  private schemas: Schema[] | undefined;

  /** Binds the table to its node's `sideOutputs` array (appended to as outputs are declared). */
  attach(schemas: Schema[]): void {
    this.schemas = schemas;
  }

  /** The output number of `tag`, declaring the output on first use. */
  outputOf(tag: OutputTag): number {
    let i = this.byTag.get(tag);
    if (i === undefined) {
      if (this.schemas === undefined) throw new Error('internal error: side outputs of an unattached node');
      this.schemas.push(tag.schema);
      i = this.schemas.length;
      this.byTag.set(tag, i);
    }
    return i;
  }

  /** The output number of `tag`, or undefined when no stream reads it. */
  lookup(tag: OutputTag): number | undefined {
    return this.byTag.get(tag);
  }
}

/** What the adapter needs besides the user's factory. */
export interface AdapterSpec {
  /** Display name of the node, for errors (`map`, `process`). */
  readonly what: string;
  readonly inputs: 1 | 2;
  readonly sideOutputs: SideOutputs;
  /** Resolved when an operator first asks for list state. */
  readonly listState: () => ListStateProvider | undefined;
}

type AnyUserOperator = ProcessOperator & CoProcessOperator;

/** The runtime factory of a user operator: one user operator (from `factory`) per runtime instance. */
export function userOperatorFactory(factory: () => ProcessOperator | CoProcessOperator, spec: AdapterSpec): OperatorFactory {
  return () => {
    const user = factory();
    if (user === null || typeof user !== 'object') throw new ValidationError(`the ${spec.what} factory must return an operator object, got ${String(user)}`);
    return new UserOperatorAdapter(user as AnyUserOperator, spec);
  };
}

class UserOperatorAdapter implements Operator, ProcessContext, Collector {
  private ctx!: OperatorContext;
  /** Rows collected on the main output, not yet emitted. */
  private pending: Row[] = [];
  /** Rows per side output number. */
  private readonly side = new Map<number, { readonly tag: OutputTag; rows: Row[] }>();
  private states: Map<string, ListState> | undefined;
  /** True during `finish` inside an iteration: output carries END. */
  private atEnd = false;
  private names: (readonly string[])[] = [];
  /** The Arrow schema of the last batch `collectBatch` checked. */
  private checkedSchema: RecordBatch['schema'] | undefined;

  constructor(private readonly user: AnyUserOperator, private readonly spec: AdapterSpec) {
    // Listeners the user operator does not have are not offered to the runtime, which then skips the
    // call (an iteration calls every body operator's listener every round).
    const self = this as { onEpochWatermarkIncremented?: unknown; onIterationTerminated?: unknown };
    if (user.onEpochWatermarkIncremented === undefined) self.onEpochWatermarkIncremented = undefined;
    if (user.onIterationTerminated === undefined) self.onIterationTerminated = undefined;
  }

  // ---------------------------------------------------------------- ProcessContext
  get epoch(): number { return this.atEnd ? END : this.ctx.epoch; }
  get subtaskIndex(): number { return this.ctx.subtaskIndex; }
  get parallelism(): number { return this.ctx.parallelism; }

  output(tag: OutputTag, row: Row): void {
    const i = this.spec.sideOutputs.lookup(tag);
    if (i === undefined) return;
    let s = this.side.get(i);
    if (s === undefined) { s = { tag, rows: [] }; this.side.set(i, s); }
    s.rows.push(row);
    if (s.rows.length >= this.ctx.batchSize) this.flushSide(i, s);
  }

  getListState(name: string): ListState {
    this.states ??= new Map();
    let s = this.states.get(name);
    if (s === undefined) {
      const provider = this.spec.listState();
      if (provider === undefined) throw new ValidationError(`${this.ctx.name}: getListState("${name}") needs list state storage, which this stream environment was not given`);
      s = provider(this.ctx.subtaskIndex, name, this.ctx.name);
      this.states.set(name, s);
    }
    return s;
  }

  // ---------------------------------------------------------------- Collector
  collect(row: Row): void {
    this.pending.push(row);
    if (this.pending.length >= this.ctx.batchSize) this.flushMain();
  }

  collectBatch(batch: RecordBatch): void {
    if (this.pending.length > 0) this.flushMain();
    if (batch.numRows === 0) return;
    // Batches of one Arrow schema object pass or fail alike: check each schema once (a loop forwards the same one every round).
    if (batch.schema !== this.checkedSchema) { checkBatch(batch, this.ctx.outputSchema, `${this.spec.what}: collectBatch`); this.checkedSchema = batch.schema; }
    this.ctx.emit(batch, this.epoch);
  }

  // ---------------------------------------------------------------- Operator
  open(ctx: OperatorContext): void {
    this.ctx = ctx;
    this.names = ctx.inputSchemas.map((s) => s.fields.map((f) => f.name));
    this.user.open?.(this);
  }

  processBatch(input: number, batch: RecordBatch): void {
    const u = this.user;
    if (this.spec.inputs === 1 || input === 0) {
      if (u.processBatch !== undefined) u.processBatch(batch, this, this);
      else if (u.processBatch1 !== undefined) u.processBatch1(batch, this, this);
      else {
        const f = u.processElement ?? u.processElement1;
        if (f !== undefined) for (const row of rowsOfBatch(batch, this.names[input]!)) f.call(u, row, this, this);
      }
    } else if (u.processBatch2 !== undefined) u.processBatch2(batch, this, this);
    else if (u.processElement2 !== undefined) for (const row of rowsOfBatch(batch, this.names[input]!)) u.processElement2(row, this, this);
    this.flush();
  }

  onEpochWatermarkIncremented?(epoch: number): void {
    this.user.onEpochWatermarkIncremented!(epoch, this, this);
    this.flush();
  }

  onIterationTerminated?(): void {
    this.user.onIterationTerminated!(this, this);
    this.flush();
  }

  finish(): void {
    this.atEnd = this.ctx.inIteration;
    this.user.finish?.(this, this);
    this.flush();
  }

  close(): void {
    this.user.close?.();
  }

  /**
   * The checkpoint state of this subtask: the user operator's
   * `snapshotState()` and the contents of its list states (as batches), or
   * undefined when it has neither.
   */
  snapshotState(): unknown {
    const user = this.user.snapshotState?.();
    const lists = this.states === undefined ? [] : [...this.states].map(([name, st]) => [name, [...st.batches()]] as const);
    if (user === undefined && lists.length === 0) return undefined;
    return { user, lists };
  }

  /** Restores what `snapshotState` returned (the runtime calls it after `open`, in a restored run). */
  restoreState(state: unknown): void {
    if (state === undefined) return;
    const s = state as { readonly user: unknown; readonly lists: readonly (readonly [string, readonly RecordBatch[]])[] };
    for (const [name, batches] of s.lists) {
      const st = this.getListState(name);
      st.clear();
      for (const b of batches) st.addBatch(b);
    }
    if (s.user !== undefined) this.user.restoreState?.(s.user);
  }

  // ---------------------------------------------------------------- output
  private flush(): void {
    if (this.pending.length > 0) this.flushMain();
    for (const [i, s] of this.side) if (s.rows.length > 0) this.flushSide(i, s);
  }

  private flushMain(): void {
    const rows = this.pending;
    this.pending = [];
    this.ctx.emit(batchOfRows(rows, this.ctx.outputSchema, `${this.spec.what}: an output row`), this.epoch);
  }

  private flushSide(i: number, s: { readonly tag: OutputTag; rows: Row[] }): void {
    const rows = s.rows;
    s.rows = [];
    this.ctx.emitTo(i, batchOfRows(rows, s.tag.schema, `${this.spec.what}: a row for side output "${s.tag.name}"`), this.epoch);
  }
}

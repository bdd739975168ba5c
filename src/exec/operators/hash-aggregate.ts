/**
 * Hash aggregate: GROUP BY keys with aggregate calls. Group keys hash into a
 * typed-array KeyTable (kernels/hash.ts); each aggregate is a state machine
 * over dense group ids (agg-states.ts), updated once per batch; two or more
 * DOUBLE sums/averages and counts of a grouped aggregate share one state and
 * one loop per batch (agg-fused.ts: TPC-H Q1's eight aggregates); when every
 * call is fused and the keys are one NULL-free dictionary column or one or two
 * one-byte VARCHAR columns (Q1's flags), that loop reads the keys in place (no
 * group-id array, no second pass: `addCoded`).
 *
 * Epochs: state is per epoch. At `onEpochWatermarkIncremented(w)` the results
 * of every epoch ≤ w are emitted (tagged with their epoch) and dropped; at
 * `finish()` the rest. A global aggregate (no keys) emits exactly one row per
 * epoch that had rows, and one row for epoch 0 even when no row arrived (a
 * plain batch query over empty input: count 0, sum NULL); inside an iteration
 * one row for every round whose watermark passed, rows or not.
 *
 * Output: key columns then one column per aggregate (ctx.outputSchema);
 * VARCHAR keys come out as Utf8. Groups come out in first-seen order.
 *
 * Input (late materialization): with `input`, a fused Filter → [Project]
 * stage (kernels/fused-stage.ts) runs first and the aggregate reads its
 * columns through the selection vector: key columns are encoded in place
 * (KeyTable.groupIds with `sel`), arguments are read in place by states with
 * an `addSelected` path and gathered once per column for the others. When
 * lowering compiled a one-pass loop (`input.pass`, agg-fused-pass.ts) and a
 * batch qualifies, filter, projection and sums run as that one loop instead.
 *
 * Output through a HAVING (`having`, agg-having.ts): the predicate runs over the
 * columns it reads, a run of groups at a time, and only the kept groups' output
 * columns are built.
 */
import type { Data, RecordBatch } from 'apache-arrow';
import type { AggCall } from '../../relnode/rel.js';
import type { Schema, SqlType } from '../../relnode/types.js';
import { InternalError, placeError } from '../../relnode/errors.js';
import { batchFromColumns, takeData } from '../batch.js';
import type { Stage } from '../kernels/fused-stage.js';
import { KeyTable } from '../kernels/hash.js';
import { emitBounded, type Operator, type OperatorContext } from '../operator.js';
import { createAggStates, reserveForEstimate, type AggState } from './agg-states.js';
import { FusedAggregates, isFusible } from './agg-fused.js';
import type { FusedPass } from './agg-fused-pass.js';
import { EpochStates } from './epoch-states.js';
import { groupBytes } from '../memory.js';
import { stepRows } from '../runtime/step-budget.js';
import { EXPECT_AFTER } from '../kernels/hash-slots.js';
import { HavingEmit, valueOfGroups, type GroupColumns, type HavingConfig } from './agg-having.js';
import type { ColumnScratch } from './agg-arrays.js';
import { packedMap } from '../packed.js';

/**
 * The most groups the states are sized for from an estimate at once (SUM over DOUBLE: 24 bytes a
 * group, 48 MB), so an overestimate costs one bounded allocation, like the key table's (agg-states.ts
 * reserveForEstimate).
 */
const STATE_RESERVE_MAX = 1 << 21;

/** A global aggregate's one-pass loop never stops at an unresolved key (every row is group 0). */
const noKeyToResolve = (): number => { throw new InternalError('HashAggregate: a global aggregate resolved a key'); };

/** Configuration of a hash aggregate (plain data, from the Aggregate RelNode). */
export interface HashAggregateConfig {
  /** Input ordinals of the grouping keys. */
  readonly groupKeys: readonly number[];
  readonly aggCalls: readonly AggCall[];
  /**
   * A fused Filter → [Project] stage the input batches pass first, and its output schema: `groupKeys`
   * and `args` index it; with `pass`, the same stage and aggregate as one loop (agg-fused-pass.ts),
   * taken for each batch it can run (the stage otherwise).
   */
  readonly input?: { readonly stage: Stage; readonly schema: Schema; readonly pass?: FusedPass };
  /** The planner's estimate of this instance's groups: a big table is sized for it up front (agg-states.ts reserveForEstimate). */
  readonly expectedGroups?: number;
  /** The planner's estimate of this instance's input rows: a DISTINCT call's (group, value) table is sized for them. */
  readonly expectedInputRows?: number;
  /** A HAVING over the output: only the groups where it is TRUE are emitted (agg-having.ts). */
  readonly having?: HavingConfig;
}

interface EpochState {
  readonly table: KeyTable | null;
  /** One state per aggregate call; undefined for the calls computed by `fused`. */
  readonly aggs: (AggState | undefined)[];
  /** The fusible calls' shared state (agg-fused.ts), or null. */
  readonly fused: FusedAggregates | null;
  /** Number of groups (1 for a global aggregate). */
  groups: number;
  /** Whether the states were sized from the planner's estimate (`reserveStates`) already. */
  reserved: boolean;
}

/**
 * One epoch's states and key table after their last output column was built (output columns are
 * copies): their big arrays go back to the thread's pool for the next query's (kernels/buffer-pool.ts).
 */
function release(st: EpochState): void {
  for (const a of st.aggs) a?.release?.();
  st.fused?.release();
  st.table?.release();
}

/**
 * The group ids of the batch being added, one buffer shared by every aggregate on this thread (a
 * worker isolate has its own): every state consumes the ids within `accumulate` and keeps no
 * reference to them, and nothing in between yields. Per operator instance it was a fresh 256 KB
 * array per query and aggregate, new external memory to V8 each time (kernels/buffer-pool.ts).
 */
let sharedGids = new Int32Array(0);
function gidScratch(n: number): Int32Array {
  if (sharedGids.length < n) sharedGids = new Int32Array(Math.max(n, 2 * sharedGids.length));
  return sharedGids;
}

/** All-zero group ids of a global aggregate's batch (group 0), shared like `sharedGids`: states only read them. */
let sharedZeros = new Int32Array(0);
function zeroGids(n: number): Int32Array {
  if (sharedZeros.length < n) sharedZeros = new Int32Array(Math.max(n, 2 * sharedZeros.length));
  return sharedZeros;
}

/** Creates a hash aggregate operator instance. */
export function hashAggregate(config: HashAggregateConfig): Operator {
  return new HashAggregate(config);
}

class HashAggregate implements Operator {
  private ctx!: OperatorContext;
  private keyTypes: SqlType[] = [];
  private argTypes: SqlType[][] = [];
  private readonly epochs = new EpochStates<EpochState>(() => this.newState());
  /** Whether epoch 0's result was emitted (a global aggregate always has an epoch-0 row). */
  private emittedEpoch0 = false;
  /** Inside an iteration: the first round a global aggregate has not answered yet. */
  private nextRound = 0;
  /** Per call: its member index in the fused state, or -1 (its own AggState). */
  private fusedSlot: number[] = [];
  /** Whether every call is a member of the fused state. */
  private allFused = false;

  /*
   * What the per-batch methods read of the config, copied into the aggregate's own fields: configs of different
   * queries have different shapes (their optional fields), and accumulate read `config.groupKeys` through each
   * shape in turn: a "wrong map" deopt and a recompile in TPC-H Q18's timed runs (bench/deopt-runs.ts --why).
   */
  private readonly groupKeys: readonly number[];
  private readonly aggCalls: HashAggregateConfig['aggCalls'];
  private readonly input: HashAggregateConfig['input'];

  constructor(private readonly config: HashAggregateConfig) {
    this.groupKeys = config.groupKeys;
    this.aggCalls = config.aggCalls;
    this.input = config.input;
  }

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
    const input = this.config.input?.schema ?? ctx.inputSchemas[0]!;
    this.keyTypes = this.config.groupKeys.map((k) => input.fields[k]!.type);
    this.argTypes = this.config.aggCalls.map((a) => a.args.map((k) => input.fields[k]!.type));
    // Grouped aggregates with two or more fusible calls update them in one loop (agg-fused.ts); a
    // global aggregate keeps its per-state addGlobal loops (sums in registers, no group ids) unless
    // lowering compiled a one-pass loop for it (TPC-H Q6): then its calls are one fused state,
    // group 0, which the pass adds to (a batch it cannot take goes through the same state).
    const calls = this.config.aggCalls;
    const global = this.config.groupKeys.length === 0;
    // With a one-pass loop (lowering compiled one: every call fusible), a single call is one fused state too.
    const pass = this.config.input?.pass !== undefined && calls.every((a, i) => isFusible(a, this.argTypes[i]!));
    const globalPass = global && pass;
    const fusible = calls.map((a, i) => (!global || globalPass) && isFusible(a, this.argTypes[i]!));
    let k = 0;
    this.fusedSlot = fusible.filter(Boolean).length >= (pass ? 1 : 2) ? fusible.map((f) => (f ? k++ : -1)) : calls.map(() => -1);
    this.allFused = this.fusedSlot.every((s) => s >= 0);
  }

  private newState(): EpochState {
    const global = this.config.groupKeys.length === 0;
    const st: EpochState = {
      table: global ? null : new KeyTable(this.keyTypes),
      aggs: createAggStates(this.config.aggCalls, this.argTypes, (i) => this.fusedSlot[i]! < 0, this.estimate(this.config.expectedInputRows)),
      fused: this.fusedSlot.some((s) => s >= 0) ? new FusedAggregates(this.config.aggCalls.filter((_, i) => this.fusedSlot[i]! >= 0)) : null,
      groups: global ? 1 : 0,
      reserved: false,
    };
    if (st.table !== null) reserveForEstimate(st.table, this.estimate(this.config.expectedGroups));
    for (const a of st.aggs) a?.resize(st.groups);
    st.fused?.resize(st.groups);
    return st;
  }

  /** A planner estimate to size tables for: none inside an iteration (each round's state is small and short-lived). */
  private estimate(e: number | undefined): number {
    return this.ctx.inIteration ? 0 : e ?? 0;
  }

  private stateFor(epoch: number): EpochState {
    return this.epochs.get(epoch);
  }

  processBatch(_input: number, batch: RecordBatch, epoch: number): void {
    const input = this.input;
    if (input === undefined) {
      if (batch.numRows > 0) this.accumulate(batch.data.children, null, batch.numRows, epoch);
      return;
    }
    if (input.pass !== undefined && this.allFused && batch.numRows > 0 && this.addPass(input.pass, batch, epoch)) return;
    const s = input.stage(batch);
    if (s !== null) this.accumulate(s.columns, s.sel, s.length, epoch);
  }

  /**
   * The filter, projection and every (fused) call in one loop over the batch (agg-fused-pass.ts),
   * the keys read in place; false, adding nothing, when the batch does not qualify.
   */
  private addPass(pass: FusedPass, batch: RecordBatch, epoch: number): boolean {
    const st = this.stateFor(epoch);
    const table = st.table;
    if (st.fused === null) return false;
    // A global aggregate: every kept row adds to group 0 (the state holds it from the start).
    if (table === null) return pass.keyColumns.length === 0 && pass.add(batch, st.fused, null, noKeyToResolve);
    const cols = batch.data.children;
    const keys = pass.keyColumns.map((c) => cols[c]!);
    const rows = table.keyRows(keys, batch.numRows);
    if (rows === null) return false;
    if (!pass.add(batch, st.fused, rows, (r) => table.resolveKeyRow(keys, rows, r))) return false;
    this.countGroups(st);
    return true;
  }

  /** Adds rows `sel` (null: rows [0, n)) of the input columns to epoch `epoch`'s groups. */
  private accumulate(cols: readonly Data[], sel: Int32Array | null, n: number, epoch: number): void {
    const st = this.stateFor(epoch);
    // Columns gathered to the selected rows, at most once each per batch (made on first use).
    let gathered: Map<number, Data> | null = null;
    if (st.table !== null && st.fused !== null && this.allFused && this.addCoded(st, cols, sel, n)) return;
    let gids: Int32Array;
    if (st.table === null) gids = zeroGids(n);
    else {
      // Keys are encoded through the selection, in place (no gathered copy of the key columns).
      gids = st.table.groupIds(packedMap(this.groupKeys, (k) => cols[k]!), n, gidScratch(n), sel);
      this.countGroups(st);
    }
    const calls = this.aggCalls;
    if (st.fused !== null) { st.fused.resize(st.groups); st.fused.add(cols, gids, sel, n); }
    for (let i = 0; i < calls.length; i++) {
      const agg = st.aggs[i];
      if (agg === undefined) continue;
      agg.resize(st.groups);
      const argIdx = calls[i]!.args;
      if (sel !== null && agg.addSelected) { agg.addSelected(packedMap(argIdx, (k) => cols[k]!), gids, sel, n); continue; }
      // No named closure per batch: under tsx (the benches, the tests) each one costs a defineProperty of its name.
      const args = sel === null ? packedMap(argIdx, (k) => cols[k]!) : packedMap(argIdx, (k) => gatheredColumn(cols, k, sel, n, (gathered ??= new Map())));
      if (st.table === null && agg.addGlobal) agg.addGlobal(args, n);
      else agg.add(args, gids, n);
    }
  }

  /**
   * Every call fused and keys the fused loop reads in place (KeyTable.keyRows: one NULL-free
   * dictionary key, or one or two one-byte VARCHAR keys; FusedAggregates.addCoded), no group-id
   * array. False when the batch does not qualify.
   */
  private addCoded(st: EpochState, cols: readonly Data[], sel: Int32Array | null, n: number): boolean {
    const table = st.table!;
    const keys = packedMap(this.groupKeys, (k) => cols[k]!);
    // The byte tables are made only for big batches: count the column's rows, not the selected ones.
    const rows = table.keyRows(keys, keys[0]!.length);
    if (rows === null) return false;
    if (!st.fused!.addCoded(cols, rows, sel, n, (r) => table.resolveKeyRow(keys, rows, r))) return false;
    this.countGroups(st);
    return true;
  }

  /** Reserves memory for the groups the table gained since the last count. */
  private countGroups(st: EpochState): void {
    const added = st.table!.size - st.groups;
    if (added > 0) this.ctx.reserveMemory(added * groupBytes(this.groupKeys.length, this.aggCalls.length));
    st.groups = st.table!.size;
    if (!st.reserved && st.groups >= EXPECT_AFTER) this.reserveStates(st);
  }

  /**
   * Once EXPECT_AFTER groups exist (as the key table does, hash-slots.ts), the states jump to the
   * planner's estimate of the groups instead of doubling there: TPC-H Q18's 1.5M groups of
   * sum(DOUBLE) allocated and copied ~100 MB of doubling arrays for a 37 MB state. A small real
   * count never reaches the jump, so an estimate far above it (Q3: 450K for 11K) costs nothing.
   */
  private reserveStates(st: EpochState): void {
    st.reserved = true;
    const e = Math.min(this.estimate(this.config.expectedGroups), STATE_RESERVE_MAX);
    if (e <= st.groups) return;
    for (const a of st.aggs) a?.reserve?.(e);
    st.fused?.resize(e);
  }

  onEpochWatermarkIncremented(epoch: number): void {
    this.emitUpTo(epoch);
  }

  finish(): void {
    this.emitUpTo(Infinity);
  }

  private emitUpTo(w: number): void {
    if (w >= 0 && !this.emittedEpoch0 && this.config.groupKeys.length === 0) this.stateFor(0);
    // Inside an iteration every round is a query of its own: a global aggregate answers each round
    // that ended, also one without rows (count 0), as it answers a batch query over empty input.
    if (this.config.groupKeys.length === 0 && this.ctx.inIteration && Number.isFinite(w)) {
      for (let e = this.nextRound; e <= w; e++) this.stateFor(e);
      this.nextRound = Math.max(this.nextRound, w + 1);
    }
    this.epochs.drainUpTo(w, (st, e) => {
      if (e === 0) this.emittedEpoch0 = true;
      this.emitState(st, e);
    });
  }

  /** Emits one epoch's groups, one batch per step. */
  private emitState(st: EpochState, epoch: number): void {
    const size = stepRows(this.ctx);
    if (this.config.having !== undefined) {
      const h = new HavingEmit(this.config.having, this.columnsOf(st), this.ctx.outputSchema.fields.length, st.groups, size);
      emitBounded(this.ctx, () => {
        const out = h.step();
        if (out !== null) this.ctx.emit(batchFromColumns(this.ctx.outputSchema, out.columns, out.rows), epoch);
        if (!h.done) return true;
        release(st);
        return false;
      });
      return;
    }
    let start = 0;
    emitBounded(this.ctx, () => {
      if (start < st.groups) {
        const end = Math.min(st.groups, start + size);
        const cols: Data[] = st.table ? st.table.keyColumns(start, end) : [];
        for (let i = 0; i < st.aggs.length; i++) cols.push(this.callValue(st, i, start, end));
        this.ctx.emit(batchFromColumns(this.ctx.outputSchema, cols, end - start), epoch);
        start = end;
      }
      if (start < st.groups) return true;
      release(st);
      return false;
    });
  }

  /**
   * Call i's values of groups [start, end). A state that raises here (sum overflowing BIGINT, stddev
   * of an infinite input) raises about the call: the error is placed where it was written in SQL
   * (AggCall.at), as an expression's error is (kernels/compile.ts located). One try per call and
   * output batch.
   */
  private callValue(st: EpochState, i: number, start: number, end: number, scratch?: ColumnScratch): Data {
    try {
      return st.aggs[i]?.value(start, end, scratch) ?? st.fused!.value(this.fusedSlot[i]!, start, end, scratch);
    } catch (err) {
      throw placeError(err, this.aggCalls[i]!.at);
    }
  }

  /** One epoch's output columns by ordinal (keys, then one per call), over a range of groups or given groups. */
  private columnsOf(st: EpochState): GroupColumns {
    const k = this.config.groupKeys.length;
    const value = (c: number, start: number, end: number, scratch?: ColumnScratch): Data => this.callValue(st, c - k, start, end, scratch);
    return {
      range: (c, start, end, scratch) => {
        if (c >= k) return value(c, start, end, scratch);
        const gids = scratch.words(end - start);
        for (let i = 0; i < gids.length; i++) gids[i] = start + i;
        return st.table!.keyColumn(c, gids);
      },
      at: (c, gids, n) => {
        if (c < k) return st.table!.keyColumn(c, gids, n);
        const agg = st.aggs[c - k];
        try {
          if (agg?.valueAt !== undefined) return agg.valueAt(gids, n);
          if (agg === undefined) return st.fused!.valueAt(this.fusedSlot[c - k]!, gids, n);
        } catch (err) {
          throw placeError(err, this.aggCalls[c - k]!.at);
        }
        return valueOfGroups((start, end) => value(c, start, end), gids, n);
      },
    };
  }

  close(): void {
    this.epochs.clear();
  }
}

/** Column `k` gathered to the rows of `sel` (n of them), once per batch: kept in `gathered`. */
function gatheredColumn(cols: readonly Data[], k: number, sel: Int32Array, n: number, gathered: Map<number, Data>): Data {
  let d = gathered.get(k);
  if (d === undefined) { d = takeData(cols[k]!, sel, n, false); gathered.set(k, d); }
  return d;
}

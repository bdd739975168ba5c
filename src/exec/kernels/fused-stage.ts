/**
 * Late materialization: a Filter (and the Project above it) compiled into one
 * stage that returns columns *viewed through a selection vector* instead of a
 * copied batch.
 *
 * Decision (issue #10): selections never travel on channels. A RecordBatch on
 * a channel is always materialized, so no operator can misread one; instead
 * lowering (planner/lower.ts) fuses Filter → [Project] into the operator that
 * consumes it — a hash aggregate, which reads keys and arguments through the
 * selection, or a FilterProject, which gathers only the projected columns
 * once — and that fused operator is the only consumer of a `Selected`. Cache
 * sinks and exchanges see only materialized batches.
 *
 * How a stage evaluates a projection over a selection of m of n rows:
 * - dense (m ≥ n/4): each computed expression runs over the whole batch (one
 *   tight loop, no gather of its inputs); an ExecutionError (overflow, bad
 *   cast) is retried on the selected rows only (selection.ts evalGuarded), so
 *   errors come only from rows the filter kept. Column references pass the
 *   input Data through; the selection stays.
 * - sparse (m < n/4): the columns the projection reads are gathered once to
 *   m rows and every expression runs on those; the selection is consumed.
 */
import type * as arrow from 'apache-arrow';
import { rexInputs, type RexNode } from '../../relnode/rex.js';
import type { Schema, SqlType } from '../../relnode/types.js';
import { batchFromColumns, takeData } from '../batch.js';
import { compileExpr, compileTransientExpr } from './compile.js';
import { nullColumn } from './column.js';
import type { Kernel } from './context.js';
import { compilePredicate } from './predicate.js';
import { evalGuarded } from './selection.js';
import { shareOutputs, type SharedOutputs } from './stage-shared.js';

/** Columns seen through a selection: row j of the stage's output is row `sel[j]` of each column (sel null: row j). */
export interface Selected {
  /** One Data per output column; each has the input batch's row count when `sel` is not null, `length` rows otherwise. */
  readonly columns: readonly arrow.Data[];
  /** Ascending row indexes of the selected rows, or null when every row of `columns` is selected. Valid until the stage's next call. */
  readonly sel: Int32Array | null;
  /** The number of selected rows (> 0). */
  readonly length: number;
}

/** A compiled Filter → [Project] stage: null when no row survives. */
export type Stage = (batch: arrow.RecordBatch) => Selected | null;

/** Below this fraction of surviving rows the projection's inputs are gathered before it runs. */
export const DENSE_FRACTION = 0.25;

interface Output {
  /** A column reference (passes through), or -1. */
  readonly ref: number;
  readonly kernel: Kernel | null;
  readonly type: SqlType;
  readonly inputs: ReadonlySet<number>;
}

/**
 * Compiles `Filter(condition)` over `inputSchema`, optionally followed by
 * `Project(exprs)` over the filter's output (the same schema), into a stage.
 * Without a condition the stage only projects (every row selected).
 * `transient`: output columns the consumer is done with before the stage's next call (it keeps no
 * reference to their Data); their computed values may reuse one buffer batch after batch.
 */
export function compileStage(condition: RexNode | undefined, exprs: readonly RexNode[] | undefined, inputSchema: Schema, transient?: ReadonlySet<number>): Stage {
  const predicate = condition === undefined ? undefined : compilePredicate(condition, inputSchema);
  // Outputs containing earlier outputs read their columns (stage-shared.ts); `schema` is then the
  // input's followed by those columns, and `extend` appends them to a batch.
  const sh = exprs === undefined ? null : shareOutputs(exprs, inputSchema, transient);
  const schema = sh?.schema ?? inputSchema;
  const outputs: Output[] | undefined = exprs?.map((e0, k) => {
    const e = sh?.exprs[k] ?? e0;
    return {
      ref: e.kind === 'InputRef' ? e.index : -1,
      kernel: e.kind === 'InputRef' ? null : transient?.has(k) === true ? compileTransientExpr(e, schema) : compileExpr(e, schema),
      type: e.type,
      inputs: rexInputs(e),
    };
  });
  const used = new Set<number>();
  for (const e of exprs ?? []) rexInputs(e, used);
  const evaluate = sh === null
    ? (b: arrow.RecordBatch, one: (o: Output, b: arrow.RecordBatch, s: Schema) => arrow.Data): arrow.Data[] => outputs!.map((o) => (o.kernel === null ? b.data.children[o.ref]! : one(o, b, schema)))
    : (b: arrow.RecordBatch, one: (o: Output, b: arrow.RecordBatch, s: Schema) => arrow.Data): arrow.Data[] => evaluateShared(sh, outputs!, b, one);
  // The filter's selection is written into one buffer reused batch after batch: every consumer of a
  // stage (the fused operators) is done with it before the next batch arrives.
  let scratch = new Int32Array(0);
  return (batch) => {
    const n = batch.numRows;
    if (predicate !== undefined && scratch.length < n) scratch = new Int32Array(n);
    const sel = predicate === undefined ? null : predicate(batch, scratch);
    if (sel !== null && sel.length === 0) return null;
    const input = batch.data.children;
    if (outputs === undefined) return { columns: input, sel, length: sel === null ? n : sel.length };
    if (sel === null) return { columns: evaluate(batch, (o, b) => o.kernel!(b)), sel: null, length: n };
    const m = sel.length;
    if (m >= DENSE_FRACTION * n) {
      const columns = evaluate(batch, (o, b, s) => evalGuarded(o.kernel!, o.type, b, sel, s, o.inputs));
      return { columns, sel, length: m };
    }
    const compact = compactColumns(batch, sel, used);
    return { columns: evaluate(compact, (o, b) => o.kernel!(b)), sel: null, length: m };
  };
}

/**
 * The outputs of a stage with shared subexpressions over `batch`, in order: an alias takes its
 * earlier output's column; an output reading shared columns runs over `batch` extended by them
 * (every output it reads comes before it, so is computed already).
 */
function evaluateShared(sh: SharedOutputs, outputs: readonly Output[], batch: arrow.RecordBatch, one: (o: Output, b: arrow.RecordBatch, s: Schema) => arrow.Data): arrow.Data[] {
  const input = batch.data.children;
  const base = input.length;
  const cols: arrow.Data[] = [];
  for (let k = 0; k < outputs.length; k++) {
    const o = outputs[k]!;
    const a = sh.alias[k]!;
    if (a >= 0) { cols.push(cols[a]!); continue; }
    if (o.kernel === null) { cols.push(input[o.ref]!); continue; }
    let reads = false;
    for (const c of o.inputs) if (c >= base) reads = true;
    if (!reads) { cols.push(one(o, batch, sh.schema)); continue; }
    // Not-yet-computed shared columns (read only by later outputs) are NULL placeholders here.
    const ext = batchFromColumns(sh.schema, [...input, ...sh.shared.map((j) => (j < k ? cols[j]! : nullColumn(batch.numRows)))], batch.numRows);
    cols.push(one(o, ext, sh.schema));
  }
  return cols;
}

/** A batch of rows `sel` of `batch`, gathering only the columns in `cols` (the others become all-NULL placeholders). */
export function compactColumns(batch: arrow.RecordBatch, sel: Int32Array, cols: ReadonlySet<number>): arrow.RecordBatch {
  const m = sel.length;
  const children = batch.data.children.map((d, c) => (cols.has(c) ? takeData(d, sel, m, false) : nullColumn(m)));
  return batchFromColumns(children.map((_, c) => `c${c}`), children, m);
}

/** The selected rows as plain columns (`length` rows each): gathers each column once. */
export function materialize(s: Selected): arrow.Data[] {
  const sel = s.sel;
  if (sel === null) return [...s.columns];
  return s.columns.map((d) => takeData(d, sel, s.length, false));
}

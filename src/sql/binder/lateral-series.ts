/**
 * range() / generate_series() whose arguments read other columns:
 * `FROM t, LATERAL range(t.n) r`, `LATERAL generate_series(1, t.n)`
 * (constant arguments make a Values node, range-function.ts). The call
 * binds to a row-wise TableFunction over a one-row input that computes the
 * arguments (OuterRefs to the lateral's left side): for each input row it
 * emits that row followed by each value of its series, none when an
 * argument is NULL (DuckDB), and fails the query on a step of 0. A
 * row-wise function commutes with the decorrelation: the domain rule
 * flattens its input (flatten-dependent.ts), and decorrelate-lateral runs
 * it straight over the left side's rows.
 *
 * Decision: the generator is a TableFunction with an impl (as the ML
 * functions), not a new RelNode kind: the relational layer only needs to
 * know it is row-wise (RowWiseImpl, table-function.ts), and every other rule
 * already treats a TableFunction as opaque.
 */
import { Int64, type RecordBatch } from 'apache-arrow';
import { fixedData } from '../../exec/arrow-build.js';
import { batchFromColumns, isValidAt, takeData } from '../../exec/batch.js';
import type { Operator, OperatorContext } from '../../exec/operator.js';
import type { JobGraphBuilder } from '../../exec/job.js';
import { ExecutionError } from '../../relnode/errors.js';
import * as rel from '../../relnode/rel.js';
import type { RowWiseImpl } from '../../relnode/table-function.js';
import { cast, inputRef, type RexNode } from '../../relnode/rex.js';
import { field, schemaOf } from '../../relnode/types.js';
import type { FromItem } from '../ast.js';
import { sqlError, type BindContext } from './context.js';
import { bindExpr } from './expr.js';

type TableFunctionItem = Extract<FromItem, { kind: 'tableFunction' }>;

/** Is `it` a range / generate_series call with an argument that is not a (signed) integer literal? */
export function isComputedSeries(it: TableFunctionItem): boolean {
  const name = it.name.toLowerCase();
  if (name !== 'range' && name !== 'generate_series') return false;
  return it.args.some((e) => {
    const x = e.kind === 'unary' && e.op === '-' ? e.arg : e;
    return !(x.kind === 'literal' && x.literal === 'number' && /^\d+$/.test(x.value ?? ''));
  });
}

/** Binds a range / generate_series call whose arguments are expressions (over the outer scope of `ctx`). */
export function bindComputedSeries(ctx: BindContext, it: TableFunctionItem): rel.RelNode {
  const name = it.name.toLowerCase() as 'range' | 'generate_series';
  if (it.options.length > 0) throw sqlError(ctx.sql, it.options[0]!.value.pos, `${it.name} takes no options`);
  if (it.args.length < 1 || it.args.length > 3) throw sqlError(ctx.sql, it.pos, `${it.name} takes 1 to 3 integer arguments (start, stop, step), got ${it.args.length}`);
  const dual = rel.values([[0]], schemaOf([field('dummy', 'INTEGER', false)]));
  const scope = { ctx, cols: [{ name: 'dummy', type: 'INTEGER' as const, nullable: false, internal: true }], clause: `${it.name}() arguments` };
  const args = it.args.map((e) => {
    const x = bindExpr(scope, e);
    if (x.type !== 'INTEGER' && x.type !== 'BIGINT' && x.type !== 'NULL') throw sqlError(ctx.sql, e.pos, `${it.name}() takes integer arguments, got ${x.type}`);
    return x.type === 'BIGINT' ? x : cast(x, 'BIGINT');
  });
  const one = (v: bigint): RexNode => ({ kind: 'Literal', value: v, type: 'BIGINT' });
  const [start, stop, step] = args.length === 1 ? [one(0n), args[0]!, one(1n)] : [args[0]!, args[1]!, args[2] ?? one(1n)];
  const input = rel.project(dual, [start, stop, step], ['__start', '__stop', '__step']);
  const node = seriesNode(input, name);
  const w = node.schema.fields.length;
  return rel.project(node, [inputRef(w - 1, 'BIGINT', name)], [name]);
}

/**
 * The series TableFunction over `input`, whose first three columns are start, stop and step (BIGINT):
 * input's columns, then the series value.
 */
export function seriesNode(input: rel.RelNode, name: 'range' | 'generate_series'): rel.TableFunction {
  const schema = schemaOf([...input.schema.fields, field(name, 'BIGINT', false)]);
  return rel.tableFunction(`lateral_${name}`, [input], [], schema, new SeriesImpl(name === 'generate_series'));
}

/** How a series runs (planner/lower.ts TableFunctionImpl): one operator per input subtask, forward. */
class SeriesImpl implements RowWiseImpl {
  readonly rowWise = true;
  constructor(readonly inclusive: boolean) {}

  /** The same function over a new input whose first three columns are still start, stop and step (the decorrelation's). */
  over(input: rel.RelNode): rel.TableFunction {
    return seriesNode(input, this.inclusive ? 'generate_series' : 'range');
  }

  lower(b: JobGraphBuilder, inputs: readonly number[], _parallelism: number, node: rel.TableFunction): number {
    const from = inputs[0]!;
    return b.addOperator(this.inclusive ? 'GenerateSeries' : 'Range', b.parallelismOf(from), node.schema, () => seriesOperator(this.inclusive), [{ from, partitioner: { kind: 'forward' } }]);
  }
}

/** The series of one row: count values from start by step (0 when an argument is NULL). */
function seriesCount(start: bigint, stop: bigint, step: bigint, inclusive: boolean): bigint {
  if (step === 0n) throw new ExecutionError('range() / generate_series(): the step must not be 0');
  const end = inclusive ? stop + (step > 0n ? 1n : -1n) : stop;
  const span = step > 0n ? end - start : start - end;
  const abs = step > 0n ? step : -step;
  return span <= 0n ? 0n : (span + abs - 1n) / abs;
}

/** Emits each input row once per value of its series, at most about `batchSize` rows per step. */
function seriesOperator(inclusive: boolean): Operator {
  let ctx!: OperatorContext;
  const run = (batch: RecordBatch, epoch: number): void => {
    const cols = batch.data.children;
    // BIGINT columns hold a BigInt64Array; a constant argument may arrive narrower (an Int32 column).
    const arg = (c: number): { values: { readonly [i: number]: bigint }; data: (typeof cols)[number] } => {
      const v = cols[c]!.values as BigInt64Array | Int32Array;
      return { values: v instanceof BigInt64Array ? v : BigInt64Array.from(v, (x) => BigInt(x)), data: cols[c]! };
    };
    const [a, z, s] = [arg(0), arg(1), arg(2)];
    const valid = (d: (typeof cols)[number], i: number): boolean => d.nullCount === 0 || isValidAt(d, i);
    let row = 0;
    let next = 0n; // the index within row's series where the next step starts
    const step = (): boolean => {
      const sel: number[] = [];
      const vals: bigint[] = [];
      while (row < batch.numRows && sel.length < ctx.batchSize) {
        if (!valid(a.data, row) || !valid(z.data, row) || !valid(s.data, row)) { row++; continue; }
        const st = a.values[row]!;
        const by = s.values[row]!;
        const count = seriesCount(st, z.values[row]!, by, inclusive);
        while (next < count && sel.length < ctx.batchSize) { sel.push(row); vals.push(st + next * by); next++; }
        if (next >= count) { row++; next = 0n; }
      }
      if (sel.length > 0) {
        const idx = Int32Array.from(sel);
        const out = [...cols.map((c) => takeData(c, idx, idx.length, false)), fixedData(new Int64(), vals.length, 0, null, BigInt64Array.from(vals))];
        ctx.emit(batchFromColumns(ctx.outputSchema, out, idx.length), epoch);
      }
      return row < batch.numRows;
    };
    if (step()) ctx.defer(step);
  };
  return {
    open(c) { ctx = c; },
    processBatch(_input: number, batch: RecordBatch, epoch: number) { if (batch.numRows > 0) run(batch, epoch); },
    finish() {},
    close() {},
  };
}

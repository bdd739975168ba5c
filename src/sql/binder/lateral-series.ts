/**
 * range() / generate_series() whose arguments read other columns:
 * `FROM t, LATERAL range(t.n) r`, `LATERAL generate_series(1, t.n)`
 * (constant arguments make a Values node, range-function.ts). The call
 * binds to a row-wise TableFunction over a one-row input that computes the
 * arguments (OuterRefs to the lateral's left side), run by
 * exec/operators/series.ts: each input row followed by each value of its
 * series, none when an argument is NULL (DuckDB), an error on a step of 0. A
 * row-wise function commutes with the decorrelation: the domain rule
 * flattens its input (flatten-dependent.ts), and decorrelate-lateral runs
 * it straight over the left side's rows.
 *
 * Decision: the generator is a TableFunction with an impl (as the ML
 * functions), not a new RelNode kind: the relational layer only needs to
 * know it is row-wise (RowWiseImpl, table-function.ts), and every other rule
 * already treats a TableFunction as opaque.
 */
import type { JobGraphBuilder } from '../../exec/job.js';
import { seriesOperator } from '../../exec/operators/series.js';
import * as rel from '../../relnode/rel.js';
import type { RowWiseImpl } from '../../relnode/table-function.js';
import { cast, inputRef, type RexNode } from '../../relnode/rex.js';
import { sourceSpan, type SourceSpan } from '../../relnode/source-span.js';
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
  const node = seriesNode(input, name, sourceSpan(ctx.sql.text, it.pos));
  const w = node.schema.fields.length;
  return rel.project(node, [inputRef(w - 1, 'BIGINT', name)], [name]);
}

/**
 * The series TableFunction over `input`, whose first three columns are start, stop and step (BIGINT):
 * input's columns, then the series value.
 */
export function seriesNode(input: rel.RelNode, name: 'range' | 'generate_series', at?: SourceSpan): rel.TableFunction {
  const schema = schemaOf([...input.schema.fields, field(name, 'BIGINT', false)]);
  return rel.tableFunction(`lateral_${name}`, [input], [], schema, new SeriesImpl(name === 'generate_series', at));
}

/** How a series runs (planner/lower.ts TableFunctionImpl): one operator per input subtask, forward. */
class SeriesImpl implements RowWiseImpl {
  readonly rowWise = true;
  /** @param at where SQL text wrote the call: a step of 0 found at run time points there */
  constructor(readonly inclusive: boolean, readonly at?: SourceSpan) {}

  /** The same function over a new input whose first three columns are still start, stop and step (the decorrelation's). */
  over(input: rel.RelNode): rel.TableFunction {
    return seriesNode(input, this.inclusive ? 'generate_series' : 'range', this.at);
  }

  lower(b: JobGraphBuilder, inputs: readonly number[], _parallelism: number, node: rel.TableFunction): number {
    const from = inputs[0]!;
    return b.addOperator(this.inclusive ? 'GenerateSeries' : 'Range', b.parallelismOf(from), node.schema, () => seriesOperator(this.inclusive, this.at), [{ from, partitioner: { kind: 'forward' } }]);
  }
}

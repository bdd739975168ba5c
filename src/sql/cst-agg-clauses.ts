/**
 * `agg(...) FILTER (WHERE c)` and `percentile_cont(p) WITHIN GROUP (ORDER BY x)`, desugared when the AST
 * is built, so the binder, the planner and the runtime need nothing new:
 *
 * - FILTER: every aggregate eddy has but `first` / `last` skips a row whose value argument is NULL, so
 *   `agg(x) FILTER (WHERE c)` is `agg(CASE WHEN c THEN x END)` — the row counts only where c is true
 *   (NULL or false drop it, as the standard says). `count(*) FILTER (WHERE c)` is
 *   `count(CASE WHEN c THEN 1 END)`. Only the value arguments are wrapped: a quantile's fraction and
 *   string_agg's separator stay constants. `first` and `last` keep NULL values, so a CASE would change
 *   their answer: they refuse FILTER rather than answer wrongly. The rewrite works the same under OVER.
 * - WITHIN GROUP: `percentile_cont(p)` / `percentile_disc(p)` ordered by x are `quantile_cont(x, p)` /
 *   `quantile_disc(x, p)`; DESC is `quantile_cont(x, 1 - p)` (interpolation is symmetric). A discrete
 *   percentile in descending order picks a different element than 1 - p, so it is refused, as is more than
 *   one ordering key. `mode() WITHIN GROUP (ORDER BY x)` is `mode(x)`.
 *
 * The rewritten call keeps the call as written (`written`) for its output column name: DuckDB's
 * names (`count_star() FILTER (WHERE (x > 1))`, `quantile_cont(0.25 ORDER BY x)`).
 */
import type { Expr, OrderItem, Pos } from './ast.js';
import { registryEntry } from '../relnode/function-registry.js';

type FunctionExpr = Extract<Expr, { kind: 'function' }>;

/** Raised for a clause that does not fit its call; the caller turns it into a positioned SQL error. */
export class AggClauseError extends Error {
  constructor(readonly pos: Pos, message: string) { super(message); }
}

/** Aggregates whose answer includes NULL values: a FILTER written as CASE would change them. */
const KEEPS_NULLS = new Set(['first', 'last']);
/** Aggregates with constant trailing arguments: only the first argument is the value (by canonical name). */
const FIRST_ARG_ONLY = new Set(['quantile_cont', 'quantile_disc', 'string_agg']);

/** The call with its FILTER / WITHIN GROUP clauses desugared (the call itself when it has neither). */
export function desugarAggClauses(call: FunctionExpr, isAggregate: boolean): FunctionExpr {
  if (call.withinGroup === undefined && (call.name === 'percentile_cont' || call.name === 'percentile_disc')) {
    const q = call.name === 'percentile_cont' ? 'quantile_cont' : 'quantile_disc';
    throw new AggClauseError(call.pos, `${call.name}(fraction) needs WITHIN GROUP (ORDER BY x), or write ${q}(x, fraction)`);
  }
  if (call.filter === undefined && call.withinGroup === undefined) return call;
  let out = call.withinGroup !== undefined ? withinGroup(call) : call;
  if (call.filter !== undefined) out = filtered(out, call.filter, isAggregate || call.withinGroup !== undefined);
  const { filter: _f, withinGroup: _w, ...plain } = out;
  return { ...plain, written: call };
}

function withinGroup(call: FunctionExpr): FunctionExpr {
  const order = call.withinGroup!;
  const name = call.name;
  if (name !== 'percentile_cont' && name !== 'percentile_disc' && name !== 'mode') {
    throw new AggClauseError(call.pos, `WITHIN GROUP (ORDER BY ...) is only for percentile_cont, percentile_disc and mode, not ${name}(...); ordered aggregates take ORDER BY inside the call: ${name}(x ORDER BY y)`);
  }
  if (order.length !== 1) throw new AggClauseError(order[1]!.expr.pos, `${name}(...) WITHIN GROUP takes one ORDER BY key, not ${order.length}`);
  if (call.distinct || call.star || call.orderBy !== undefined) throw new AggClauseError(call.pos, `${name}(...) WITHIN GROUP takes no DISTINCT, * or ORDER BY inside the call`);
  const key = order[0]!;
  if (name === 'mode') {
    if (call.args.length !== 0) throw new AggClauseError(call.pos, 'mode() WITHIN GROUP (ORDER BY x) takes no argument: the ordered value is x');
    return { ...call, args: [key.expr], withinGroup: undefined };
  }
  if (call.args.length !== 1) throw new AggClauseError(call.pos, `${name}(fraction) WITHIN GROUP (ORDER BY x) takes one argument, the fraction between 0 and 1`);
  const fraction = call.args[0]!;
  if (name === 'percentile_disc' && key.desc) {
    throw new AggClauseError(key.expr.pos, 'percentile_disc(...) WITHIN GROUP (ORDER BY x DESC) is not supported: write ORDER BY x ASC (with 1 - fraction for a discrete percentile from the top, which may pick a neighbouring value)');
  }
  const q = key.desc ? oneMinus(fraction) : fraction;
  return { ...call, name: name === 'percentile_cont' ? 'quantile_cont' : 'quantile_disc', args: [key.expr, q], withinGroup: undefined };
}

/** `1 - p`, folded for a number literal (the quantile's fraction must be a constant). */
function oneMinus(p: Expr): Expr {
  if (p.kind === 'literal' && p.literal === 'number' && /^[0-9]*\.?[0-9]*$/.test(String(p.value))) {
    const v = Number(p.value);
    if (Number.isFinite(v)) return { ...p, value: String(1 - v) };
  }
  const one: Expr = { kind: 'literal', literal: 'number', value: '1', pos: p.pos };
  return { kind: 'binary', op: '-', left: one, right: p, pos: p.pos };
}

function filtered(call: FunctionExpr, cond: Expr, isAggregate: boolean): FunctionExpr {
  if (!isAggregate) throw new AggClauseError(cond.pos, `FILTER (WHERE ...) is only for aggregate functions, not ${call.name}(...)`);
  const canonical = registryEntry(call.name)?.name ?? call.name;
  if (KEEPS_NULLS.has(canonical)) {
    throw new AggClauseError(cond.pos, `FILTER (WHERE ...) is not supported for ${call.name}(...), which keeps NULL values; filter the rows in a subquery or use any_value(...) FILTER (WHERE ...)`);
  }
  const when = (x: Expr): Expr => ({ kind: 'case', whens: [{ when: cond, then: x }], pos: x.pos });
  if (call.star) {
    const one: Expr = { kind: 'literal', literal: 'number', value: '1', pos: call.pos };
    return { ...call, star: false, args: [when(one)] };
  }
  if (call.args.length === 0) throw new AggClauseError(call.pos, `${call.name}() has no argument to filter`);
  const args = call.args.map((a, i) => (i === 0 || !FIRST_ARG_ONLY.has(canonical) ? when(a) : a));
  return { ...call, args };
}

/** The ORDER BY items of a WITHIN GROUP clause, for the output name. */
export function withinGroupName(call: FunctionExpr, p: (x: Expr) => string): string {
  const order = (o: OrderItem): string => `${p(o.expr)}${o.desc ? ' DESC' : ''}`;
  const keys = call.withinGroup!.map(order).join(', ');
  if (call.name === 'mode') return `"mode"() WITHIN GROUP ( ORDER BY ${keys})`;
  const fn = call.name === 'percentile_cont' ? 'quantile_cont' : call.name === 'percentile_disc' ? 'quantile_disc' : call.name;
  return `${fn}(${call.args.map(p).join(', ')} ORDER BY ${keys})`;
}

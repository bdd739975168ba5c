/**
 * Binding an aggregate call `agg([DISTINCT] x[, more...] [ORDER BY ...])`:
 * the argument count of the aggregate (aggArity), the arguments bound in a
 * scope where aggregates cannot nest, the result type checked, and the
 * ORDER BY keys — honoured by string_agg (its state sorts), accepted by
 * order-independent aggregates, rejected elsewhere (agg-order.ts). The
 * clause's onAggregate receives the call.
 */
import { aggArity, aggReturnType, isMismatch, type AggFn } from '../../relnode/functions.js';
import type { RexNode } from '../../relnode/rex.js';
import { sourceSpan } from '../../relnode/source-span.js';
import { orderedAggregateError } from './agg-order.js';
import type { AggExtra } from './aggregate.js';
import { sqlError } from './context.js';
import type { BindExprFn, ExprScope, FunctionExpr } from './expr.js';
import { defaultNullsFirst } from './null-order.js';

/** Aggregates whose extra argument must be a constant (DuckDB's quantile fraction). */
const CONSTANT_EXTRA: ReadonlySet<AggFn> = new Set(['quantile_cont', 'quantile_disc']);

/** Aggregates over pairs, where DISTINCT of the first argument alone would be meaningless. */
const PAIRWISE: ReadonlySet<AggFn> = new Set(['covar_pop', 'covar_samp', 'corr', 'arg_min', 'arg_max']);

/** Binds one aggregate call through the scope's onAggregate. */
export function bindAggregateCall(s: ExprScope, e: FunctionExpr, f: AggFn, bindExpr: BindExprFn): RexNode {
  const sql = s.ctx.sql;
  if (!s.onAggregate) throw sqlError(sql, e.pos, `aggregate function ${e.name}() is not allowed in ${s.clause}`);
  let fn = f;
  if (e.star) {
    if (fn !== 'count') throw sqlError(sql, e.pos, `${e.name}(*) is not valid; only count(*) takes *`);
    return s.onAggregate('count_star', undefined, e.distinct, e, { args: [], order: [], at: sourceSpan(sql.text, e.pos) });
  }
  const [min, max] = aggArity(fn);
  if (e.args.length < min || e.args.length > max) {
    const want = min === max ? `exactly ${min} argument${min === 1 ? '' : 's'}` : `${min} to ${max} arguments`;
    throw sqlError(sql, e.pos, `${e.name}() takes ${want}, got ${e.args.length}`);
  }
  const inner: ExprScope = {
    ...s,
    clause: `the argument of ${e.name}()`,
    onAggregate: () => { throw sqlError(sql, e.args[0]!.pos, 'aggregate function calls cannot be nested'); },
    onSubquery: undefined,
    aliasFirst: undefined,
  };
  const arg = bindExpr(inner, e.args[0]!);
  const more = e.args.slice(1).map((a) => bindExpr(inner, a));
  more.forEach((m, i) => {
    if (CONSTANT_EXTRA.has(fn) && m.kind !== 'Literal') throw sqlError(sql, e.args[i + 1]!.pos, `the fraction of ${e.name}() must be a constant`);
    if (fn === 'quantile_cont' || fn === 'quantile_disc') {
      const q = m.kind === 'Literal' ? Number(m.value) : NaN;
      if (!(q >= 0 && q <= 1)) throw sqlError(sql, e.args[i + 1]!.pos, `the fraction of ${e.name}() must be between 0 and 1, got ${String(m.kind === 'Literal' ? m.value : '?')}`);
    }
  });
  if (e.distinct && PAIRWISE.has(fn)) throw sqlError(sql, e.pos, `DISTINCT is not supported in ${e.name}(): it takes pairs of values`);
  const rt = aggReturnType(fn, arg.type, more.map((m) => m.type));
  if (isMismatch(rt)) throw sqlError(sql, e.pos, rt.error);
  const order: AggExtra['order'][number][] = [];
  if (e.orderBy !== undefined) {
    const why = orderedAggregateError(e.name, fn, arg.type);
    if (why !== undefined) throw sqlError(sql, e.orderBy[0]?.expr.pos ?? e.pos, why);
    for (const o of e.orderBy) {
      const k = bindExpr(inner, o.expr);
      if (fn === 'string_agg') order.push({ expr: k, desc: o.desc, nullsFirst: o.nullsFirst ?? defaultNullsFirst(s.ctx, o.desc) });
    }
  }
  // The call's place: a runtime error of its state (sum overflowing BIGINT) quotes it (AggCall.at).
  return s.onAggregate(fn, arg, e.distinct, e, { args: more, order, at: sourceSpan(sql.text, e.pos) });
}

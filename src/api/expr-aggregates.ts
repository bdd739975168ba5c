/**
 * The function library's aggregates in the Table API, one typed constructor
 * per SQL aggregate (same semantics and result types as the SQL functions of
 * the same name; docs/sql.md lists them): variances and covariances,
 * correlation, median and quantiles, mode, string_agg (optionally ordered),
 * bool_and / bool_or, arg_min / arg_max, approx_count_distinct, first / last
 * / any_value. As everywhere in the DSL, a string argument names a column;
 * separators and fractions are plain JS values here.
 */
import type { AggFn } from '../relnode/functions.js';
import { columnNode, Expr, literalNode, type ColumnLike, type ExprNode } from './expr.js';

const one = (fn: AggFn) => (x: ColumnLike): Expr => new Expr({ k: 'agg', fn, arg: columnNode(x), distinct: false });
const two = (fn: AggFn) => (y: ColumnLike, x: ColumnLike): Expr => new Expr({ k: 'agg', fn, arg: columnNode(y), more: [columnNode(x)], distinct: false });

/** Population variance (DOUBLE). */ export const varPop: (x: ColumnLike) => Expr = one('var_pop');
/** Sample variance (DOUBLE; NULL for one row). */ export const varSamp: (x: ColumnLike) => Expr = one('var_samp');
/** Population standard deviation (DOUBLE). */ export const stddevPop: (x: ColumnLike) => Expr = one('stddev_pop');
/** Population covariance of y and x (DOUBLE). */ export const covarPop: (y: ColumnLike, x: ColumnLike) => Expr = two('covar_pop');
/** Sample covariance of y and x (DOUBLE). */ export const covarSamp: (y: ColumnLike, x: ColumnLike) => Expr = two('covar_samp');
/** Pearson correlation of y and x (DOUBLE; NULL when a variance is 0). */ export const corr: (y: ColumnLike, x: ColumnLike) => Expr = two('corr');
/** The median (interpolated for numbers, as quantileCont(x, 0.5); the lower middle value for strings). */ export const median: (x: ColumnLike) => Expr = one('median');
/** The most frequent non-NULL value (the first met among ties). */ export const mode: (x: ColumnLike) => Expr = one('mode');
/** True when every non-NULL value is true. */ export const boolAnd: (x: ColumnLike) => Expr = one('bool_and');
/** True when some non-NULL value is true. */ export const boolOr: (x: ColumnLike) => Expr = one('bool_or');
/** The value of x on the row where `by` is smallest (rows with a NULL x or by skipped). */ export const argMin: (x: ColumnLike, by: ColumnLike) => Expr = two('arg_min');
/** The value of x on the row where `by` is largest. */ export const argMax: (x: ColumnLike, by: ColumnLike) => Expr = two('arg_max');
/** Estimated number of distinct non-NULL values (HyperLogLog: exact up to 256, then ~2.3% standard error). */
export const approxCountDistinct: (x: ColumnLike) => Expr = one('approx_count_distinct');
/** The first value met, NULL included (arbitrary without an order). */ export const first: (x: ColumnLike) => Expr = one('first');
/** The last value met, NULL included. */ export const last: (x: ColumnLike) => Expr = one('last');
/** Some non-NULL value. */ export const anyValue: (x: ColumnLike) => Expr = one('any_value');

function quantile(fn: AggFn, x: ColumnLike, fraction: number): Expr {
  if (!(fraction >= 0 && fraction <= 1)) throw new RangeError(`${fn} fraction must be between 0 and 1, got ${fraction}`);
  return new Expr({ k: 'agg', fn, arg: columnNode(x), more: [literalNode(fraction)], distinct: false });
}
/** The interpolated quantile at `fraction` (0..1) of numbers, dates or timestamps. */
export function quantileCont(x: ColumnLike, fraction: number): Expr { return quantile('quantile_cont', x, fraction); }
/** The quantile at `fraction` (0..1) as an actual value of x (any ordered type). */
export function quantileDisc(x: ColumnLike, fraction: number): Expr { return quantile('quantile_disc', x, fraction); }

/** Options of stringAgg. */
export interface StringAggOptions {
  /** Separator between values (default ','). */
  readonly separator?: string;
  /** Concatenation order: sort keys (`desc('k')`, a column name for ascending); default: arrival order. */
  readonly orderBy?: ColumnLike | readonly ColumnLike[];
  /** Only distinct values. */
  readonly distinct?: boolean;
}
/** The non-NULL values of x as one string, joined by the separator, in `orderBy` order when given. */
export function stringAgg(x: ColumnLike, options: StringAggOptions = {}): Expr {
  const keys = options.orderBy === undefined ? [] : Array.isArray(options.orderBy) ? options.orderBy : [options.orderBy as ColumnLike];
  const order: ExprNode[] = keys.map((k) => columnNode(k));
  return new Expr({
    k: 'agg', fn: 'string_agg', arg: columnNode(x), distinct: options.distinct === true,
    more: [literalNode(options.separator ?? ',')], ...(order.length > 0 ? { order } : {}),
  });
}

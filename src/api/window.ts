/**
 * Window functions in the Table API:
 *
 *   t.select('g', 'v', rowNumber().over(window().partitionBy('g').orderBy(desc('v'))).as('rn'),
 *            sum('v').over(window().partitionBy('g').orderBy('t').rows(preceding(2), currentRow)).as('s'))
 *
 * `window()` builds an immutable specification (PARTITION BY, ORDER BY,
 * ROWS / RANGE frame); ranking and navigation functions and every aggregate
 * (`sum(x).over(w)`) become window calls. `select` plans them with the SQL
 * binder's window planner (sql/binder/window.ts), so both front ends produce
 * the same Window nodes, defaults (with ORDER BY: RANGE UNBOUNDED PRECEDING ..
 * CURRENT ROW; without: the whole partition) and result types.
 */
import { ValidationError } from '../relnode/errors.js';
import { aggReturnType, isMismatch } from '../relnode/functions.js';
import * as rel from '../relnode/rel.js';
import { cast, inputRef, type RexNode } from '../relnode/rex.js';
import { field, type SqlType } from '../relnode/types.js';
import { checkFrame, DEFAULT_ORDERED_FRAME, WHOLE_PARTITION, type FrameBound, type WindowFn } from '../relnode/window.js';
import { buildWindows, type BoundWindowCall } from '../sql/binder/window.js';
import { bindExpr, exprName, windowCalls, type Scope } from './bind.js';
import { columnNode, Expr, toNode, type ColumnLike, type ExprLike, type ExprNode, type WindowLike, type WindowSpecNode } from './expr.js';

/** A frame bound: `unboundedPreceding`, `preceding(n)`, `currentRow`, `following(n)`, `unboundedFollowing`. */
export type Bound = FrameBound;
/** UNBOUNDED PRECEDING. */ export const unboundedPreceding: Bound = { kind: 'unboundedPreceding' };
/** UNBOUNDED FOLLOWING. */ export const unboundedFollowing: Bound = { kind: 'unboundedFollowing' };
/** CURRENT ROW (with RANGE: the row's peers). */ export const currentRow: Bound = { kind: 'currentRow' };
/** n rows (ROWS) or n order-key units (RANGE) before the current row. */ export function preceding(n: number): Bound { return { kind: 'preceding', offset: n }; }
/** n rows (ROWS) or n order-key units (RANGE) after the current row. */ export function following(n: number): Bound { return { kind: 'following', offset: n }; }

/** An immutable window specification under construction. */
export class WindowSpec implements WindowLike {
  constructor(readonly spec: WindowSpecNode) {}
  /** PARTITION BY these columns or expressions (strings name columns). */
  partitionBy(...keys: ColumnLike[]): WindowSpec { return new WindowSpec({ ...this.spec, partitionBy: keys.map(columnNode) }); }
  /** ORDER BY these keys: columns, expressions, or `asc(...)` / `desc(...)` / `.nullsFirst()` sort keys. */
  orderBy(...keys: ColumnLike[]): WindowSpec { return new WindowSpec({ ...this.spec, orderBy: keys.map(columnNode) }); }
  /** A ROWS frame from `start` to `end` (default end: the current row). */
  rows(start: Bound, end: Bound = currentRow): WindowSpec { return this.frame('rows', start, end); }
  /** A RANGE frame: offsets compare the one ORDER BY key's value (default end: the current row's peers). */
  range(start: Bound, end: Bound = currentRow): WindowSpec { return this.frame('range', start, end); }
  private frame(mode: 'rows' | 'range', start: Bound, end: Bound): WindowSpec {
    const frame = { mode, start, end };
    checkFrame(frame);
    return new WindowSpec({ ...this.spec, frame });
  }
}

/** An empty window specification: the whole table is one partition. */
export function window(): WindowSpec {
  return new WindowSpec({ partitionBy: [], orderBy: [] });
}

/** A ranking or navigation function waiting for its window: `rank().over(w)`. */
export class WindowFunction {
  constructor(private readonly fn: WindowFn, private readonly args: readonly ExprNode[], private readonly param?: number) {}
  /** The function over window `w`. */
  over(w: WindowLike): Expr {
    return new Expr({ k: 'window', fn: this.fn, args: this.args, ...(this.param !== undefined ? { param: this.param } : {}), spec: w.spec });
  }
}

const intParam = (name: string, n: number, min: number): number => {
  if (!Number.isInteger(n) || n < min) throw new TypeError(`${name} must be an integer of at least ${min}, got ${n}`);
  return n;
};

/** 1, 2, 3, ... within each partition, in ORDER BY order (BIGINT). */ export function rowNumber(): WindowFunction { return new WindowFunction('row_number', []); }
/** Rank with gaps: peers share the rank (BIGINT). */ export function rank(): WindowFunction { return new WindowFunction('rank', []); }
/** Rank without gaps (BIGINT). */ export function denseRank(): WindowFunction { return new WindowFunction('dense_rank', []); }
/** (rank − 1) / (rows in partition − 1), 0 for a single row (DOUBLE). */ export function percentRank(): WindowFunction { return new WindowFunction('percent_rank', []); }
/** Rows up to the current row's last peer / rows in partition (DOUBLE). */ export function cumeDist(): WindowFunction { return new WindowFunction('cume_dist', []); }
/** The bucket 1..n of the row, buckets differing in size by at most one (BIGINT). */ export function ntile(n: number): WindowFunction { return new WindowFunction('ntile', [], intParam('ntile buckets', n, 1)); }
/** The value `offset` rows before (default 1), else `dflt` (default NULL). */
export function lag(x: ColumnLike, offset = 1, dflt?: ExprLike): WindowFunction { return new WindowFunction('lag', dflt === undefined ? [columnNode(x)] : [columnNode(x), toNode(dflt)], intParam('lag offset', offset, 0)); }
/** The value `offset` rows after (default 1), else `dflt` (default NULL). */
export function lead(x: ColumnLike, offset = 1, dflt?: ExprLike): WindowFunction { return new WindowFunction('lead', dflt === undefined ? [columnNode(x)] : [columnNode(x), toNode(dflt)], intParam('lead offset', offset, 0)); }
/** The value at the frame's first row. */ export function firstValue(x: ColumnLike): WindowFunction { return new WindowFunction('first_value', [columnNode(x)]); }
/** The value at the frame's last row. */ export function lastValue(x: ColumnLike): WindowFunction { return new WindowFunction('last_value', [columnNode(x)]); }
/** The value at the frame's n-th row (1-based), NULL if the frame is shorter. */
export function nthValue(x: ColumnLike, n: number): WindowFunction { return new WindowFunction('nth_value', [columnNode(x)], intParam('nth_value position', n, 1)); }

/** The result type of a window call over its first argument's type (DuckDB's). */
function resultType(fn: WindowFn, arg: SqlType | undefined): SqlType {
  switch (fn) {
    case 'row_number': case 'rank': case 'dense_rank': case 'ntile': return 'BIGINT';
    case 'percent_rank': case 'cume_dist': return 'DOUBLE';
    case 'lag': case 'lead': case 'first_value': case 'last_value': case 'nth_value': return arg ?? 'NULL';
    default: {
      const t = aggReturnType(fn, arg);
      if (isMismatch(t)) throw new ValidationError(t.error);
      return t;
    }
  }
}

/** One DSL window call bound over the input scope. */
function bindCall(n: Extract<ExprNode, { k: 'window' }>, scope: Scope): BoundWindowCall {
  const where = { where: `window function ${n.fn}()` };
  const args = n.args.map((a) => bindExpr(a, scope, where));
  if ((n.fn === 'lag' || n.fn === 'lead') && args.length === 2 && args[1]!.type !== args[0]!.type && args[0]!.type !== 'NULL') args[1] = cast(args[1]!, args[0]!.type);
  const order = n.spec.orderBy.map((o) => (o.k === 'sort'
    ? { expr: bindExpr(o.arg, scope, where), desc: o.desc, nullsFirst: o.nullsFirst ?? false }
    : { expr: bindExpr(o, scope, where), desc: false, nullsFirst: false }));
  const frame = n.spec.frame ?? (order.length > 0 ? DEFAULT_ORDERED_FRAME : WHOLE_PARTITION);
  return {
    fn: n.fn, args, ...(n.param !== undefined ? { param: n.param } : {}),
    partition: n.spec.partitionBy.map((p) => bindExpr(p, scope, where)), order, frame,
    type: resultType(n.fn, args[0]?.type), name: n.fn,
  };
}

/**
 * A select list with window calls over `plan`: Window nodes (buildWindows), then a Project of the
 * items, each window call standing for its Window output column.
 */
export function planWindowSelect(plan: rel.RelNode, scope: Scope, items: readonly ExprNode[]): rel.RelNode {
  const nodes = items.flatMap(windowCalls);
  const calls = nodes.map((n) => bindCall(n, scope));
  const windowed = buildWindows(plan, calls);
  const wide: Scope = [...scope, ...calls.map((c, j) => field(`\u0000window${j}`, c.type, true))];
  const onWindow = (n: Extract<ExprNode, { k: 'window' }>): RexNode => {
    const j = nodes.indexOf(n);
    return inputRef(scope.length + j, calls[j]!.type, calls[j]!.name);
  };
  const exprs = items.map((it) => bindExpr(it, wide, { where: 'select', onWindow }));
  return rel.project(windowed, exprs, items.map((it, i) => exprName(it, exprs[i]!, wide)));
}

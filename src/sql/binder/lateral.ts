/**
 * LATERAL in FROM: a subquery or table function that may read the columns
 * of the FROM items before it. It binds with those columns as its outer
 * scope (references become OuterRefs, as in a correlated subquery), and
 * the pair becomes an inner or left Correlate; the planner's decorrelation
 * rules turn it into joins (src/planner/rules/decorrelate-lateral.ts,
 * decorrelate-domain.ts). A lateral item that reads nothing of its left is
 * a plain join.
 *
 * Decision: as in DuckDB, a subquery in FROM written without LATERAL is
 * lateral too when it can only be bound that way (it reads an earlier FROM
 * item). It is first bound as a plain derived table (which may read the
 * query around a correlated subquery), and only if that fails bound again
 * as lateral: the retry costs nothing on queries that bind, and a query
 * PostgreSQL accepts means the same here. Only subqueries: a table function
 * call reads the items before it only when written LATERAL.
 *
 * One level of correlation: a lateral item reads its left side, not the
 * query around it (src/sql/binder/expr.ts rejects references two levels out).
 */
import { ValidationError } from '../../relnode/errors.js';
import * as rel from '../../relnode/rel.js';
import { literal, type RexNode } from '../../relnode/rex.js';
import type { FromItem, Pos } from '../ast.js';
import { sqlError, type BindContext } from './context.js';
import type { BoundRel, ScopeColumn } from './scope.js';

/** Binds one FROM item (from.ts's bindFromItem, passed in so this file need not import it back). */
export type BindItem = (ctx: BindContext, item: FromItem) => BoundRel;

/** The right side of a FROM-list comma or a join: the bound item, and whether it reads `left` (its plan then holds OuterRefs to left's columns). */
export interface RightSide {
  readonly rel: BoundRel;
  readonly lateral: boolean;
}

/** Is `item` written LATERAL? */
export function isLateral(item: FromItem): boolean {
  return (item.kind === 'subquery' || item.kind === 'tableFunction') && item.lateral === true;
}

/** `ctx` with `left`'s columns as the outer scope (the query around stays reachable for the two-levels error). */
function lateralContext(ctx: BindContext, left: BoundRel): BindContext {
  return { ...ctx, outer: { cols: left.cols, ...(ctx.outer ? { parent: ctx.outer } : {}) } };
}

/** Binds `item`, which follows `left` in FROM: laterally when it is written LATERAL, or is a subquery that binds only so. */
export function bindRightSide(ctx: BindContext, left: BoundRel, item: FromItem, bindItem: BindItem): RightSide {
  if (isLateral(item)) return reading(bindItem(lateralContext(ctx, left), item));
  if (item.kind !== 'subquery') return { rel: bindItem(ctx, item), lateral: false };
  try {
    return { rel: bindItem(ctx, item), lateral: false };
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    let retry: BoundRel;
    try {
      retry = bindItem(lateralContext(ctx, left), item);
    } catch {
      throw err;
    }
    const r = reading(retry);
    if (!r.lateral) throw err;
    return r;
  }
}

function reading(r: BoundRel): RightSide {
  return { rel: r, lateral: rel.outerRefsOf(r.plan).size > 0 };
}

/**
 * `left` joined laterally with `right` (bound by bindRightSide with lateral true): an inner (or a
 * comma / CROSS JOIN) or left Correlate on `condition` (over left's columns then right's).
 */
export function lateralJoin(ctx: BindContext, left: BoundRel, right: BoundRel, join: 'inner' | 'left' | 'right' | 'full' | 'cross', condition: RexNode | undefined, pos: Pos): BoundRel {
  if (join === 'right' || join === 'full') {
    throw sqlError(ctx.sql, pos, `${join.toUpperCase()} JOIN LATERAL is not supported: the lateral side reads the left side, so the join must be INNER, LEFT or CROSS`);
  }
  const type = join === 'left' ? 'left' : 'inner';
  const plan = rel.correlate(left.plan, right.plan, type, condition ?? literal(true, 'BOOLEAN'));
  const f = plan.schema.fields;
  const cols: ScopeColumn[] = [...left.cols, ...right.cols].map((c, i) => (f[i] && f[i].nullable !== c.nullable ? { ...c, nullable: f[i].nullable } : c));
  return { plan, cols };
}

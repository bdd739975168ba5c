/**
 * WHERE: conjuncts become one Filter (with OR branches' common conjuncts
 * factored out, so `(a = b AND x) OR (a = b AND y)` still joins on a = b).
 * Subqueries stay in the condition as Subquery expressions over the FROM
 * relation's columns; the planner turns them into joins.
 */
import { canonicalRex } from '../../relnode/digest.js';
import * as rel from '../../relnode/rel.js';
import { andAll, call, conjuncts, disjuncts, type RexNode } from '../../relnode/rex.js';
import type { Expr } from '../ast.js';
import { splitConjuncts } from './ast-walk.js';
import type { BindContext } from './context.js';
import { bindCondition } from './expr.js';
import type { BoundRel } from './scope.js';
import { bindSubqueryExpr } from './subquery.js';
import { rowInConjunct } from './row-subquery.js';

/** Applies a WHERE clause. `aliasFallback` resolves select-list aliases (as DuckDB allows in WHERE). */
export function applyWhere(ctx: BindContext, from: BoundRel, where: Expr | undefined, aliasFallback?: (name: string) => RexNode | undefined): BoundRel {
  if (!where) return from;
  const bound = splitConjuncts(where).map((c) => {
    // A row IN (subquery) conjunct binds to a plain semi / anti join (row-subquery.ts).
    const rowIn = rowInConjunct(c);
    return bindCondition({
      ctx, cols: from.cols, clause: 'WHERE',
      onSubquery: (n, arg) => bindSubqueryExpr(ctx, from.cols, n, n.kind === 'inSubquery' ? arg() : undefined, n === rowIn?.node ? { flip: rowIn.flip } : {}),
      ...(aliasFallback ? { aliasFallback } : {}),
    }, c);
  });
  const factored = bound.flatMap((c) => conjuncts(factorOr(c)));
  if (factored.length === 0) return from;
  return { plan: rel.filter(from.plan, andAll(factored)), cols: from.cols };
}

/** `(A AND B) OR (A AND C)` → `A AND (B OR C)` (valid in three-valued logic); other expressions unchanged. */
export function factorOr(e: RexNode): RexNode {
  if (e.kind !== 'Call' || e.op !== 'or') return e;
  const branches = disjuncts(e).map((b) => conjuncts(b));
  const keyed = branches.map((cs) => new Map(cs.map((c) => [canonicalRex(c), c] as const)));
  const common = [...keyed[0]!.keys()].filter((k) => keyed.every((m) => m.has(k)));
  if (common.length === 0) return e;
  const shared = common.map((k) => keyed[0]!.get(k)!);
  const rest = branches.map((cs) => cs.filter((c) => !common.includes(canonicalRex(c))));
  // A branch left empty is TRUE: the OR is then TRUE and only the shared conjuncts remain.
  if (rest.some((r) => r.length === 0)) return andAll(shared);
  return andAll([...shared, call('or', rest.map((r) => andAll(r)), 'BOOLEAN')]);
}


/**
 * WHERE: conjuncts become one Filter (with OR branches' common conjuncts
 * factored out, so `(a = b AND x) OR (a = b AND y)` still joins on a = b);
 * scalar subqueries and EXISTS/IN used as values are joined on first;
 * top-level [NOT] EXISTS / [NOT] IN (subquery) become semi/anti joins. In a
 * subquery, conjuncts that read outer columns are set aside: the query
 * around turns them into join conditions.
 */
import { canonicalRex } from '../../relnode/digest.js';
import { andAll, call, conjuncts, rexInputs, type RexNode } from '../../relnode/rex.js';
import type { Expr } from '../ast.js';
import { splitConjuncts } from './ast-walk.js';
import { RelBuilder } from './builder.js';
import { sqlError, type BindContext } from './context.js';
import { bindCondition, OUTER_BASE } from './expr.js';
import type { BoundRel } from './scope.js';
import { attachSubquery, bindSubquery, existenceJoin, isExistenceConjunct } from './subquery.js';

/** The filtered relation and the correlated conjuncts (over the relation's columns and OUTER_BASE markers). */
export interface WhereResult {
  readonly rel: BoundRel;
  readonly correlated: RexNode[];
}

/** Applies a WHERE clause. `aliasFallback` resolves select-list aliases (as DuckDB allows in WHERE). */
export function applyWhere(ctx: BindContext, from: BoundRel, where: Expr | undefined, aliasFallback?: (name: string) => RexNode | undefined): WhereResult {
  if (!where) return { rel: from, correlated: [] };
  const b = new RelBuilder(from);
  const local: RexNode[] = [];
  const correlated: RexNode[] = [];
  const existence: Expr[] = [];
  for (const c of splitConjuncts(where)) {
    if (isExistenceConjunct(c)) { existence.push(c); continue; }
    const bound = bindCondition({
      ctx, cols: from.cols, clause: 'WHERE', allowOuter: ctx.outer !== undefined,
      onSubquery: (n, arg) => attachSubquery(ctx, b, n, bindSubquery(ctx, b.cols, n.query, b.plan, 'value'), n.kind === 'inSubquery' ? arg() : undefined),
      ...(aliasFallback ? { aliasFallback } : {}),
    }, c);
    const refs = [...rexInputs(bound)];
    if (refs.some((i) => i >= OUTER_BASE)) {
      if (refs.some((i) => i >= from.cols.length && i < OUTER_BASE)) throw sqlError(ctx.sql, c.pos, 'a condition may not combine outer columns with a nested subquery');
      correlated.push(bound);
    } else {
      local.push(bound);
    }
  }
  const factored = local.flatMap((c) => conjuncts(factorOr(c)));
  if (factored.length > 0) b.filter(andAll(factored));
  let r = b.trimmed();
  for (const e of existence) r = existenceJoin(ctx, r, e);
  return { rel: r, correlated };
}

/** `(A AND B) OR (A AND C)` → `A AND (B OR C)` (valid in three-valued logic); other expressions unchanged. */
export function factorOr(e: RexNode): RexNode {
  if (e.kind !== 'Call' || e.op !== 'or') return e;
  const branches = flattenOr(e).map((b) => conjuncts(b));
  const keyed = branches.map((cs) => new Map(cs.map((c) => [canonicalRex(c), c] as const)));
  const common = [...keyed[0]!.keys()].filter((k) => keyed.every((m) => m.has(k)));
  if (common.length === 0) return e;
  const shared = common.map((k) => keyed[0]!.get(k)!);
  const rest = branches.map((cs) => cs.filter((c) => !common.includes(canonicalRex(c))));
  // A branch left empty is TRUE: the OR is then TRUE and only the shared conjuncts remain.
  if (rest.some((r) => r.length === 0)) return andAll(shared);
  return andAll([...shared, call('or', rest.map((r) => andAll(r)), 'BOOLEAN')]);
}

function flattenOr(e: RexNode): RexNode[] {
  return e.kind === 'Call' && e.op === 'or' ? e.args.flatMap(flattenOr) : [e];
}

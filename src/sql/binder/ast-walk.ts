/**
 * Walks over AST expressions that the binder needs before binding: does an
 * expression contain an aggregate call, which subqueries does it hold (not
 * looking into the subqueries themselves), its direct children, and the same
 * expression rebuilt over new children.
 */
import type { Expr, FromItem, Query } from '../ast.js';
import { isAggregateName } from '../functions.js';

/** The expression kinds that hold a subquery. */
export type SubqueryExpr = Extract<Expr, { kind: 'subquery' | 'exists' | 'inSubquery' }>;

/** The direct sub-expressions of an expression (a subquery's body is not one). */
export function exprChildren(e: Expr): readonly Expr[] {
  switch (e.kind) {
    case 'column': case 'literal': case 'interval': case 'exists': case 'subquery': return [];
    case 'binary': return [e.left, e.right];
    case 'unary': case 'isNull': case 'cast': return [e.arg];
    case 'between': return [e.arg, e.low, e.high];
    case 'like': return e.escape ? [e.arg, e.pattern, e.escape] : [e.arg, e.pattern];
    case 'inList': return [e.arg, ...e.list];
    case 'inSubquery': return [e.arg];
    case 'row': return e.items;
    case 'case': return [...(e.operand ? [e.operand] : []), ...e.whens.flatMap((w) => [w.when, w.then]), ...(e.else ? [e.else] : [])];
    case 'function': return e.over ? [...e.args, ...(e.over.partitionBy ?? []), ...(e.over.orderBy ?? []).map((o) => o.expr)] : e.args;
  }
}

/** Rebuilds an expression with new direct children, in exprChildren's order (a windowed call is returned as it is). */
export function exprWithChildren(e: Expr, ch: readonly Expr[]): Expr {
  switch (e.kind) {
    case 'binary': return { ...e, left: ch[0]!, right: ch[1]! };
    case 'unary': case 'isNull': case 'cast': return { ...e, arg: ch[0]! };
    case 'between': return { ...e, arg: ch[0]!, low: ch[1]!, high: ch[2]! };
    case 'like': return { ...e, arg: ch[0]!, pattern: ch[1]!, ...(e.escape ? { escape: ch[2]! } : {}) };
    case 'inList': return { ...e, arg: ch[0]!, list: ch.slice(1) };
    case 'inSubquery': return { ...e, arg: ch[0]! };
    case 'row': return { ...e, items: ch };
    case 'case': {
      let i = 0;
      const operand = e.operand ? ch[i++]! : undefined;
      const whens = e.whens.map(() => ({ when: ch[i++]!, then: ch[i++]! }));
      const otherwise = e.else ? ch[i++]! : undefined;
      return { kind: 'case', whens, pos: e.pos, ...(operand ? { operand } : {}), ...(otherwise ? { else: otherwise } : {}) };
    }
    case 'function': return e.over ? e : { ...e, args: ch };
    default: return e;
  }
}

/**
 * Visits e and its sub-expressions in pre-order (children left to right) with an explicit stack, not
 * recursion: a 10k-term AND / OR chain is a 10k-deep tree. `f` returning true stops the walk.
 */
function preorder(e: Expr, f: (x: Expr) => boolean | void): boolean {
  const stack: Expr[] = [e];
  while (stack.length > 0) {
    const x = stack.pop()!;
    if (f(x) === true) return true;
    const ch = exprChildren(x);
    for (let i = ch.length - 1; i >= 0; i--) stack.push(ch[i]!);
  }
  return false;
}

/** True if the expression calls an aggregate function outside any subquery (a window aggregate, `sum(x) OVER (...)`, is not one; aggregates inside it are). */
export function containsAggregate(e: Expr): boolean {
  return preorder(e, (x) => x.kind === 'function' && x.over === undefined && isAggregateName(x.name));
}

/** The subquery expressions in `e`, outermost first, not looking inside subqueries. */
export function subqueriesIn(e: Expr): SubqueryExpr[] {
  const out: SubqueryExpr[] = [];
  preorder(e, (x) => { if (x.kind === 'subquery' || x.kind === 'exists' || x.kind === 'inSubquery') out.push(x); });
  return out;
}

/** Splits an expression on top-level AND (left to right, without recursion). */
export function splitConjuncts(e: Expr): Expr[] {
  const out: Expr[] = [];
  const stack: Expr[] = [e];
  while (stack.length > 0) {
    const x = stack.pop()!;
    if (x.kind === 'binary' && x.op === 'AND') stack.push(x.right, x.left);
    else out.push(x);
  }
  return out;
}

/** Visits every query nested anywhere in a query (subqueries, CTEs, set-operation branches, FROM items), itself included. */
export function visitQueries(q: Query, f: (q: Query) => void): void {
  f(q);
  const inExpr = (e: Expr | undefined): void => {
    if (!e) return;
    preorder(e, (x) => { if (x.kind === 'subquery' || x.kind === 'exists' || x.kind === 'inSubquery') visitQueries(x.query, f); });
  };
  const tail = (t: { orderBy?: readonly { expr: Expr }[]; limit?: Expr; offset?: Expr }): void => {
    t.orderBy?.forEach((o) => inExpr(o.expr));
    inExpr(t.limit);
    inExpr(t.offset);
  };
  tail(q);
  switch (q.kind) {
    case 'select': {
      const from = (it: FromItem): void => {
        if (it.kind === 'subquery') visitQueries(it.query, f);
        else if (it.kind === 'join') { from(it.left); from(it.right); inExpr(it.on); }
        else if (it.kind === 'tableFunction') it.args.forEach(inExpr);
        else if (it.kind === 'pivot' || it.kind === 'unpivot') from(it.source);
      };
      q.from.forEach(from);
      q.items.forEach((i) => { if (i.kind === 'expr') inExpr(i.expr); });
      inExpr(q.where);
      q.groupBy?.forEach(inExpr);
      inExpr(q.having);
      break;
    }
    case 'setop': visitQueries(q.left, f); visitQueries(q.right, f); break;
    case 'values': q.rows.forEach((r) => r.forEach(inExpr)); break;
    case 'with': q.ctes.forEach((c) => visitQueries(c.query, f)); visitQueries(q.body, f); break;
  }
}

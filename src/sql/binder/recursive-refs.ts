/**
 * Where a query names a CTE: the FROM items `name` and `recurring.name`
 * anywhere inside it (joins, derived tables, subqueries in expressions,
 * nested WITHs). The recursive-CTE binder uses it before binding, to decide
 * whether a CTE of WITH RECURSIVE reads itself (DuckDB: only then is it
 * recursive) and to point errors at the offending reference: a
 * self-reference in the anchor, `recurring.t` without USING KEY.
 *
 * Decision: a nested WITH that defines a CTE of the same name shadows the
 * outer one in its later CTEs and its body (its own query too when that
 * WITH is RECURSIVE), as name lookup does when binding.
 */
import type { Expr, FromItem, Pos, Query } from '../ast.js';
import { exprChildren } from './ast-walk.js';

/** One reference: the FROM item's position and whether it named `recurring.<name>`. */
export interface CteRef {
  readonly pos: Pos;
  readonly recurring: boolean;
}

/** The references to CTE `name` (case-insensitive) inside `q`, in text order. */
export function cteRefs(q: Query, name: string): CteRef[] {
  const plain = name.toLowerCase();
  const rec = `recurring.${plain}`;
  const out: CteRef[] = [];
  const expr = (e: Expr | undefined): void => {
    if (e === undefined) return;
    const stack: Expr[] = [e];
    while (stack.length > 0) {
      const x = stack.pop()!;
      if (x.kind === 'subquery' || x.kind === 'exists' || x.kind === 'inSubquery') query(x.query);
      const ch = exprChildren(x);
      for (let i = ch.length - 1; i >= 0; i--) stack.push(ch[i]!);
    }
  };
  const from = (it: FromItem): void => {
    switch (it.kind) {
      case 'table': {
        const n = it.name.toLowerCase();
        if (n === plain || n === rec) out.push({ pos: it.pos, recurring: n === rec });
        return;
      }
      case 'subquery': query(it.query); return;
      case 'join': from(it.left); from(it.right); expr(it.on); return;
      case 'tableFunction': it.args.forEach(expr); it.options.forEach((o) => expr(o.value)); return;
      case 'pivot': from(it.source); it.on.forEach((o) => expr(o.expr)); it.using.forEach((u) => expr(u.expr)); return;
      case 'unpivot': from(it.source); it.entries.forEach((e) => e.exprs.forEach(expr)); return;
    }
  };
  const query = (x: Query): void => {
    x.orderBy?.forEach((o) => expr(o.expr));
    expr(x.limit);
    expr(x.offset);
    switch (x.kind) {
      case 'select':
        x.from.forEach(from);
        x.items.forEach((i) => { if (i.kind === 'expr') expr(i.expr); });
        expr(x.where);
        x.groupBy?.forEach(expr);
        expr(x.having);
        expr(x.qualify);
        return;
      case 'setop': query(x.left); query(x.right); return;
      case 'values': x.rows.forEach((r) => r.forEach(expr)); return;
      case 'with': {
        for (const c of x.ctes) {
          const shadows = c.name.toLowerCase() === plain;
          if (!(shadows && x.recursive)) query(c.query);
          if (shadows) return;
        }
        query(x.body);
        return;
      }
    }
  };
  query(q);
  return out.sort((a, b) => a.pos.offset - b.pos.offset);
}

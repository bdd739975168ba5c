/**
 * Window calls out of a SELECT's expressions, before binding: every
 * `f(...) OVER (...)` in the select list, ORDER BY and QUALIFY is replaced by
 * a placeholder column (a name no user can write) that the binder resolves to
 * the Window node's output column, and its OVER clause is resolved against
 * the WINDOW clause (a named window supplies PARTITION BY, ORDER BY and frame;
 * the referring clause may add ORDER BY when the named one has none, and a
 * frame, as DuckDB allows). Window calls do not nest.
 */
import type { Expr, SelectQuery, WindowSpec } from '../ast.js';
import { lookupFunction } from '../functions.js';
import { exprChildren } from './ast-walk.js';
import { sqlError, type BindContext } from './context.js';

/** A function-call AST node with an OVER clause resolved against the WINDOW clause. */
export interface WindowCallExpr {
  readonly call: Extract<Expr, { kind: 'function' }>;
  readonly spec: WindowSpec;
}

/** The name of the placeholder column of window call j (NUL cannot appear in SQL names). */
export function windowPlaceholder(j: number): string {
  return `\u0000window${j}`;
}

/** Window-only function names: an error without OVER. */
export const WINDOW_ONLY: ReadonlySet<string> = new Set(['row_number', 'rank', 'dense_rank', 'percent_rank', 'cume_dist', 'ntile', 'lag', 'lead', 'first_value', 'last_value', 'nth_value']);

/** True if the expression (outside subqueries) holds a window call. */
export function hasWindowCall(e: Expr): boolean {
  const stack: Expr[] = [e]; // explicit stack: a 10k-term AND chain is a 10k-deep tree
  while (stack.length > 0) {
    const x = stack.pop()!;
    if (x.kind === 'function' && x.over !== undefined) return true;
    stack.push(...exprChildren(x));
  }
  return false;
}

/** Collects window calls and replaces them with placeholder columns. */
export class WindowExtractor {
  readonly calls: WindowCallExpr[] = [];
  private readonly named = new Map<string, WindowSpec>();

  constructor(private readonly ctx: BindContext, q: SelectQuery) {
    for (const w of q.windows ?? []) {
      const key = w.name.toLowerCase();
      if (this.named.has(key)) throw sqlError(ctx.sql, w.spec.pos, `window "${w.name}" is defined twice in the WINDOW clause`);
      this.named.set(key, this.resolve(w.spec));
    }
  }

  /** `e` with each window call replaced by its placeholder column. */
  replace(e: Expr): Expr {
    if (e.kind === 'function' && e.over !== undefined) {
      for (const a of [...e.args, ...(e.over.partitionBy ?? []), ...(e.over.orderBy ?? []).map((o) => o.expr)]) {
        if (hasWindowCall(a)) throw sqlError(this.ctx.sql, a.pos, 'window function calls cannot be nested');
      }
      this.calls.push({ call: e, spec: this.resolve(e.over) });
      return { kind: 'column', name: windowPlaceholder(this.calls.length - 1), pos: e.pos };
    }
    if (!hasWindowCall(e)) return e;
    // An aggregate is computed before the window functions (DuckDB's message): sum(row_number() OVER ()) cannot be.
    if (e.kind === 'function' && lookupFunction(e.name)?.kind === 'aggregate') {
      const a = e.args.find(hasWindowCall) ?? e;
      throw sqlError(this.ctx.sql, a.pos, `aggregate function calls cannot contain window function calls: ${e.name}() is computed before the window functions; compute the window in a subquery and aggregate over it`);
    }
    return mapChildren(e, (c) => this.replace(c));
  }

  private resolve(s: WindowSpec): WindowSpec {
    if (s.base === undefined) return s;
    const b = this.named.get(s.base.toLowerCase());
    if (b === undefined) throw sqlError(this.ctx.sql, s.pos, `window "${s.base}" is not defined in the WINDOW clause${this.named.size ? ` (defined: ${[...this.named.keys()].join(', ')})` : ''}`);
    if (s.partitionBy) throw sqlError(this.ctx.sql, s.pos, `cannot override the PARTITION BY of window "${s.base}"`);
    if (s.orderBy && b.orderBy) throw sqlError(this.ctx.sql, s.pos, `cannot override the ORDER BY of window "${s.base}"`);
    if (b.frame && s.frame) throw sqlError(this.ctx.sql, s.pos, `cannot override the frame of window "${s.base}"`);
    const orderBy = s.orderBy ?? b.orderBy;
    const frame = s.frame ?? b.frame;
    return {
      ...(b.partitionBy ? { partitionBy: b.partitionBy } : {}),
      ...(orderBy ? { orderBy } : {}),
      ...(frame ? { frame } : {}),
      pos: s.pos,
    };
  }
}

/** The same expression over new children (in exprChildren's order). */
function mapChildren(e: Expr, f: (c: Expr) => Expr): Expr {
  switch (e.kind) {
    case 'column': case 'literal': case 'interval': case 'exists': case 'subquery': return e;
    case 'binary': return { ...e, left: f(e.left), right: f(e.right) };
    case 'unary': case 'isNull': case 'cast': return { ...e, arg: f(e.arg) };
    case 'between': return { ...e, arg: f(e.arg), low: f(e.low), high: f(e.high) };
    case 'like': return { ...e, arg: f(e.arg), pattern: f(e.pattern), ...(e.escape ? { escape: f(e.escape) } : {}) };
    case 'inList': return { ...e, arg: f(e.arg), list: e.list.map(f) };
    case 'inSubquery': return { ...e, arg: f(e.arg) };
    case 'row': return { ...e, items: e.items.map(f) };
    case 'case': return { ...e, ...(e.operand ? { operand: f(e.operand) } : {}), whens: e.whens.map((w) => ({ when: f(w.when), then: f(w.then) })), ...(e.else ? { else: f(e.else) } : {}) };
    case 'function': return { ...e, args: e.args.map(f) };
  }
}

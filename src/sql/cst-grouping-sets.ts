/**
 * GROUP BY's items as grouping sets. A plain expression is one set of itself; `ROLLUP (a, b, c)` is the
 * sets (a, b, c), (a, b), (a), (); `CUBE (a, b)` every subset, largest first; `GROUPING SETS (...)`
 * lists them (each item a set `(a, b)`, `()`, an expression, or a ROLLUP / CUBE). Several items combine as
 * the cross product of their sets (`GROUP BY a, ROLLUP (b, c)`: (a, b, c), (a, b), (a)), as the SQL
 * standard and DuckDB define it.
 *
 * The sets stay expressions here: the binder binds each once, so `a` and `t.a` are one key.
 * A plain GROUP BY keeps the AST it always had (no `groupingSets`), so nothing changes for it.
 * Caps: CUBE over at most 12 expressions, and at most 4,096 sets in all, each one of which is a branch
 * of the plan (binder/grouping-sets-plan.ts: an Aggregate over the finest grouping's rows).
 */
import type { CstNode } from 'chevrotain';
import type { Expr } from './ast.js';
import { astError, maybeNode, nodePos, nodes, token, tokenPos } from './cst-access.js';
import { toExpr, type AstContext } from './cst-expr.js';

/** CUBE's limit on expressions (2^12 sets). */
export const MAX_CUBE_EXPRESSIONS = 12;
/** The limit on grouping sets of one GROUP BY. */
export const MAX_GROUPING_SETS = 4096;

/** The `groupBy` (and, for ROLLUP / CUBE / GROUPING SETS, `groupingSets`) of a select from its `groupingList` node. */
export function groupByClause(cx: AstContext, list: CstNode): { groupBy: Expr[]; groupingSets?: Expr[][] } {
  const elements = nodes(list, 'elements');
  if (elements.every((e) => maybeNode(e, 'expr') !== undefined)) return { groupBy: elements.map((e) => toExpr(cx, maybeNode(e, 'expr')!)) };
  let sets: Expr[][] = [[]];
  for (const e of elements) {
    const mine = elementSets(cx, e);
    const next: Expr[][] = [];
    for (const a of sets) for (const b of mine) next.push([...a, ...b]);
    if (next.length > MAX_GROUPING_SETS) throw astError(cx.text, nodePos(e), `GROUP BY makes more than ${MAX_GROUPING_SETS} grouping sets`);
    sets = next;
  }
  const all: Expr[] = [];
  for (const s of sets) for (const x of s) if (!all.includes(x)) all.push(x);
  return { groupBy: all, groupingSets: sets };
}

/** The sets of one GROUP BY item. */
function elementSets(cx: AstContext, e: CstNode): Expr[][] {
  const expr = maybeNode(e, 'expr');
  if (expr !== undefined) return [[toExpr(cx, expr)]];
  const rollup = maybeNode(e, 'rollup');
  if (rollup !== undefined) return rollupSets(cx, rollup);
  const out: Expr[][] = [];
  for (const item of nodes(e, 'sets')) {
    const r = maybeNode(item, 'rollup');
    if (r !== undefined) out.push(...rollupSets(cx, r));
    else if (maybeNode(item, 'expr') !== undefined) out.push([toExpr(cx, maybeNode(item, 'expr')!)]);
    else out.push(nodes(item, 'exprs').map((x) => toExpr(cx, x)));
    if (out.length > MAX_GROUPING_SETS) throw astError(cx.text, nodePos(item), `GROUP BY makes more than ${MAX_GROUPING_SETS} grouping sets`);
  }
  return out;
}

/** The sets of `ROLLUP (...)` or `CUBE (...)`. */
function rollupSets(cx: AstContext, n: CstNode): Expr[][] {
  const kind = token(n, 'kind');
  const exprs = nodes(n, 'exprs').map((x) => toExpr(cx, x));
  if (/^rollup$/i.test(kind.image)) return exprs.map((_, i) => exprs.slice(0, exprs.length - i)).concat([[]]);
  if (exprs.length > MAX_CUBE_EXPRESSIONS) throw astError(cx.text, tokenPos(kind), `CUBE takes at most ${MAX_CUBE_EXPRESSIONS} expressions (2^${MAX_CUBE_EXPRESSIONS} grouping sets), not ${exprs.length}`);
  const out: Expr[][] = [];
  // Largest sets first (all of them, then leaving out the last, ...), as DuckDB lists them.
  for (let mask = (1 << exprs.length) - 1; mask >= 0; mask--) out.push(exprs.filter((_, i) => (mask & (1 << (exprs.length - 1 - i))) !== 0));
  return out;
}

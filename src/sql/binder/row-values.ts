/**
 * Row values (SQL-92 row value constructors, F641): `(a, b) = (1, 2)`, `(a, b) < (c, d)`,
 * `(a, b) IS DISTINCT FROM (c, d)`, `(a, b) [NOT] IN ((1, 2), (3, 4))`. eddy has no STRUCT type, so a
 * row is never a value: each comparison is expanded here into scalar comparisons with the standard's
 * three-valued semantics, item by item (nested rows too):
 *   =   AND of item equalities          (1, NULL) = (1, 2) is NULL, (1, NULL) = (2, 2) is FALSE
 *   <>  OR of item inequalities
 *   <   a < c OR (a = c AND (b < d))    lexicographic; <= ends in b <= d (> and >= mirrored)
 *   IS [NOT] DISTINCT FROM              OR (AND) of the items' NULL-safe forms: never NULL
 *   IN  OR of row equalities (NOT IN negates it)
 * This is the standard's (and PostgreSQL's, SQLite's) answer. DuckDB compares rows as STRUCTs, where a
 * NULL field is a value (`(1, NULL) = (1, 2)` is false there): eddy does not follow it on NULLs.
 * IN (subquery) with a row is row-subquery.ts. Anywhere else a row is a bind error (ROW_VALUE_PLACES).
 */
import { ValidationError } from '../../relnode/errors.js';
import { call, literal, type RexNode } from '../../relnode/rex.js';
import type { Expr, Pos } from '../ast.js';
import { sqlError } from './context.js';
import type { ExprScope } from './expr.js';

/** The bind error of a row value used where only a scalar can stand. */
export const ROW_VALUE_PLACES = 'row values such as (a, b) are supported only in comparisons (=, <>, <, <=, >, >=, IS [NOT] DISTINCT FROM) '
  + 'and IN, e.g. (a, b) IN ((1, 2), (3, 4)); eddy has no STRUCT type';

/** A bound operand: a scalar, or a row of bound items (rows nest). */
export type BoundItem = { readonly pos: Pos; readonly rex: RexNode } | { readonly pos: Pos; readonly items: readonly BoundItem[] };

/** The comparison operators a row may stand beside. */
export type RowCompareOp = '=' | '<>' | '<' | '<=' | '>' | '>=' | 'IS DISTINCT FROM' | 'IS NOT DISTINCT FROM';

/** Whether a binary operator compares (so a row may stand beside it). */
export function isRowCompareOp(op: string): op is RowCompareOp {
  return op === '=' || op === '<>' || op === '<' || op === '<=' || op === '>' || op === '>=' || op === 'IS DISTINCT FROM' || op === 'IS NOT DISTINCT FROM';
}

/** How the expansion builds calls: bindCall with the caret at `pos` on a type error. */
export type CallAt = (fn: string, args: RexNode[], pos: Pos) => RexNode;

/** Binds an operand: a row item by item, anything else with `bind`. */
export function bindItem(e: Expr, bind: (x: Expr) => RexNode): BoundItem {
  return e.kind === 'row' ? { pos: e.pos, items: e.items.map((x) => bindItem(x, bind)) } : { pos: e.pos, rex: bind(e) };
}

/** "a row value of 2 items" / "a single value", for arity messages. */
function shape(b: BoundItem): string {
  return 'items' in b ? `a row value of ${b.items.length} item${b.items.length === 1 ? '' : 's'}` : 'a single value';
}

/** The arity check of two operands: the same number of items at every level (DuckDB rejects a mismatch too). */
function checkArity(s: ExprScope, l: BoundItem, r: BoundItem, op: string, pos: Pos): void {
  const lRow = 'items' in l;
  const rRow = 'items' in r;
  if (lRow === rRow && (!lRow || l.items.length === (r as typeof l).items.length)) return;
  throw sqlError(s.ctx.sql, pos, `cannot compare ${shape(l)} with ${shape(r)} in ${op}; both sides need the same number of values`);
}

/** The `=` / `<>` an IS [NOT] DISTINCT FROM expands to; a type error names the operator the user wrote. */
function comparable(s: ExprScope, cmp: 'eq' | 'ne', a: RexNode, b: RexNode, op: RowCompareOp, at: Pos, callAt: CallAt): RexNode {
  try {
    return callAt(cmp, [a, b], at);
  } catch (err) {
    if (err instanceof ValidationError) throw sqlError(s.ctx.sql, at, `cannot compare ${a.type} and ${b.type} in ${op}`);
    throw err;
  }
}

/** `l op r` with the standard's semantics; either side may be a row (then both must be, of equal arity). */
export function compareItems(s: ExprScope, l: BoundItem, r: BoundItem, op: RowCompareOp, pos: Pos, callAt: CallAt): RexNode {
  checkArity(s, l, r, op, pos);
  if (!('items' in l) || !('items' in r)) {
    const a = (l as { rex: RexNode }).rex;
    const b = (r as { rex: RexNode }).rex;
    const at = r.pos.offset > l.pos.offset ? { ...l.pos, length: r.pos.offset + r.pos.length - l.pos.offset } : pos;
    switch (op) {
      case '=': return callAt('eq', [a, b], at);
      case '<>': return callAt('ne', [a, b], at);
      case '<': return callAt('lt', [a, b], at);
      case '<=': return callAt('le', [a, b], at);
      case '>': return callAt('gt', [a, b], at);
      case '>=': return callAt('ge', [a, b], at);
      // a IS DISTINCT FROM b ≡ coalesce(a <> b, (a IS NULL) <> (b IS NULL)): the inequality when both are known.
      case 'IS DISTINCT FROM': return callAt('coalesce', [comparable(s, 'ne', a, b, op, at, callAt), callAt('ne', [isNull(a), isNull(b)], at)], at);
      case 'IS NOT DISTINCT FROM': return callAt('coalesce', [comparable(s, 'eq', a, b, op, at, callAt), callAt('eq', [isNull(a), isNull(b)], at)], at);
    }
  }
  const pairs = l.items.map((x, i) => [x, r.items[i]!] as const);
  const each = (o: RowCompareOp): RexNode[] => pairs.map(([x, y]) => compareItems(s, x, y, o, pos, callAt));
  const all = (fn: 'and' | 'or', parts: RexNode[]): RexNode => (parts.length === 1 ? parts[0]! : callAt(fn, parts, pos));
  switch (op) {
    case '=': case 'IS NOT DISTINCT FROM': return all('and', each(op));
    case '<>': case 'IS DISTINCT FROM': return all('or', each(op));
    default: {
      // Lexicographic, from the last item outward: x_i < y_i OR (x_i = y_i AND rest).
      const strict: RowCompareOp = op === '<' || op === '<=' ? '<' : '>';
      let acc = compareItems(s, pairs[pairs.length - 1]![0], pairs[pairs.length - 1]![1], op, pos, callAt);
      for (let i = pairs.length - 2; i >= 0; i--) {
        const [x, y] = pairs[i]!;
        acc = callAt('or', [compareItems(s, x, y, strict, pos, callAt), callAt('and', [compareItems(s, x, y, '=', pos, callAt), acc], pos)], pos);
      }
      return acc;
    }
  }
}

const isNull = (e: RexNode): RexNode => call('is_null', [e], 'BOOLEAN');

/** `arg [NOT] IN (list)` where the argument or an item is a row: the OR of the items' row equalities. */
export function bindRowInList(s: ExprScope, e: Extract<Expr, { kind: 'inList' }>, bind: (x: Expr) => RexNode, callAt: CallAt): RexNode {
  const arg = bindItem(e.arg, bind);
  const matches = e.list.map((x) => {
    const item = bindItem(x, bind);
    checkArity(s, arg, item, 'IN', x.pos);
    return compareItems(s, arg, item, '=', x.pos, callAt);
  });
  const any = matches.length === 0 ? literal(false, 'BOOLEAN') : matches.length === 1 ? matches[0]! : callAt('or', matches, e.pos);
  return e.negated ? callAt('not', [any], e.pos) : any;
}

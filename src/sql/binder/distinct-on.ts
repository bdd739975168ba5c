/**
 * `SELECT DISTINCT ON (a, b) ... ORDER BY ...`: the first row of each (a, b) in ORDER BY order, as
 * PostgreSQL and DuckDB define it. It is rewritten before binding into what eddy already runs:
 * `QUALIFY row_number() OVER (PARTITION BY a, b ORDER BY <the query's ORDER BY>) = 1`, so the rows are
 * picked by a window (it sorts within each key) and the query's ORDER BY, LIMIT and OFFSET then apply to
 * the survivors. The ON items and the ORDER BY items may name select items by position or alias (as
 * in ORDER BY): those are replaced by the item's expression, since a window cannot see select aliases.
 * Without ORDER BY the row kept for each key is an arbitrary one, as in DuckDB.
 */
import type { Expr, OrderItem, SelectQuery } from '../ast.js';
import { sqlError, type BindContext } from './context.js';

/** What the rewrite needs of each select item: its expression (undefined for a `*` column) and alias, and the name of a star column. */
export interface DistinctOnItem {
  readonly expr?: Expr;
  readonly alias?: string;
  readonly name: string;
}

/** The query with DISTINCT ON turned into a QUALIFY over row_number(); the query itself when it has none. */
export function rewriteDistinctOn(ctx: BindContext, q: SelectQuery, items: readonly DistinctOnItem[], isInputColumn: (name: string) => boolean): SelectQuery {
  const on = q.distinctOn;
  if (on === undefined) return q;
  const resolve = (e: Expr): Expr => {
    if (e.kind === 'literal' && e.literal === 'number' && /^\d+$/.test(e.value ?? '')) {
      const k = Number(e.value);
      const item = items[k - 1];
      if (item === undefined) throw sqlError(ctx.sql, e.pos, `DISTINCT ON position ${k} is not in the select list (1 to ${items.length})`);
      return item.expr ?? { kind: 'column', name: item.name, pos: e.pos };
    }
    if (e.kind === 'column' && e.qualifier === undefined && !isInputColumn(e.name)) {
      const item = [...items].reverse().find((x) => x.alias?.toLowerCase() === e.name.toLowerCase());
      if (item?.expr !== undefined) return item.expr;
    }
    return e;
  };
  const partitionBy = on.map(resolve);
  const orderBy: OrderItem[] | undefined = q.orderBy?.map((o) => ({ ...o, expr: resolve(o.expr) }));
  const pos = on[0]!.pos;
  const rowNumber: Expr = {
    kind: 'function', name: 'row_number', args: [], distinct: false, star: false, pos,
    over: { partitionBy, ...(orderBy === undefined ? {} : { orderBy }), pos },
  };
  const first: Expr = { kind: 'binary', op: '=', left: rowNumber, right: { kind: 'literal', literal: 'number', value: '1', pos }, pos };
  const qualify: Expr = q.qualify === undefined ? first : { kind: 'binary', op: 'AND', left: q.qualify, right: first, pos };
  const { distinctOn: _on, ...rest } = q;
  return { ...rest, qualify };
}

/**
 * SQL text in Table methods (`t.filter("x > 1")`, `t.select("a, b * 2 AS
 * c")`, `groupBy("k").select("sum(v) AS s")`): parsed by the SQL parser and
 * bound by the one SQL expression binder (expr.ts) over the table's columns
 * and the session settings — the same code `env.sql` runs, so the two cannot
 * drift (`SET integer_division` applies to both).
 */
import type { AggFn } from '../../relnode/functions.js';
import type { RexNode } from '../../relnode/rex.js';
import { locatedAt, ValidationError } from '../../relnode/errors.js';
import type { Expr } from '../ast.js';
import type { SqlCatalog } from '../catalog.js';
import { formatSqlError } from '../error-format.js';
import { parseExpression, parseSelectItems } from '../parse.js';
import { containsAggregate } from './ast-walk.js';
import { bindExpr, type ExprScope } from './expr.js';
import { bindQuery } from './query.js';
import { displayName } from './names.js';
import { lookupColumn, type ScopeColumn } from './scope.js';

/** One parsed expression of SQL text, with its alias. */
export interface TextItem {
  /** The SQL text the expression's positions refer to. */
  readonly text: string;
  readonly expr: Expr;
  readonly alias?: string;
}

/** Parses SQL expression text: one expression, or (`list`) a select list with aliases (no `*`). */
export function parseTextItems(text: string, list: boolean): TextItem[] {
  if (!list) return [{ text, expr: parseExpression(text) }];
  return parseSelectItems(text).map((it) => {
    if (it.kind === 'star') throw locatedAt(new ValidationError(formatSqlError(text, it.pos, `"${it.qualifier ? `${it.qualifier}.` : ''}*" is only supported on its own, as select('*')`)), it.pos.line, it.pos.column);
    return { text, expr: it.expr, ...(it.alias !== undefined ? { alias: it.alias } : {}) };
  });
}

/** Where and how a text item is bound. */
export interface TextBinding {
  readonly catalog: SqlCatalog;
  /** The table's columns (names and qualifiers), aligned with its plan's output. */
  readonly cols: readonly ScopeColumn[];
  /** The Table method, for messages ("filter", "select"). */
  readonly clause: string;
  /** Receives aggregate calls (groupBy().select, global aggregates); absent: aggregates are an error. */
  readonly onAggregate?: (fn: AggFn, arg: RexNode | undefined, distinct: boolean) => RexNode;
}

/** Binds one text item to a RexNode over the columns. */
export function bindTextItem(item: TextItem, b: TextBinding): RexNode {
  const scope: ExprScope = {
    ctx: { sql: { catalog: b.catalog, text: item.text }, bindQuery },
    cols: b.cols,
    clause: b.clause,
    ...(b.onAggregate ? { onAggregate: b.onAggregate } : {}),
  };
  return bindExpr(scope, item.expr);
}

/** The output name of a text item: its alias, or the name DuckDB (and env.sql) gives the expression. */
export function textItemName(item: TextItem, cols: readonly ScopeColumn[]): string {
  if (item.alias !== undefined) return item.alias;
  return displayName(item.expr, (c) => {
    const l = lookupColumn(cols, c.name, c.qualifier);
    return l.kind === 'found' ? cols[l.index]!.name : c.name;
  });
}

/** True if the text item calls an aggregate function. */
export function textItemHasAggregate(item: TextItem): boolean {
  return containsAggregate(item.expr);
}

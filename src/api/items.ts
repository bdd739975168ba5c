/**
 * The arguments of Table methods as one kind of item: a DSL tree (ExprNode
 * from col()/lit()/sum()..., or a plain column name), or SQL text parsed and
 * bound by the SQL binder (src/sql/binder/text.ts) — never translated into
 * DSL trees, so SQL text means exactly what it means in `env.sql`. Both kinds
 * bind through the same core and feed the same aggregate planner.
 */
import type { AggFn } from '../relnode/functions.js';
import type { RexNode } from '../relnode/rex.js';
import type { AggExtra } from '../sql/binder/aggregate.js';
import type { SqlCatalog } from '../sql/catalog.js';
import { bindTextItem, parseTextItems, textItemHasAggregate, textItemName, type TextItem } from '../sql/binder/text.js';
import { bindExpr, exprName, hasAggregate, windowCalls, type Scope } from './bind.js';
import { columnNode, Expr, type ColumnLike, type ExprNode } from './expr.js';

/** One select item / key / condition of a Table method. */
export type Item =
  | { readonly k: 'dsl'; readonly node: ExprNode }
  | { readonly k: 'sql'; readonly item: TextItem };

/** How an item is bound. */
export interface ItemBinding {
  readonly catalog: SqlCatalog;
  readonly scope: Scope;
  /** The Table method, for messages. */
  readonly where: string;
  readonly onAggregate?: (fn: AggFn, arg: RexNode | undefined, distinct: boolean, node?: unknown, extra?: AggExtra) => RexNode;
}

const SIMPLE_NAME = /^[A-Za-z_][\w$]*(\.[A-Za-z_][\w$]*)?$/;

/** The items of an argument: an Expr, a (qualified) column name, or SQL text (`list`: a select list with aliases). */
export function itemsOf(e: ColumnLike, list = true): Item[] {
  if (e instanceof Expr) return [{ k: 'dsl', node: e.node }];
  if (SIMPLE_NAME.test(e)) return [{ k: 'dsl', node: columnNode(e) }];
  return parseTextItems(e, list).map((item) => ({ k: 'sql', item }));
}

/** A DSL item. */
export function dslItem(node: ExprNode): Item {
  return { k: 'dsl', node };
}

/** Binds an item over the scope. */
export function bindItem(it: Item, b: ItemBinding): RexNode {
  if (it.k === 'dsl') return bindExpr(it.node, b.scope, { where: b.where, ...(b.onAggregate ? { onAggregate: b.onAggregate } : {}) });
  return bindTextItem(it.item, { catalog: b.catalog, cols: b.scope, clause: b.where, ...(b.onAggregate ? { onAggregate: b.onAggregate } : {}) });
}

/** The output name of a bound item. */
export function itemName(it: Item, bound: RexNode, scope: Scope): string {
  if (it.k === 'sql') return textItemName(it.item, scope);
  // An aggregate's marker carries the planner's name for the call (`sum(v)`, `count_star()`).
  if (it.node.k === 'agg' && bound.kind === 'AggRef') return bound.name;
  return exprName(it.node, bound, scope);
}

/** The item renamed to `name` (kept as is when already aliased). */
export function withAlias(it: Item, name: string): Item {
  if (isAliased(it)) return it;
  return it.k === 'dsl' ? { k: 'dsl', node: { k: 'alias', arg: it.node, name } } : { k: 'sql', item: { ...it.item, alias: name } };
}

/** True if the item is renamed explicitly (`.as(name)`, `AS name`). */
export function isAliased(it: Item): boolean {
  return it.k === 'dsl' ? it.node.k === 'alias' : it.item.alias !== undefined;
}

/** True if the item calls an aggregate function. */
export function itemHasAggregate(it: Item): boolean {
  return it.k === 'dsl' ? hasAggregate(it.node) : textItemHasAggregate(it.item);
}

/** True if the item is a DSL expression with a window call (`rowNumber().over(...)`). */
export function itemHasWindow(it: Item): boolean {
  return it.k === 'dsl' && windowCalls(it.node).length > 0;
}

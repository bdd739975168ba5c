/**
 * Plans `groupBy(keys).select(items)` and global aggregates with the SQL
 * binder's aggregate planner (src/sql/binder/aggregate.ts AggPlanner) — one
 * planner for both front ends: Project (keys + aggregate arguments) →
 * Aggregate → Project (the select list over keys and aggregate results).
 */
import { ValidationError } from '../relnode/errors.js';
import { formatRex } from '../relnode/explain.js';
import * as rel from '../relnode/rel.js';
import type { RexNode } from '../relnode/rex.js';
import { schemaOf } from '../relnode/types.js';
import { AggPlanner } from '../sql/binder/aggregate.js';
import type { SqlCatalog } from '../sql/catalog.js';
import type { Scope } from './bind.js';
import { bindItem, itemName, type Item } from './items.js';

/** The input of an aggregation: a plan, its scope, and the catalog SQL text binds against. */
export interface AggregateInput {
  readonly plan: rel.RelNode;
  readonly scope: Scope;
  readonly catalog: SqlCatalog;
}

/** Builds the plan of a grouped (or global, when keys is empty) aggregation. */
export function planAggregate(t: AggregateInput, keyItems: readonly Item[], selectItems: readonly Item[]): rel.RelNode {
  const { scope, catalog } = t;
  const show = (e: RexNode): string => formatRex(e, schemaOf(scope));
  const keys = keyItems.map((k) => bindItem(k, { catalog, scope, where: 'groupBy' }));
  const keyNames = keyItems.map((k, i) => itemName(k, keys[i]!, scope));
  const planner = new AggPlanner({ plan: t.plan, cols: scope }, keys, keyNames);
  const bound = selectItems.map((n) => bindItem(n, { catalog, scope, where: 'select', onAggregate: planner.onAggregate }));
  const names = selectItems.map((n, i) => itemName(n, bound[i]!, scope));
  const top = bound.map((b) => planner.rewrite(b, (index) => {
    throw new ValidationError(`column "${scope[index]!.name}" in ${show(b).replace(/\$\d+/g, '?')} must appear in groupBy(...) or be used inside an aggregate function`);
  }));
  return rel.project(planner.build(), top, names);
}

/**
 * The binder's entry points: a parsed query → the same kind of RelNode tree
 * the Table API builds, against a SqlCatalog (src/sql/catalog.ts); and SQL
 * expression text of Table methods bound over a table's columns (text.ts).
 */
import type { RelNode } from '../../relnode/rel.js';
import type { Query } from '../ast.js';
import type { SqlContext } from './context.js';
import { bindQuery } from './query.js';

export type { SqlContext } from './context.js';
export { openTableFunctions, tableFunctionsIn } from './table-functions.js';
export { PivotValuesNeeded } from './pivot-values.js';

/** Binds a top-level query to its plan. */
export function bindToRel(sql: SqlContext, q: Query): RelNode {
  return bindQuery({ sql, bindQuery }, q).plan;
}

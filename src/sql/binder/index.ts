/**
 * The binder's entry point: a parsed query → a lazy Table whose plan is the
 * same kind of RelNode tree the Table API builds.
 */
import { Table } from '../../api/table.js';
import type { Query } from '../ast.js';
import type { SqlContext } from './context.js';
import { bindQuery } from './query.js';

export type { SqlContext } from './context.js';
export { openTableFunctions, tableFunctionsIn } from './table-functions.js';

/** Binds a top-level query to a Table of `sql.env`. */
export function bindToTable(sql: SqlContext, q: Query): Table {
  const b = bindQuery({ sql, bindQuery }, q);
  return new Table(sql.env, b.plan, b.plan.schema.fields);
}

/**
 * Binding a parsed query against an environment, table functions opened
 * first (file access is asynchronous). One helper for every statement that
 * runs a query: SELECT, CREATE ... AS, INSERT, UPDATE, DELETE, COPY.
 */
import type { Query } from '../sql/ast.js';
import { bindToRel, openTableFunctions, type SqlContext } from '../sql/binder/index.js';
import type { TableEnvironment } from './environment.js';
import { Table } from './table.js';

/** Binds a query, opening its table functions first. */
export async function bindQueryAsync(env: TableEnvironment, text: string, q: Query): Promise<Table> {
  const base: SqlContext = { catalog: env.sqlCatalog, text };
  const tableFunctions = await openTableFunctions(base, q);
  const plan = bindToRel({ ...base, tableFunctions }, q);
  return new Table(env, plan, plan.schema.fields);
}

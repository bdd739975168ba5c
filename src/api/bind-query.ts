/**
 * Binding a parsed query against an environment, table functions opened
 * first (file access is asynchronous). One helper for every statement that
 * runs a query: SELECT, CREATE ... AS, INSERT, UPDATE, DELETE, COPY.
 * A PIVOT without an IN list needs the distinct values of its ON expression
 * (src/sql/binder/pivot-values.ts): the binder says which with
 * PivotValuesNeeded, this runs the query it gives and binds again.
 */
import type { Expr, Query } from '../sql/ast.js';
import { bindToRel, openTableFunctions, PivotValuesNeeded, type SqlContext } from '../sql/binder/index.js';
import type { TableEnvironment } from './environment.js';
import { Table } from './table.js';

/** Options of bindQueryAsync. */
export interface BindQueryOptions {
  /** Cancels the queries that find PIVOT values. */
  readonly signal?: AbortSignal;
  /**
   * Whether a PIVOT without an IN list may read its values now (default true). A view may not (as in
   * DuckDB): its columns would be frozen at CREATE VIEW while its rows follow the tables.
   */
  readonly findPivotValues?: boolean;
}

/** Binds a query, opening its table functions and finding its PIVOT values first. */
export async function bindQueryAsync(env: TableEnvironment, text: string, q: Query, options: BindQueryOptions = {}): Promise<Table> {
  const base: SqlContext = { catalog: env.sqlCatalog, text };
  const tableFunctions = await openTableFunctions(base, q);
  if (options.findPivotValues === false) {
    const plan = bindToRel({ ...base, tableFunctions }, q);
    return new Table(env, plan, plan.schema.fields);
  }
  const pivotValues = new Map<Expr, readonly string[]>();
  for (;;) {
    try {
      const plan = bindToRel({ ...base, tableFunctions, pivotValues }, q);
      return new Table(env, plan, plan.schema.fields);
    } catch (err) {
      if (!(err instanceof PivotValuesNeeded) || pivotValues.has(err.key)) throw err;
      const found = await env.collect(err.plan, options.signal);
      const texts = found.getChildAt(1)!.toArray() as ArrayLike<unknown>;
      pivotValues.set(err.key, Array.from(texts, (v) => String(v)));
    }
  }
}

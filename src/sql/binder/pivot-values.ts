/**
 * A PIVOT without an IN list makes a column per distinct value of its ON expression, so its output schema
 * depends on the data. Like DuckDB (which runs `SELECT DISTINCT` into an ENUM first), eddy finds the values
 * with a query before the pivot is planned. The binder is synchronous and runs nothing, so it asks: when
 * `SqlContext.pivotValues` lacks an ON expression's values it throws PivotValuesNeeded with the plan that
 * finds them (the distinct non-NULL values, in order, as text); the statement runner (src/api/bind-query.ts)
 * runs that plan, adds the values and binds again, once per such ON expression. The values are read when
 * the statement is bound, so a PIVOT in a view or a prepared statement has none: `env.sql()`, views and
 * prepared statements ask for an IN list instead (the message says so).
 */
import type { RelNode } from '../../relnode/rel.js';
import type { Expr } from '../ast.js';

/** Most columns one PIVOT may make (values × aggregates); DuckDB's pivot_limit is 100000, eddy's plans stay smaller. */
export const MAX_PIVOT_COLUMNS = 10_000;

/** Thrown by the binder: run `plan` (one VARCHAR column, the values in order) and bind again with its values for `key`. */
export class PivotValuesNeeded extends Error {
  constructor(readonly key: Expr, readonly plan: RelNode) {
    super('internal: the distinct values of a PIVOT ON expression are needed before binding (caught by the statement runner)');
  }
}

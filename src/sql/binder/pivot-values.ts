/**
 * A PIVOT without an IN list makes a column per distinct value of its ON expression, so its output schema
 * depends on the data. Decision: eddy finds the values with a query before the pivot is planned, as DuckDB
 * does (it runs `SELECT DISTINCT` into an ENUM first). Why: every plan node derives its schema when it is
 * built, so the columns must be known before binding; refusing PIVOT without IN would refuse DuckDB's most
 * common form, and a plan that discovered its columns while running would break every schema-based step
 * (the optimizer's checks, workers, caching by digest).
 *
 * How: the binder is synchronous and runs nothing, so it asks. When `SqlContext.pivotValues` lacks an ON
 * expression's values it throws PivotValuesNeeded with the plan that finds them (the distinct non-NULL
 * values, in order, as text); the statement runner (src/api/bind-query.ts) runs that plan, adds the values
 * and binds again, once per such ON expression. The values are read when the statement runs, so a plan
 * bound without a runner has none: `env.sql()`, views (whose columns would stay frozen while their rows
 * follow the tables; DuckDB refuses them too) and prepared statements ask for an IN list instead.
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

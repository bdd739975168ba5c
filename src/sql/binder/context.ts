/**
 * What every binding step sees: the catalog (an interface the API
 * implements, src/sql/catalog.ts) and SQL text (for lookups and caret
 * errors), the CTEs in scope, the table functions the statement runner
 * opened ahead of time, and the outer query's columns when binding a
 * subquery (for correlated references).
 */
import { locatedAt, ValidationError } from '../../relnode/errors.js';
import type { RelNode } from '../../relnode/rel.js';
import type { RexNode } from '../../relnode/rex.js';
import type { Expr, FromItem, Pos, Query } from '../ast.js';
import type { SqlCatalog } from '../catalog.js';
import { formatSqlError } from '../error-format.js';
import type { BoundQuery, BoundRel, ScopeColumn } from './scope.js';

/** The statement being bound. */
export interface SqlContext {
  /** Tables, views and session settings. */
  readonly catalog: SqlCatalog;
  /** The full SQL text the positions refer to. */
  readonly text: string;
  /** Table functions (read_csv, ...) opened by the executor's asynchronous pre-pass, by AST node. */
  readonly tableFunctions?: ReadonlyMap<FromItem, RelNode>;
  /**
   * The values of `$1`, `$2`, ... (`?`) as literals, in order (src/api/prepared.ts). Absent outside prepared
   * statements: a parameter is then an error. Bound as values, never as text.
   */
  readonly parameters?: readonly RexNode[];
  /**
   * The distinct values (as text, in order) of each PIVOT ON expression written without an IN list, found by
   * the statement runner before this binding (binder/pivot-values.ts). Absent: such a PIVOT is an error.
   */
  readonly pivotValues?: ReadonlyMap<Expr, readonly string[]>;
}

/** CTEs visible at a point of the query (innermost first). */
export interface CteScope {
  readonly ctes: ReadonlyMap<string, BoundRel>;
  readonly parent?: CteScope;
}

/** The columns of the query a subquery is nested in (one level of correlation: they bind to OuterRefs). */
export interface OuterScope {
  readonly cols: readonly ScopeColumn[];
  /** The query around the outer one (references that far are rejected with a clear error). */
  readonly parent?: OuterScope;
}

/** The binding context of one query level. */
export interface BindContext {
  readonly sql: SqlContext;
  /** Binds a nested query (derived tables, subqueries): passed down so that those files need not import query.ts back. */
  readonly bindQuery: (ctx: BindContext, q: Query) => BoundQuery;
  readonly ctes?: CteScope;
  readonly outer?: OuterScope;
}

/** A ValidationError whose message quotes the SQL line with a caret under `pos`. */
export function sqlError(sql: SqlContext, pos: Pos | undefined, message: string): ValidationError {
  if (!pos) return new ValidationError(message);
  return locatedAt(new ValidationError(formatSqlError(sql.text, pos, message)), pos.line, pos.column);
}

/** Finds a CTE by name (case-insensitive), innermost first. */
export function lookupCte(scope: CteScope | undefined, name: string): BoundRel | undefined {
  for (let s = scope; s; s = s.parent) {
    const hit = s.ctes.get(name.toLowerCase());
    if (hit) return hit;
  }
  return undefined;
}

/** Names of every visible CTE (for suggestions). */
export function cteNames(scope: CteScope | undefined): string[] {
  const out: string[] = [];
  for (let s = scope; s; s = s.parent) out.push(...s.ctes.keys());
  return out;
}

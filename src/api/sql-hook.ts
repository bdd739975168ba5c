/**
 * The seam between the Table API and the SQL front end. `src/sql` sits above
 * `src/api` in the layers, so the API cannot import it; instead the SQL layer
 * installs itself here when loaded (the package root loads it), and
 * `env.sql()`, `env.executeSql()` and string expressions in Table methods
 * call through this interface.
 */
import type { Table as ArrowTable } from 'apache-arrow';
import { EddyError } from '../relnode/errors.js';
import type { ExprNode } from './expr.js';
import type { Table } from './table.js';
import type { TableEnvironment } from './environment.js';

/** The result of one SQL statement. */
export type SqlResult =
  /** A query's rows (SELECT, VALUES, WITH, SHOW TABLES, DESCRIBE, EXPLAIN, SHOW CACHES). */
  | { readonly kind: 'rows'; readonly table: ArrowTable; readonly statement: string }
  /** A statement without rows: `message` says what happened (`CREATE TABLE`, `INSERT 3`). */
  | { readonly kind: 'status'; readonly message: string; readonly rowsAffected?: number; readonly statement: string };

/** Options for running SQL. */
export interface SqlOptions {
  /** Cancels the running statement. */
  readonly signal?: AbortSignal;
  /** Called with the rows read by sources so far while a query runs (about every 100 ms); pass it to `env.collect`. */
  readonly onProgress?: (rowsRead: number) => void;
}

/** What the SQL layer provides to the API layer. */
export interface SqlFrontEnd {
  /** Parses and binds one query (SELECT / VALUES / WITH) to a lazy Table. */
  query(env: TableEnvironment, text: string): Table;
  /** Runs one or more `;`-separated statements in order; returns every statement's result. */
  execute(env: TableEnvironment, text: string, options?: SqlOptions): Promise<SqlResult[]>;
  /**
   * Parses SQL expressions for Table methods (`t.filter("x > 1")`,
   * `t.select("a, b * 2 AS c")`) into unresolved Table API expressions;
   * `list` allows a comma-separated list with aliases.
   */
  parseExpressions(text: string, list: boolean): ExprNode[];
}

let installed: SqlFrontEnd | undefined;

/** Called once by the SQL layer when it is loaded. */
export function installSqlFrontEnd(f: SqlFrontEnd): void {
  installed = f;
}

/** The installed SQL front end; fails with advice when it was not loaded. */
export function sqlFrontEnd(): SqlFrontEnd {
  if (!installed) throw new EddyError('the SQL front end is not loaded: import from the package root ("eddy" or src/index.ts), not from src/api directly');
  return installed;
}

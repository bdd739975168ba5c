/**
 * The error of a statement naming a table that does not exist (INSERT, UPDATE, DELETE, COPY,
 * DROP, DESCRIBE, CREATE INDEX): one message for all of them, naming a close table when there is
 * one, and saying that an information_schema view is read-only rather than missing (queries read
 * it: src/sql/information-schema.ts).
 */
import type { ValidationError } from '../relnode/errors.js';
import { sqlError } from '../sql/binder/context.js';
import type { SqlContext } from '../sql/binder/index.js';
import { suggest } from '../sql/binder/scope.js';
import { INFORMATION_SCHEMA, parseTableName } from '../sql/information-schema.js';
import type { Pos } from '../sql/ast.js';

/** `what "name" does not exist` (what: table, view), with a hint. */
export function missingTable(sql: SqlContext, tables: readonly string[], pos: Pos, name: string, what: string): ValidationError {
  if (parseTableName(name).schema === INFORMATION_SCHEMA) {
    return sqlError(sql, pos, `"${name}" is a read-only view of the catalog (${INFORMATION_SCHEMA}): query it with SELECT; it cannot be changed or dropped`);
  }
  const hint = suggest(name, tables);
  return sqlError(sql, pos, `${what} "${name}" does not exist${hint ? `; did you mean "${hint}"?` : ''}`);
}

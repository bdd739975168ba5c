/**
 * The function registry as a relation: `SELECT * FROM eddy_functions()`,
 * one row per signature (DuckDB's duckdb_functions() lists overloads the
 * same way). A Values node: the list is fixed for the process, so its
 * digest is stable and it may be cached like any constant.
 */
import { FUNCTION_REGISTRY } from './function-registry.js';
import { values, type Values } from './rel.js';
import { field, schemaOf } from './types.js';

const COLUMNS = ['name', 'kind', 'category', 'signature', 'return_type', 'description', 'aliases'] as const;

/** The rows of eddy_functions(), in registry order. */
export function functionListRows(): string[][] {
  return FUNCTION_REGISTRY.flatMap((e) => e.signatures.map((sig) => [e.name, e.kind, e.category, sig, e.returns, e.description, e.aliases.join(', ')]));
}

/** The eddy_functions() relation. */
export function functionList(): Values {
  return values(functionListRows(), schemaOf(COLUMNS.map((c) => field(c, 'VARCHAR', c === 'aliases'))));
}

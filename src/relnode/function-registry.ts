/**
 * The function registry: the one list of every SQL function a user can call
 * — scalar, aggregate and table functions — with its name and aliases, what
 * it binds to, its signatures, its result type rule and a description. The
 * SQL binder's name lookup (sql/functions.ts), `SELECT * FROM
 * eddy_functions()` and the generated docs/sql.md (`npm run docs:sql`) all
 * read this list, so a function cannot exist without being documented, nor
 * be documented without existing (test/relnode/function-registry.test.ts
 * checks every scalar binding against the catalog of functions.ts and the
 * kernels). Descriptions live in relnode, the lowest layer, so every layer
 * may list them; kernels stay in exec.
 */
import { AGGREGATE_ENTRIES, TABLE_ENTRIES } from './registry-aggregates.js';
import type { FunctionEntry } from './registry-entry.js';
import { SCALAR_ENTRIES } from './registry-scalars.js';

export type { FunctionBinding, FunctionEntry, FunctionKind } from './registry-entry.js';

/** Every function, in documentation order (category, then name). */
export const FUNCTION_REGISTRY: readonly FunctionEntry[] = [...SCALAR_ENTRIES, ...AGGREGATE_ENTRIES, ...TABLE_ENTRIES];

const byName = new Map<string, FunctionEntry>();
for (const e of FUNCTION_REGISTRY) {
  for (const n of [e.name, ...e.aliases]) {
    if (byName.has(n)) throw new Error(`internal error: function name "${n}" is registered twice`);
    byName.set(n, e);
  }
}

/** The entry of a (lower-case) SQL function name or alias. */
export function registryEntry(name: string): FunctionEntry | undefined {
  return byName.get(name);
}

/** Every SQL function name and alias, sorted. */
export const REGISTRY_NAMES: readonly string[] = [...byName.keys()].sort();

/**
 * The shape of one function registry entry (function-registry.ts) and the
 * shorthand the registry's lists (registry-scalars.ts,
 * registry-aggregates.ts) build entries with.
 */

export type FunctionKind = 'scalar' | 'aggregate' | 'table';

/** What a SQL function name binds to. */
export type FunctionBinding =
  /** A Call id of the scalar catalog (functions.ts). */
  | { readonly scalar: string }
  /** An aggregate function (AggFn). */
  | { readonly aggregate: string }
  /** A form the SQL binder builds itself (extract, IF, TRY_CAST, ...). */
  | { readonly special: string }
  /** A table function in FROM. */
  | { readonly table: string };

/** One documented SQL function. */
export interface FunctionEntry {
  readonly name: string;
  readonly aliases: readonly string[];
  readonly kind: FunctionKind;
  /** Docs section: string, math, date, regex, conditional, aggregate, table, ... */
  readonly category: string;
  readonly binds: FunctionBinding;
  /** Signatures with parameter names and types, e.g. `lpad(s VARCHAR, n INTEGER, pad VARCHAR)`. */
  readonly signatures: readonly string[];
  /** The result type rule, e.g. `VARCHAR`, `the common type of the arguments`. */
  readonly returns: string;
  readonly description: string;
}

/** Builds an entry (the registry files' shorthand). */
export function entry(
  kind: FunctionKind, category: string, name: string, binds: FunctionBinding, signatures: string | readonly string[],
  returns: string, description: string, aliases: readonly string[] = [],
): FunctionEntry {
  return { name, aliases, kind, category, binds, signatures: typeof signatures === 'string' ? [signatures] : signatures, returns, description };
}

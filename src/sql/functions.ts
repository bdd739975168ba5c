/**
 * SQL function names → what they bind to, read from the function registry
 * (relnode/function-registry.ts, the one list of functions): a scalar
 * function id of the catalog (src/relnode/functions.ts), an aggregate, or a
 * form the binder builds itself (special-functions.ts). Names are matched
 * lower-cased; aliases share their entry's binding. The registry is a Map:
 * a user's name never reaches an object's prototype (`constructor(1)` is an
 * unknown function like any other).
 */
import { REGISTRY_NAMES, registryEntry } from '../relnode/function-registry.js';
import type { AggFn } from '../relnode/functions.js';

/** What a SQL function name means. */
export type SqlFunction =
  | { readonly kind: 'scalar'; readonly id: string }
  | { readonly kind: 'aggregate'; readonly fn: AggFn }
  /** `extract(part FROM x)` / `date_part('part', x)`. */
  | { readonly kind: 'datePart' }
  /** A form the binder builds (IF, IFNULL, log, trim, hour(x), ...): `name` is the registry entry's name. */
  | { readonly kind: 'special'; readonly name: string };

/** Looks up a SQL function name (case-insensitive); undefined when unknown. Table functions are not found here. */
export function lookupFunction(name: string): SqlFunction | undefined {
  const e = registryEntry(name.toLowerCase());
  if (e === undefined) return undefined;
  const b = e.binds;
  if ('scalar' in b) return { kind: 'scalar', id: b.scalar };
  if ('aggregate' in b) return { kind: 'aggregate', fn: b.aggregate as AggFn };
  if ('special' in b) return e.name === 'date_part' ? { kind: 'datePart' } : { kind: 'special', name: e.name };
  return undefined;
}

/** True if the name is an aggregate function. */
export function isAggregateName(name: string): boolean {
  return lookupFunction(name)?.kind === 'aggregate';
}

/** Every SQL function name the binder knows, sorted (for suggestions and docs). */
export const SQL_FUNCTION_NAMES: readonly string[] = REGISTRY_NAMES.filter((n) => registryEntry(n)!.kind !== 'table');

/**
 * SQL function names → what they bind to: a scalar function id of the
 * catalog (src/relnode/functions.ts) or an aggregate. Names are matched
 * lower-cased; several SQL spellings share one id (`substr`/`substring`,
 * `ceil`/`ceiling`, `ifnull`/`coalesce`, `mean`/`avg`). The tables are Maps:
 * a user's name never reaches an object's prototype (`constructor(1)` is an
 * unknown function like any other).
 */
import type { AggFn } from '../relnode/functions.js';

/** What a SQL function name means. */
export type SqlFunction =
  | { readonly kind: 'scalar'; readonly id: string }
  | { readonly kind: 'aggregate'; readonly fn: AggFn }
  /** `extract(part FROM x)` / `date_part('part', x)`: year, month or day of a date. */
  | { readonly kind: 'datePart' };

const SCALAR: ReadonlyMap<string, string> = entries({
  upper: 'upper', ucase: 'upper', lower: 'lower', lcase: 'lower',
  substr: 'substring', substring: 'substring',
  length: 'length', char_length: 'length', character_length: 'length', len: 'length',
  trim: 'trim', concat: 'concat',
  abs: 'abs', round: 'round', floor: 'floor', ceil: 'ceil', ceiling: 'ceil',
  sqrt: 'sqrt', ln: 'ln', exp: 'exp', power: 'power', pow: 'power',
  year: 'year', month: 'month', day: 'day', dayofmonth: 'day',
  date_add: 'date_add', coalesce: 'coalesce', ifnull: 'coalesce', nvl: 'coalesce', nullif: 'nullif',
  random: 'random', now: 'now', current_timestamp: 'now',
});

const AGGREGATE: ReadonlyMap<string, AggFn> = entries<AggFn>({
  count: 'count', sum: 'sum', avg: 'avg', mean: 'avg', min: 'min', max: 'max',
  stddev: 'stddev', stddev_samp: 'stddev',
});

/** A Map from an object literal of fixed names (user names are looked up in the Map, never on an object). */
function entries<T = string>(o: Readonly<Record<string, T>>): ReadonlyMap<string, T> {
  return new Map(Object.entries(o));
}

/** Looks up a SQL function name (case-insensitive); undefined when unknown. */
export function lookupFunction(name: string): SqlFunction | undefined {
  const n = name.toLowerCase();
  if (n === 'extract' || n === 'date_part' || n === 'datepart') return { kind: 'datePart' };
  const id = SCALAR.get(n);
  if (id !== undefined) return { kind: 'scalar', id };
  const fn = AGGREGATE.get(n);
  if (fn !== undefined) return { kind: 'aggregate', fn };
  return undefined;
}

/** True if the name is an aggregate function. */
export function isAggregateName(name: string): boolean {
  return AGGREGATE.has(name.toLowerCase());
}

/** Every SQL function name the binder knows, sorted (for suggestions and docs). */
export const SQL_FUNCTION_NAMES: readonly string[] = [...SCALAR.keys(), ...AGGREGATE.keys(), 'extract', 'date_part'].sort();

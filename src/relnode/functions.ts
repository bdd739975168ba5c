/**
 * The function catalog: every scalar function id a Call may use, with its
 * result-type rule and properties (deterministic, commutative). The binder,
 * the digest and the kernel compiler all read this one table.
 */
import { expect, isMismatch, mismatch, numericResult, toCommon, type TypeMismatch } from './type-rules.js';
import { isNumeric, type SqlType } from './types.js';
import { LIBRARY_DEFS } from './functions-library.js';

export { isMismatch, type TypeMismatch } from './type-rules.js';

export interface FunctionDef {
  /** The id used in Call.op. */
  readonly id: string;
  /** Name shown in EXPLAIN and errors (`+`, `upper`, ...). */
  readonly display: string;
  /** Infix operators print as `a + b`. */
  readonly infix?: boolean;
  readonly minArgs: number;
  readonly maxArgs: number;
  /** False for random(), now(): a subtree using one is never cached or constant-folded. */
  readonly deterministic: boolean;
  /** Operands may be reordered (digest canonicalization). */
  readonly commutative?: boolean;
  /**
   * The result type for the given argument types, or an error message that
   * names what was expected. Argument coercion (casts) is the binder's job:
   * it calls `argTypes` first when present.
   */
  readonly returnType: (args: readonly SqlType[]) => SqlType | TypeMismatch;
  /** Types the arguments should be cast to before the call, given their types (e.g. both sides of `=` to a common type). */
  readonly argTypes?: (args: readonly SqlType[]) => readonly SqlType[] | TypeMismatch;
}

const bool = (): SqlType => 'BOOLEAN';
const same = (a: readonly SqlType[]): SqlType => a[0] ?? 'NULL';
const dbl = (): SqlType => 'DOUBLE';
const str = (): SqlType => 'VARCHAR';
const int = (): SqlType => 'INTEGER';


function arith(id: string, display: string, commutative: boolean): FunctionDef {
  return {
    id, display, infix: true, minArgs: 2, maxArgs: 2, deterministic: true, commutative,
    returnType: (a) => {
      const [x, y] = a as [SqlType, SqlType];
      if (id === 'plus' && ((x === 'DATE' && isIntLike(y)) || (isIntLike(x) && y === 'DATE'))) return 'DATE';
      if (id === 'minus' && x === 'DATE' && isIntLike(y)) return 'DATE';
      if (id === 'minus' && x === 'DATE' && y === 'DATE') return 'INTEGER';
      return numericResult(display)(a);
    },
    argTypes: (a) => {
      const [x, y] = a as [SqlType, SqlType];
      if (x === 'DATE' || y === 'DATE') return [x === 'NULL' ? 'INTEGER' : x, y === 'NULL' ? 'INTEGER' : y];
      const t = numericResult(display)(a);
      return isMismatch(t) ? t : [t, t];
    },
  };
}

function isIntLike(t: SqlType): boolean {
  return t === 'INTEGER' || t === 'BIGINT' || t === 'NULL';
}

function cmp(id: string, display: string, commutative: boolean): FunctionDef {
  return { id, display, infix: true, minArgs: 2, maxArgs: 2, deterministic: true, commutative, returnType: bool, argTypes: toCommon(display) };
}

function unaryMath(id: string, result: 'same' | 'DOUBLE'): FunctionDef {
  return {
    id, display: id, minArgs: 1, maxArgs: 1, deterministic: true,
    returnType: (a) => {
      const r = numericResult(id)(a);
      return isMismatch(r) ? r : result === 'same' ? r : 'DOUBLE';
    },
  };
}

const defs: FunctionDef[] = [
  arith('plus', '+', true),
  arith('minus', '-', false),
  arith('times', '*', true),
  { id: 'divide', display: '/', infix: true, minArgs: 2, maxArgs: 2, deterministic: true, returnType: (a) => { const r = numericResult('/')(a); return isMismatch(r) ? r : 'DOUBLE'; }, argTypes: (a) => { const r = numericResult('/')(a); return isMismatch(r) ? r : ['DOUBLE', 'DOUBLE']; } },
  // Integer division (SET integer_division = true): truncates toward zero on INTEGER/BIGINT (plain division on DOUBLE, as DuckDB); x // 0 is NULL.
  { id: 'int_divide', display: '//', infix: true, minArgs: 2, maxArgs: 2, deterministic: true, returnType: numericResult('//'), argTypes: (a) => { const r = numericResult('//')(a); return isMismatch(r) ? r : [r, r]; } },
  { id: 'mod', display: '%', infix: true, minArgs: 2, maxArgs: 2, deterministic: true, returnType: numericResult('%'), argTypes: (a) => { const r = numericResult('%')(a); return isMismatch(r) ? r : [r, r]; } },
  { id: 'neg', display: '-', minArgs: 1, maxArgs: 1, deterministic: true, returnType: numericResult('-') },
  cmp('eq', '=', true),
  cmp('ne', '<>', true),
  cmp('lt', '<', false),
  cmp('le', '<=', false),
  cmp('gt', '>', false),
  cmp('ge', '>=', false),
  { id: 'and', display: 'AND', infix: true, minArgs: 2, maxArgs: Infinity, deterministic: true, commutative: true, returnType: expect('AND', ['BOOLEAN'], 'BOOLEAN') },
  { id: 'or', display: 'OR', infix: true, minArgs: 2, maxArgs: Infinity, deterministic: true, commutative: true, returnType: expect('OR', ['BOOLEAN'], 'BOOLEAN') },
  { id: 'not', display: 'NOT', minArgs: 1, maxArgs: 1, deterministic: true, returnType: expect('NOT', ['BOOLEAN'], 'BOOLEAN') },
  { id: 'is_null', display: 'IS NULL', minArgs: 1, maxArgs: 1, deterministic: true, returnType: bool },
  { id: 'is_not_null', display: 'IS NOT NULL', minArgs: 1, maxArgs: 1, deterministic: true, returnType: bool },
  // in(x, v1, v2, ...): x = v1 OR x = v2 ...; SQL NULL semantics.
  { id: 'in', display: 'IN', minArgs: 2, maxArgs: Infinity, deterministic: true, returnType: bool, argTypes: toCommon('IN') },
  { id: 'like', display: 'LIKE', infix: true, minArgs: 2, maxArgs: 3, deterministic: true, returnType: expect('LIKE', ['VARCHAR'], 'BOOLEAN') },
  { id: 'ilike', display: 'ILIKE', infix: true, minArgs: 2, maxArgs: 3, deterministic: true, returnType: expect('ILIKE', ['VARCHAR'], 'BOOLEAN') },
  { id: 'upper', display: 'upper', minArgs: 1, maxArgs: 1, deterministic: true, returnType: expect('upper', ['VARCHAR'], 'VARCHAR') },
  { id: 'lower', display: 'lower', minArgs: 1, maxArgs: 1, deterministic: true, returnType: expect('lower', ['VARCHAR'], 'VARCHAR') },
  { id: 'trim', display: 'trim', minArgs: 1, maxArgs: 1, deterministic: true, returnType: expect('trim', ['VARCHAR'], 'VARCHAR') },
  { id: 'length', display: 'length', minArgs: 1, maxArgs: 1, deterministic: true, returnType: expect('length', ['VARCHAR'], 'INTEGER') },
  // substring(s, start[, length]): 1-based start, as in SQL.
  { id: 'substring', display: 'substring', minArgs: 2, maxArgs: 3, deterministic: true, returnType: expect('substring', ['VARCHAR', 'INTEGER', 'INTEGER'], 'VARCHAR'), argTypes: (a) => a.map((t, i) => (i === 0 ? t : 'INTEGER')) },
  // concat(a, b, ...): NULL arguments are treated as empty strings (DuckDB's concat); `||` is concat_op, NULL if any is NULL.
  { id: 'concat', display: 'concat', minArgs: 1, maxArgs: Infinity, deterministic: true, returnType: str, argTypes: (a) => a.map(() => 'VARCHAR') },
  { id: 'concat_op', display: '||', infix: true, minArgs: 2, maxArgs: 2, deterministic: true, returnType: str, argTypes: (a) => a.map(() => 'VARCHAR') },
  unaryMath('abs', 'same'),
  // round(x[, digits]): half away from zero.
  { id: 'round', display: 'round', minArgs: 1, maxArgs: 2, deterministic: true, returnType: (a) => numericResult('round')([a[0]!]), argTypes: (a) => a.length === 2 ? [a[0]!, 'INTEGER'] : a },
  unaryMath('floor', 'same'),
  unaryMath('ceil', 'same'),
  unaryMath('sqrt', 'DOUBLE'),
  unaryMath('ln', 'DOUBLE'),
  unaryMath('exp', 'DOUBLE'),
  { id: 'power', display: 'power', minArgs: 2, maxArgs: 2, deterministic: true, returnType: (a) => { const r = numericResult('power')(a); return isMismatch(r) ? r : 'DOUBLE'; }, argTypes: () => ['DOUBLE', 'DOUBLE'] },
  { id: 'year', display: 'year', minArgs: 1, maxArgs: 1, deterministic: true, returnType: dateFn('year') },
  { id: 'month', display: 'month', minArgs: 1, maxArgs: 1, deterministic: true, returnType: dateFn('month') },
  { id: 'day', display: 'day', minArgs: 1, maxArgs: 1, deterministic: true, returnType: dateFn('day') },
  // date_add(date, days): DATE + INTEGER days.
  { id: 'date_add', display: 'date_add', minArgs: 2, maxArgs: 2, deterministic: true, returnType: expect('date_add', ['DATE', 'INTEGER'], 'DATE'), argTypes: (a) => [a[0]!, 'INTEGER'] },
  // add_months(date, n): n calendar months later, the day clamped to the month's end (SQL date ± INTERVAL n MONTH).
  { id: 'add_months', display: 'add_months', minArgs: 2, maxArgs: 2, deterministic: true, returnType: expect('add_months', ['DATE', 'INTEGER'], 'DATE'), argTypes: (a) => [a[0]!, 'INTEGER'] },
  // timestamp_add(ts, months, ms): calendar months (day clamped to the month's end), then milliseconds (SQL timestamp ± INTERVAL).
  { id: 'timestamp_add', display: 'timestamp_add', minArgs: 3, maxArgs: 3, deterministic: true, returnType: expect('timestamp_add', ['TIMESTAMP', 'INTEGER', 'BIGINT'], 'TIMESTAMP'), argTypes: () => ['TIMESTAMP', 'INTEGER', 'BIGINT'] },
  // assert_single_row(count): TRUE, or an execution error when count > 1 (a SQL scalar subquery returned several rows).
  { id: 'assert_single_row', display: 'assert_single_row', minArgs: 1, maxArgs: 1, deterministic: true, returnType: bool },
  { id: 'coalesce', display: 'coalesce', minArgs: 1, maxArgs: Infinity, deterministic: true, returnType: (a) => { const r = toCommon('coalesce')(a); return isMismatch(r) ? r : (r[0] ?? 'NULL'); }, argTypes: toCommon('coalesce') },
  // nullif(a, b) keeps a's type (DuckDB, SQLite): b is cast to the common type, a stays; the kernel compares in the common type.
  { id: 'nullif', display: 'nullif', minArgs: 2, maxArgs: 2, deterministic: true, returnType: same, argTypes: (a) => { const r = toCommon('nullif')(a); return isMismatch(r) ? r : [a[0] === 'NULL' ? r[0]! : a[0]!, r[1]!]; } },
  { id: 'random', display: 'random', minArgs: 0, maxArgs: 0, deterministic: false, returnType: dbl },
  { id: 'now', display: 'now', minArgs: 0, maxArgs: 0, deterministic: false, returnType: () => 'TIMESTAMP' },
  ...LIBRARY_DEFS,
];

function dateFn(name: string) {
  return (a: readonly SqlType[]): SqlType | TypeMismatch => (a[0] === 'DATE' || a[0] === 'TIMESTAMP' || a[0] === 'NULL' ? int() : mismatch(`${name} expects DATE or TIMESTAMP, got ${a[0]}`));
}

/** Function id → definition. */
export const FUNCTIONS: ReadonlyMap<string, FunctionDef> = new Map(defs.map((d) => [d.id, d]));

export function functionDef(id: string): FunctionDef {
  const d = FUNCTIONS.get(id);
  if (d === undefined) throw new Error(`internal error: unknown function id "${id}"`);
  return d;
}

/** Aggregate function ids. */
export type AggFn = 'count' | 'count_star' | 'sum' | 'avg' | 'min' | 'max' | 'stddev' | LibraryAggFn | PartsAggFn;

/**
 * The aggregates of a split DOUBLE sum (planner/ship-stages.ts; no SQL name): a partial stage sends
 * each group's compensated sum as two DOUBLEs, `sum(x)` (the rounded sum) and `sum_lo(x)` (what the
 * rounding left: the two add up to the share's sum exactly), and the final aggregate adds every
 * share's pair into one compensated sum, `sum_parts(hi, lo)`, or divides it by the summed counts,
 * `avg_parts(hi, lo, count)`, rounding once as one thread does (docs/multi-core.md "Determinism").
 * An avg over INTEGER sends its exact BIGINT sum and count: `avg_parts(sum, count)`. A sum or avg
 * over BIGINT sends each share's exact total as two BIGINT words of a 128-bit integer,
 * `sum_low64(x)` and `sum_high64(x)` (a share's total can pass 2^63 where the whole total does
 * not), added by `sum_parts(low, high)` (BIGINT, checked once) or `avg_parts(low, high, count)`
 * (exec/operators/agg-int-sum.ts).
 */
export type PartsAggFn = 'sum_lo' | 'sum_parts' | 'avg_parts' | 'sum_low64' | 'sum_high64';

/** The function library's aggregates (agg-library.ts in exec; function-registry.ts documents them). */
export type LibraryAggFn =
  | 'stddev_pop' | 'var_samp' | 'var_pop' | 'covar_samp' | 'covar_pop' | 'corr' | 'bool_and' | 'bool_or'
  | 'arg_min' | 'arg_max' | 'median' | 'quantile_cont' | 'quantile_disc' | 'mode' | 'string_agg' | 'approx_count_distinct'
  | 'first' | 'last' | 'any_value';

/** How many arguments an aggregate takes: [min, max] (count_star takes none). */
export function aggArity(fn: AggFn): readonly [number, number] {
  switch (fn) {
    case 'count_star': return [0, 0];
    case 'covar_samp': case 'covar_pop': case 'corr': case 'arg_min': case 'arg_max': case 'quantile_cont': case 'quantile_disc': case 'sum_parts': return [2, 2];
    case 'avg_parts': return [2, 3];
    case 'string_agg': return [1, 2];
    default: return [1, 1];
  }
}

/**
 * The result type of an aggregate over its argument types, or an error
 * message. `more` are the types of the arguments after the first
 * (corr's x, arg_min's `by`, quantile's fraction, string_agg's separator).
 */
export function aggReturnType(fn: AggFn, arg: SqlType | undefined, more: readonly SqlType[] = []): SqlType | TypeMismatch {
  const numeric = (name: string, t: SqlType | undefined): SqlType | TypeMismatch =>
    t === undefined || t === 'NULL' || isNumeric(t) ? 'DOUBLE' : mismatch(`${name} expects a numeric argument, got ${t}`);
  switch (fn) {
    case 'count': case 'count_star': case 'approx_count_distinct': return 'BIGINT';
    case 'sum':
      if (arg === undefined || arg === 'NULL') return 'DOUBLE';
      if (arg === 'INTEGER' || arg === 'BIGINT') return 'BIGINT';
      if (arg === 'DOUBLE') return 'DOUBLE';
      return mismatch(`sum expects a numeric argument, got ${arg}`);
    case 'avg': case 'stddev': case 'stddev_pop': case 'var_samp': case 'var_pop':
      return numeric(fn, arg);
    case 'sum_lo': case 'avg_parts':
      return 'DOUBLE';
    case 'sum_parts':
      return arg === 'BIGINT' ? 'BIGINT' : 'DOUBLE';
    case 'sum_low64': case 'sum_high64':
      return 'BIGINT';
    case 'covar_samp': case 'covar_pop': case 'corr': {
      const a = numeric(fn, arg);
      return isMismatch(a) ? a : numeric(fn, more[0]);
    }
    case 'min': case 'max': case 'mode': case 'first': case 'last': case 'any_value':
      return arg ?? 'NULL';
    case 'arg_min': case 'arg_max':
      return arg ?? 'NULL';
    case 'bool_and': case 'bool_or':
      return arg === 'BOOLEAN' || arg === 'NULL' ? 'BOOLEAN' : mismatch(`${fn} expects a BOOLEAN argument, got ${arg}`);
    case 'median': case 'quantile_cont':
      if (arg === 'DATE' || arg === 'TIMESTAMP') return 'TIMESTAMP';
      if (fn === 'median' && (arg === 'VARCHAR' || arg === 'BOOLEAN')) return arg;
      if (fn === 'quantile_cont' && more[0] !== undefined && !isNumeric(more[0]) && more[0] !== 'NULL') return mismatch(`quantile_cont expects a numeric fraction, got ${more[0]}`);
      return numeric(fn, arg);
    case 'quantile_disc':
      if (more[0] !== undefined && !isNumeric(more[0]) && more[0] !== 'NULL') return mismatch(`quantile_disc expects a numeric fraction, got ${more[0]}`);
      return arg ?? 'NULL';
    case 'string_agg':
      if (more[0] !== undefined && more[0] !== 'VARCHAR' && more[0] !== 'NULL') return mismatch(`string_agg expects a VARCHAR separator, got ${more[0]}`);
      return 'VARCHAR';
  }
}

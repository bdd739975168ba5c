/**
 * Literals and constants: number text → INTEGER / BIGINT / DOUBLE as DuckDB
 * types it, DATE and TIMESTAMP literals, calendar-month arithmetic for
 * `DATE ± INTERVAL`, and evaluation of constant expressions (LIMIT, VALUES).
 */
import { dateTimeFieldProblem, parseDateDays, parseTimestampMs } from '../../exec/kernels/datetime.js';
import { addMonths } from '../../exec/kernels/sql-subquery.js';
import { evaluateConstant } from '../../exec/kernels/index.js';
import { literal, rexInputs, type LiteralValue, type RexNode } from '../../relnode/rex.js';
import type { Expr, Pos } from '../ast.js';
import { sqlError, type SqlContext } from './context.js';

type LiteralExpr = Extract<Expr, { kind: 'literal' }>;

const INT32_MAX = 2147483647n;
const INT64_MAX = 9223372036854775807n;

/** Binds a literal: integers fit INTEGER, else BIGINT, else DOUBLE; decimals are DOUBLE. */
export function bindLiteral(sql: SqlContext, e: LiteralExpr): RexNode {
  const v = e.value;
  switch (e.literal) {
    case 'null': return literal(null, 'NULL');
    case 'parameter': return bindParameter(sql, e);
    case 'boolean': return literal(String(v).toLowerCase() === 'true', 'BOOLEAN');
    case 'string': return literal(v ?? '', 'VARCHAR');
    case 'number': return numberLiteral(sql, v ?? '', e.pos);
    case 'date': {
      const days = parseDateDays(v ?? '');
      if (days === null) throw sqlError(sql, e.pos, `invalid DATE literal '${v}': ${dateTimeFieldProblem(v ?? '', 'DATE') ?? "expected 'YYYY-MM-DD'"}`);
      return literal(days, 'DATE');
    }
    case 'timestamp': {
      const ms = parseTimestampMs(v ?? '');
      if (ms === null) throw sqlError(sql, e.pos, `invalid TIMESTAMP literal '${v}': ${dateTimeFieldProblem(v ?? '', 'TIMESTAMP') ?? "expected 'YYYY-MM-DD HH:MM:SS[.fff]'"}`);
      return literal(ms, 'TIMESTAMP');
    }
  }
}

/** `$n` / `?`: the n-th value of the prepared statement's execution (SqlContext.parameters). */
function bindParameter(sql: SqlContext, e: LiteralExpr): RexNode {
  const n = Number(e.value);
  const given = sql.parameters;
  if (given === undefined) {
    throw sqlError(sql, e.pos, `parameter $${n} has no value: parameters are for prepared statements (env.prepare(sql).execute(...values), or PREPARE name AS ...; EXECUTE name(...))`);
  }
  const p = given[n - 1];
  if (p === undefined) throw sqlError(sql, e.pos, `parameter $${n} has no value: ${given.length} ${given.length === 1 ? 'value was' : 'values were'} given`);
  return p;
}

const SHORT_DIGITS = /^\d+$/;

/** A number as written: `42` → INTEGER, `3000000000` → BIGINT, `1.5` / `1e3` / huge → DOUBLE. */
export function numberLiteral(sql: SqlContext, text: string, pos: Pos, negative = false): RexNode {
  // Fast path: up to 9 plain digits always fit INTEGER (no BigInt; long IN lists and VALUES bind 100k of these).
  if (text.length <= 9 && SHORT_DIGITS.test(text)) { const v = Number(text); return literal(negative ? -v : v, 'INTEGER'); }
  const t = text.replace(/_/g, '');
  if (/^\d+$/.test(t)) {
    const b = negative ? -BigInt(t) : BigInt(t);
    if (b >= -INT32_MAX - 1n && b <= INT32_MAX) return literal(Number(b), 'INTEGER');
    if (b >= -INT64_MAX - 1n && b <= INT64_MAX) return literal(b, 'BIGINT');
    return literal(Number(b), 'DOUBLE');
  }
  const d = Number(t);
  if (!Number.isFinite(d)) throw sqlError(sql, pos, `invalid number "${text}"`);
  return literal(negative ? -d : d, 'DOUBLE');
}

/** Days plus calendar months, clamping the day to the month's end (1995-01-31 + 1 month = 1995-02-28), as DuckDB. */
export const addMonthsToDays: (days: number, months: number) => number = addMonths;

/** True if the expression reads no column (its value is known when binding). */
export function isConstant(e: RexNode): boolean {
  return rexInputs(e).size === 0;
}

/** Evaluates a constant expression; a failure (overflow, bad cast) becomes an error at `pos`. */
export function constantValue(sql: SqlContext, e: RexNode, pos: Pos, what: string): LiteralValue {
  if (!isConstant(e)) throw sqlError(sql, pos, `${what} must be a constant`);
  try {
    return evaluateConstant(e);
  } catch (err) {
    throw sqlError(sql, pos, `${what}: ${(err as Error).message}`);
  }
}

/** A LIMIT or OFFSET value: a constant non-negative integer. */
export function countValue(sql: SqlContext, e: RexNode, pos: Pos, what: 'LIMIT' | 'OFFSET'): number {
  const v = constantValue(sql, e, pos, what);
  const n = typeof v === 'bigint' ? Number(v) : v;
  if (v === null) return what === 'LIMIT' ? Number.MAX_SAFE_INTEGER : 0;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) throw sqlError(sql, pos, `${what} must be a non-negative integer, got ${String(v)}`);
  return n;
}

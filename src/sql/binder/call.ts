/**
 * Function-call binding, shared by the SQL binder and the Table API's DSL
 * binder (one place for coercion): checks the argument count, turns string
 * literals next to DATE/TIMESTAMP operands into typed literals, inserts the
 * casts the function catalog asks for, and types the result. Also CASE
 * typing (one rule for SQL and the DSL's when/otherwise) and the typing of JS
 * literal values.
 */
import { ValidationError } from '../../relnode/errors.js';
import { FUNCTIONS, isMismatch } from '../../relnode/functions.js';
import { assignmentCast, call, caseWhen, cast, literal, spanOf, type LiteralValue, type RexNode } from '../../relnode/rex.js';
import { commonType, type SqlType } from '../../relnode/types.js';
import { narrowDateComparison } from './date-compare.js';
import { dateArithmeticHint } from './date-hint.js';

/** A VARCHAR literal as a value of DATE/TIMESTAMP (implicit coercion of '1995-01-01' next to a date), if it parses. */
export function coerceLiteral(e: RexNode, to: SqlType): RexNode | undefined {
  if (e.kind !== 'Literal' || e.type !== 'VARCHAR' || typeof e.value !== 'string') return undefined;
  if (to === 'DATE' && /^\d{4}-\d{2}-\d{2}$/.test(e.value)) return literal(Math.round(Date.parse(`${e.value}T00:00:00Z`) / 86_400_000), 'DATE');
  if (to === 'TIMESTAMP') {
    const ms = Date.parse(e.value.includes('T') || e.value.length <= 10 ? `${e.value}${e.value.length <= 10 ? 'T00:00:00' : ''}Z` : `${e.value.replace(' ', 'T')}Z`);
    if (!Number.isNaN(ms)) return literal(ms, 'TIMESTAMP');
  }
  return undefined;
}

/** Binds a function call over already-bound arguments, inserting casts the catalog asks for. */
export function bindCall(fn: string, args: RexNode[], show: (e: RexNode) => string): RexNode {
  const def = FUNCTIONS.get(fn);
  if (!def) throw new ValidationError(`unknown function "${fn}"`);
  const text = (): string => show(call(fn, args, 'NULL'));
  if (args.length < def.minArgs || args.length > def.maxArgs) {
    throw new ValidationError(`${def.display} takes ${def.minArgs === def.maxArgs ? def.minArgs : `${def.minArgs} to ${def.maxArgs === Infinity ? 'any number of' : def.maxArgs}`} argument${def.maxArgs === 1 ? '' : 's'}, got ${args.length} in ${text()}`);
  }
  // String literals next to DATE/TIMESTAMP operands become typed literals ('1995-01-01' < l_shipdate).
  const temporal = args.find((a) => a.type === 'DATE' || a.type === 'TIMESTAMP')?.type;
  if (temporal) args = args.map((a) => coerceLiteral(a, temporal) ?? a);
  const asDates = temporal ? narrowDateComparison(fn, args) : undefined;
  if (asDates !== undefined) return asDates;
  let typed = args;
  if (def.argTypes) {
    const want = def.argTypes(args.map((a) => a.type));
    if (isMismatch(want)) throw new ValidationError(`${want.error} (in ${text()})${dateArithmeticHint(args, fn)}`);
    typed = args.map((a, i) => (want[i] && want[i] !== a.type && want[i] !== 'NULL' ? argumentCast(a, want[i]!, def.infix === true ? operandName(i, args.length, def.display) : `argument ${i + 1} of ${def.display}`) : a));
  }
  const rt = def.returnType(typed.map((a) => a.type));
  if (isMismatch(rt)) throw new ValidationError(`${rt.error} (in ${text()})${dateArithmeticHint(args, fn)}`);
  return call(fn, typed, rt);
}

/**
 * An argument converted to the type its function takes. A conversion that fails names the argument
 * (`for argument 2 of substr`), not a CAST the user never wrote, with the caret under the argument
 * where it was written (its span, when it has one).
 */
function argumentCast(a: RexNode, type: SqlType, target: string): RexNode {
  return assignmentCast(a, type, target, spanOf(a));
}

/** An infix operator's operand: the left / right one of a binary operator. */
function operandName(i: number, n: number, op: string): string {
  return n === 2 ? `the ${i === 0 ? 'left' : 'right'} operand of ${op}` : `operand ${i + 1} of ${op}`;
}

/** The SQL type of a JS literal value (integers within INTEGER's range are INTEGER, as SQL number literals). */
export function inferLiteralType(v: LiteralValue): SqlType {
  if (v === null) return 'NULL';
  if (typeof v === 'bigint') return 'BIGINT';
  if (typeof v === 'boolean') return 'BOOLEAN';
  if (typeof v === 'string') return 'VARCHAR';
  return Number.isInteger(v) && v >= -2147483648 && v <= 2147483647 ? 'INTEGER' : 'DOUBLE';
}

/** True for the integer types (`/` on two of them is integer division under SET integer_division). */
export function isIntegerType(t: SqlType): boolean {
  return t === 'INTEGER' || t === 'BIGINT';
}

/**
 * A CASE over bound branches: every condition BOOLEAN (or NULL), the results
 * and ELSE cast to their common type, a missing ELSE a typed NULL. `fail`
 * reports a bad branch (its index) with the message; callers add positions.
 */
export function bindCaseWhen(
  whens: readonly { readonly when: RexNode; readonly then: RexNode }[],
  otherwise: RexNode | undefined,
  fail: (branch: number, part: 'when' | 'then', message: string) => never,
): RexNode {
  whens.forEach((w, i) => {
    if (w.when.type !== 'BOOLEAN' && w.when.type !== 'NULL') fail(i, 'when', `CASE WHEN condition is ${w.when.type}, expected BOOLEAN`);
  });
  const other = otherwise ?? literal(null, 'NULL');
  let t: SqlType = other.type;
  whens.forEach((w, i) => {
    const c = commonType(t, w.then.type);
    if (c === undefined) fail(i, 'then', `CASE branches have incompatible types ${t} and ${w.then.type}; cast one of them`);
    t = c!;
  });
  const elseValue = other.kind === 'Literal' && other.value === null ? literal(null, t) : cast(other, t);
  return caseWhen(whens.map((w) => ({ when: w.when, then: cast(w.then, t) })), elseValue, t);
}

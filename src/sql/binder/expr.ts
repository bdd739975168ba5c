/**
 * Binds SQL AST expressions to RexNodes over a scope: names (with correlated
 * references to the outer query as OuterRefs), literals, operators and functions
 * through the function catalog (`bindCall` inserts the coercions, as for the
 * Table API), CASE, CAST, DATE ± INTERVAL. Aggregates and subqueries are
 * handed to the clause that binds the expression (`onAggregate`,
 * `onSubquery`); clauses without them reject those with a caret error.
 */
import { bindCall, bindCaseWhen, isIntegerType } from './call.js';
import { canCast } from '../../exec/kernels/index.js';
import { dateTimeFieldProblem, parseDateDays, parseTimestampMs } from '../../exec/kernels/datetime.js';
import { EddyError, InternalError, ValidationError } from '../../relnode/errors.js';
import { formatRexAsWritten } from '../../relnode/display.js';
import { FUNCTIONS, type AggFn } from '../../relnode/functions.js';
import { assignmentCast, call, cast, inputRef, literal, outerRef, withSpan, type RexNode } from '../../relnode/rex.js';
import { sourceSpan, spanText } from '../../relnode/source-span.js';
import { MAX_TIMESTAMP_MS, MS_PER_DAY, parseTypeName, schemaOf, SQL_TYPE_NAMES, TIMESTAMP_RANGE_TEXT, type SqlType } from '../../relnode/types.js';
import type { BinaryOp, Expr, Pos } from '../ast.js';
import { lookupFunction, SQL_FUNCTION_NAMES } from '../functions.js';
import { nestedTypeReason } from './nested-functions.js';
import { MAX_EXPRESSION_DEPTH } from '../limits.js';
import { WINDOW_ONLY } from './window-extract.js';
import { bindAggregateCall } from './agg-call.js';
import { bindDatePart, bindSpecial } from './special-functions.js';
import type { AggExtra } from './aggregate.js';
import type { SubqueryExpr } from './ast-walk.js';
import { sqlError, type BindContext } from './context.js';
import { addMonthsToDays, bindLiteral, numberLiteral } from './literals.js';
import { rowListAsValues, valuesFit } from './row-list-values.js';
import { bindItem, bindRowInList, compareItems, isRowCompareOp, ROW_VALUE_PLACES } from './row-values.js';
import { ambiguousMessage, lookupColumn, notFoundMessage, suggest, type ScopeColumn } from './scope.js';

/** bindExpr's type: the helpers of special forms (agg-call.ts, special-functions.ts) receive it rather than import it (no import cycle). */
export type BindExprFn = (s: ExprScope, e: Expr) => RexNode;

/** A function-call AST node. */
export type FunctionExpr = Extract<Expr, { kind: 'function' }>;

/** How one clause binds its expressions. */
export interface ExprScope {
  readonly ctx: BindContext;
  /** The columns names resolve against. */
  readonly cols: readonly ScopeColumn[];
  /** The clause, for messages ("WHERE", "the select list", ...). */
  readonly clause: string;
  /** Receives each aggregate call; returns what stands for its result. Absent: aggregates are an error here. */
  readonly onAggregate?: (fn: AggFn, arg: RexNode | undefined, distinct: boolean, node: FunctionExpr, extra?: AggExtra) => RexNode;
  /** Receives each subquery expression; returns what stands for its value. Absent: subqueries are an error here. */
  readonly onSubquery?: (node: SubqueryExpr, bindArgs: () => readonly RexNode[]) => RexNode;
  /** Resolves an unqualified name that is not a column (select-list aliases, as DuckDB allows). */
  readonly aliasFallback?: (name: string) => RexNode | undefined;
  /** Resolves an unqualified name before the columns (HAVING: an alias whose name is not a group key, as DuckDB). */
  readonly aliasFirst?: (name: string) => RexNode | undefined;
  /** Receives each GROUPING(...) / grouping_id(...) call (it binds the arguments as GROUP BY items). Absent: GROUPING is an error here. */
  readonly onGrouping?: (node: FunctionExpr) => RexNode;
}

const CALL_OPS: Partial<Record<BinaryOp, string>> = {
  '+': 'plus', '-': 'minus', '*': 'times', '%': 'mod', '||': 'concat_op', '//': 'int_divide', '^': 'power',
  '=': 'eq', '<>': 'ne', '<': 'lt', '<=': 'le', '>': 'gt', '>=': 'ge', AND: 'and', OR: 'or',
};

/** How deep bindExpr is nested right now (all scopes): the guard of MAX_EXPRESSION_DEPTH. */
let bindDepth = 0;

/** Binds an expression over the scope. */
export function bindExpr(s: ExprScope, e: Expr): RexNode {
  const sql = s.ctx.sql;
  // Literals first, before the closures below: a 100k-item IN or VALUES list is mostly literals.
  if (e.kind === 'literal') return bindLiteral(sql, e);
  if (e.kind === 'unary' && e.op === '-' && e.arg.kind === 'literal' && e.arg.literal === 'number') return numberLiteral(sql, e.arg.value ?? '', e.arg.pos, true);
  if (e.kind === 'column') return bindColumn(s, e);
  if (bindDepth >= MAX_EXPRESSION_DEPTH) {
    throw sqlError(sql, e.pos, `expression too deeply nested: nesting depth exceeds ${MAX_EXPRESSION_DEPTH} (limit: ${MAX_EXPRESSION_DEPTH} nested operators, calls and subqueries); see docs/sql-limits.md`);
  }
  bindDepth++;
  try {
    // The node a Call, Cast or Case stands for keeps where it was written: a runtime error in it quotes this place (relnode/source-span.ts).
    return withSpan(bindNested(s, e), sourceSpan(sql.text, e.pos));
  } finally {
    bindDepth--;
  }
}

function bindNested(s: ExprScope, e: Expr): RexNode {
  const sql = s.ctx.sql;
  const show = (r: RexNode): string => formatRexAsWritten(r, schemaOf(s.cols));
  const callAt = (fn: string, args: RexNode[], pos: Pos): RexNode => {
    try {
      return bindCall(fn, args, show);
    } catch (err) {
      if (err instanceof ValidationError) throw sqlError(sql, pos, err.message);
      throw err;
    }
  };
  const rec = (x: Expr): RexNode => bindExpr(s, x);
  switch (e.kind) {
    case 'column': return bindColumn(s, e);
    case 'literal': return bindLiteral(sql, e);
    case 'interval': throw sqlError(sql, e.pos, 'an INTERVAL can only be added to or subtracted from a DATE or TIMESTAMP');
    case 'unary': {
      if (e.op === '-' && e.arg.kind === 'literal' && e.arg.literal === 'number') return numberLiteral(sql, e.arg.value ?? '', e.arg.pos, true);
      const a = rec(e.arg);
      if (e.op === '+') return a;
      return callAt(e.op === '-' ? 'neg' : 'not', [a], e.pos);
    }
    case 'binary': {
      if (e.op === 'AND' || e.op === 'OR') return callAt(CALL_OPS[e.op]!, chainOperands(e).map(rec), e.pos);
      if ((e.op === '+' || e.op === '-') && (e.left.kind === 'interval' || e.right.kind === 'interval')) return bindInterval(s, e);
      if (e.left.kind === 'row' || e.right.kind === 'row' || e.op === 'IS DISTINCT FROM' || e.op === 'IS NOT DISTINCT FROM') {
        if (!isRowCompareOp(e.op)) throw sqlError(sql, (e.left.kind === 'row' ? e.left : e.right).pos, ROW_VALUE_PLACES);
        return compareItems(s, bindItem(e.left, rec), bindItem(e.right, rec), e.op, e.pos, callAt);
      }
      if (!(e.op in CALL_OPS) && e.op !== '/') throw new InternalError(`${e.op} between operands that are not rows`);
      const l = rec(e.left);
      const r = rec(e.right);
      if (e.op === '/') {
        const intDiv = s.ctx.sql.catalog.setting('integer_division') === true && isIntegerType(l.type) && isIntegerType(r.type);
        return callAt(intDiv ? 'int_divide' : 'divide', [l, r], e.pos);
      }
      return callAt(CALL_OPS[e.op]!, [l, r], e.pos);
    }
    case 'isNull': return callAt(e.negated ? 'is_not_null' : 'is_null', [rec(e.arg)], e.pos);
    case 'between': {
      const a = rec(e.arg);
      const both = callAt('and', [callAt('ge', [a, rec(e.low)], e.pos), callAt('le', [a, rec(e.high)], e.pos)], e.pos);
      return e.negated ? callAt('not', [both], e.pos) : both;
    }
    case 'like': {
      const m = callAt(e.caseInsensitive ? 'ilike' : 'like', [rec(e.arg), rec(e.pattern), ...(e.escape ? [rec(e.escape)] : [])], e.pos);
      return e.negated ? callAt('not', [m], e.pos) : m;
    }
    case 'inList': {
      if (e.arg.kind === 'row' || e.list.some((x) => x.kind === 'row')) {
        // A long constant list: IN (VALUES ...), a hash join, where this clause takes subqueries over its own
        // columns (not a grouped select list, whose subqueries see the groups) (row-list-values.ts).
        const asValues = s.onSubquery && !s.onAggregate ? rowListAsValues(e) : undefined;
        if (asValues && e.arg.kind === 'row' && valuesFit(asValues, e.arg.items.map(rec))) return bindNested(s, asValues);
        return bindRowInList(s, e, rec, callAt);
      }
      const m = callAt('in', [rec(e.arg), ...e.list.map(rec)], e.pos);
      return e.negated ? callAt('not', [m], e.pos) : m;
    }
    case 'inSubquery': case 'exists': case 'subquery':
      if (!s.onSubquery) throw sqlError(sql, e.pos, `subqueries are not supported in ${s.clause}`);
      return s.onSubquery(e, () => {
        if (e.kind !== 'inSubquery') throw new InternalError('only IN (subquery) has an argument');
        const plain: ExprScope = { ...s, onSubquery: undefined };
        return e.arg.kind === 'row' ? e.arg.items.map((x) => bindExpr(plain, x)) : [bindExpr(plain, e.arg)];
      });
    case 'row': throw sqlError(sql, e.pos, ROW_VALUE_PLACES);
    case 'case': return bindCase(s, e, callAt);
    case 'cast': return bindCast(s, e);
    case 'function': return bindFunction(s, e, callAt);
  }
}

/** The operands of a chain of one AND / OR operator, left to right, gathered without recursion (a 10k-term OR is one n-ary call). */
function chainOperands(e: Extract<Expr, { kind: 'binary' }>): Expr[] {
  const out: Expr[] = [];
  const stack: Expr[] = [e];
  while (stack.length > 0) {
    const x = stack.pop()!;
    if (x.kind === 'binary' && x.op === e.op) stack.push(x.right, x.left);
    else out.push(x);
  }
  return out;
}

function bindColumn(s: ExprScope, e: Extract<Expr, { kind: 'column' }>): RexNode {
  const sql = s.ctx.sql;
  if (e.qualifier === undefined && s.aliasFirst) {
    const a = s.aliasFirst(e.name);
    if (a) return a;
  }
  const local = lookupColumn(s.cols, e.name, e.qualifier);
  if (local.kind === 'found') {
    const c = s.cols[local.index]!;
    return inputRef(local.index, c.type, c.name);
  }
  if (local.kind === 'ambiguous') throw sqlError(sql, e.pos, ambiguousMessage(s.cols, local.matches, e.qualifier ? `${e.qualifier}.${e.name}` : e.name));
  if (e.qualifier === undefined && s.aliasFallback) {
    const a = s.aliasFallback(e.name);
    if (a) return a;
  }
  const outer = s.ctx.outer;
  if (outer) {
    const o = lookupColumn(outer.cols, e.name, e.qualifier);
    if (o.kind === 'ambiguous') throw sqlError(sql, e.pos, ambiguousMessage(outer.cols, o.matches, e.name));
    if (o.kind === 'found') {
      const c = outer.cols[o.index]!;
      return outerRef(o.index, c.type, c.name);
    }
    for (let p = outer.parent; p; p = p.parent) {
      if (lookupColumn(p.cols, e.name, e.qualifier).kind !== 'notFound') {
        throw sqlError(sql, e.pos, `column "${e.name}" refers to a query two or more levels out; correlated subqueries may only reference the query directly around them`);
      }
    }
  }
  // current_date / current_timestamp are written without parentheses (SQL); a column of that name wins.
  const niladic = e.qualifier === undefined ? NILADIC.get(e.name.toLowerCase()) : undefined;
  if (niladic !== undefined) return bindCall(niladic, [], () => e.name);
  throw sqlError(sql, e.pos, notFoundMessage(s.cols, e.name, e.qualifier));
}

/** Functions called by their bare name. */
const NILADIC: ReadonlyMap<string, string> = new Map([['current_date', 'current_date'], ['current_timestamp', 'now']]);

/**
 * DATE/TIMESTAMP ± INTERVAL: folded for constants, date_add (days) or add_months (months) on DATE
 * columns, timestamp_add (months, then milliseconds) on TIMESTAMP columns and for sub-day units.
 * The result is a TIMESTAMP, as in DuckDB (DATE + INTEGER days stays a DATE); comparing it with a
 * DATE column compares DATEs (date-compare.ts), so predicates keep their DATE kernels and pruning.
 */
function bindInterval(s: ExprScope, e: Extract<Expr, { kind: 'binary' }>): RexNode {
  const sql = s.ctx.sql;
  if (e.left.kind === 'interval' && e.op === '-') throw sqlError(sql, e.pos, 'cannot subtract a DATE from an INTERVAL; write date - INTERVAL ...');
  const iv = (e.left.kind === 'interval' ? e.left : e.right) as Extract<Expr, { kind: 'interval' }>;
  const other = e.left.kind === 'interval' ? e.right : e.left;
  if (other.kind === 'interval') throw sqlError(sql, e.pos, 'adding two INTERVALs is not supported');
  if (!Number.isInteger(iv.value)) throw sqlError(sql, iv.pos, `INTERVAL values must be whole numbers, got ${iv.value}`);
  let d = bindExpr(s, other);
  if (d.kind === 'Literal' && d.type === 'VARCHAR' && typeof d.value === 'string') {
    const days = parseDateDays(d.value);
    if (days !== null && /^\s*\d+-\d+-\d+\s*$/.test(d.value)) d = literal(days, 'DATE');
    else if (parseTimestampMs(d.value) !== null) d = literal(parseTimestampMs(d.value), 'TIMESTAMP');
  }
  if (d.type !== 'DATE' && d.type !== 'TIMESTAMP') throw sqlError(sql, e.pos, `INTERVAL arithmetic needs a DATE or TIMESTAMP, got ${d.type}`);
  const sign = e.op === '-' ? -1 : 1;
  const days = iv.unit === 'day' ? sign * iv.value : 0;
  const months = iv.unit === 'month' ? sign * iv.value : iv.unit === 'year' ? sign * iv.value * 12 : 0;
  const ms = iv.unit === 'ms' ? sign * iv.value : 0;
  if (d.kind === 'Literal') {
    if (d.value === null) return literal(null, 'TIMESTAMP');
    const t = d.type === 'DATE' ? (d.value as number) * MS_PER_DAY : Number(d.value);
    const day = Math.floor(t / MS_PER_DAY);
    const r = (addMonthsToDays(day, months) + days) * MS_PER_DAY + (t - day * MS_PER_DAY) + ms;
    // As DuckDB's "Date out of range" (and timestamp_add's at run time): never a TIMESTAMP past its range.
    if (!(Math.abs(r) <= MAX_TIMESTAMP_MS)) {
      // The operation with its operands' types, in the order written (INTERVAL 1 DAY + TIMESTAMP '...').
      const value = spanText(sourceSpan(sql.text, other.pos)) ?? formatRexAsWritten(d, schemaOf(s.cols));
      const interval = spanText(sourceSpan(sql.text, iv.pos)) ?? `INTERVAL ${iv.value} ${iv.unit === 'ms' ? 'MILLISECOND' : iv.unit.toUpperCase()}`;
      const shown = e.left.kind === 'interval' ? `${interval} ${e.op} ${value}` : `${value} ${e.op} ${interval}`;
      throw sqlError(sql, e.pos, `timestamp out of range: ${shown} is past the range of TIMESTAMP (${TIMESTAMP_RANGE_TEXT})`);
    }
    return literal(r, 'TIMESTAMP');
  }
  const show = (r: RexNode): string => formatRexAsWritten(r, schemaOf(s.cols));
  // Each call stands for the operation written: an error in one quotes it (add_months(...) in d - INTERVAL 9 YEAR).
  const at = sourceSpan(sql.text, e.pos);
  const spanned = (fn: string, args: RexNode[]): RexNode => withSpan(bindCall(fn, args, show), at);
  // A chain (d - INTERVAL 1 YEAR - INTERVAL 3 DAY): the previous step's TIMESTAMP is a DATE at midnight; keep working on the DATE.
  if (d.type === 'TIMESTAMP' && d.kind === 'Cast' && d.arg.type === 'DATE' && ms === 0) d = d.arg;
  if (d.type === 'TIMESTAMP' || ms !== 0) {
    // DuckDB's order: calendar months first (the day clamped to the month's end), then days and smaller units.
    const ts = d.type === 'TIMESTAMP' ? d : cast(d, 'TIMESTAMP');
    return spanned('timestamp_add', [ts, literal(months, 'INTEGER'), literal(BigInt(days * MS_PER_DAY + ms), 'BIGINT')]);
  }
  if (months !== 0) {
    if (!FUNCTIONS.has('add_months')) throw sqlError(sql, e.pos, 'DATE ± INTERVAL in months or years is only supported on constant dates');
    d = spanned('add_months', [d, literal(months, 'INTEGER')]);
  }
  // A DATE result past the TIMESTAMP range fails in this conversion: it names the operation written, not a CAST.
  const written = spanText(at);
  const result = days === 0 ? d : spanned('date_add', [d, literal(days, 'INTEGER')]);
  return written === undefined ? cast(result, 'TIMESTAMP') : assignmentCast(result, 'TIMESTAMP', `the result of ${written}`);
}

function bindCase(s: ExprScope, e: Extract<Expr, { kind: 'case' }>, callAt: (fn: string, a: RexNode[], p: Pos) => RexNode): RexNode {
  const operand = e.operand ? bindExpr(s, e.operand) : undefined;
  const whens = e.whens.map((w) => ({ when: operand ? callAt('eq', [operand, bindExpr(s, w.when)], w.when.pos) : bindExpr(s, w.when), then: bindExpr(s, w.then) }));
  const other = e.else ? bindExpr(s, e.else) : undefined;
  return bindCaseWhen(whens, other, (i, part, message) => {
    const w = e.whens[i]!;
    throw sqlError(s.ctx.sql, part === 'when' ? w.when.pos : w.then.pos, message);
  });
}

function bindCast(s: ExprScope, e: Extract<Expr, { kind: 'cast' }>): RexNode {
  const sql = s.ctx.sql;
  const t = parseTypeName(e.type);
  if (t === undefined) throw sqlError(sql, e.pos, `unknown type "${e.type}" in CAST; use one of ${SQL_TYPE_NAMES}`);
  const a = bindExpr(s, e.arg);
  if (a.kind === 'Literal' && a.type === 'VARCHAR' && typeof a.value === 'string' && (t === 'DATE' || t === 'TIMESTAMP')) {
    const v = t === 'DATE' ? parseDateDays(a.value) : parseTimestampMs(a.value);
    if (v === null && e.try === true) return literal(null, t);
    if (v === null) {
      const why = dateTimeFieldProblem(a.value, t);
      throw sqlError(sql, e.pos, `cannot cast '${a.value}' to ${t}${why === undefined ? '' : `: ${why}`}`);
    }
    return literal(v, t);
  }
  if (a.kind === 'Literal' && a.value === null) return literal(null, t);
  if ((t === 'INTEGER' || t === 'BIGINT') && a.kind === 'Literal' && typeof a.value === 'number' && isDecimalText(e.arg)) {
    // A decimal literal is DECIMAL in DuckDB: to an integer it rounds half away from zero (CAST(-2.5 AS INTEGER) = -3).
    const r = Math.sign(a.value) * Math.round(Math.abs(a.value));
    if (t === 'BIGINT') return literal(BigInt(r), t);
    if (Math.abs(r) <= 2147483647) return literal(r, t);
  }
  if (!canCast(a.type, t)) throw sqlError(sql, e.pos, `cannot cast ${a.type} to ${t}`);
  // TRY_CAST: a value that does not convert is NULL (try-cast.ts); the target type name is an argument, so casts to different types differ.
  if (e.try === true && a.type !== t) return call('try_cast', [a, literal(t, 'VARCHAR')], t);
  return cast(a, t);
}

/** A number literal written with a decimal point and no exponent (`2.5`, `-2.5`). */
function isDecimalText(e: Expr): boolean {
  const x = e.kind === 'unary' && e.op === '-' ? e.arg : e;
  return x.kind === 'literal' && x.literal === 'number' && /^\d*\.\d*$/.test(x.value ?? '');
}

function bindFunction(s: ExprScope, e: FunctionExpr, callAt: (fn: string, a: RexNode[], p: Pos) => RexNode): RexNode {
  const sql = s.ctx.sql;
  if (e.over) throw sqlError(sql, e.pos, `window function ${e.name}() OVER (...) is not allowed in ${s.clause}; window functions may appear in the select list, ORDER BY and QUALIFY`);
  if (WINDOW_ONLY.has(e.name.toLowerCase())) throw sqlError(sql, e.pos, `${e.name}() is a window function and needs an OVER clause, e.g. ${e.name}(${e.name.toLowerCase() === 'row_number' ? '' : '...'}) OVER (ORDER BY ...)`);
  if (GROUPING_NAMES.has(e.name.toLowerCase())) {
    if (s.onGrouping === undefined) throw sqlError(sql, e.pos, `${e.name}(...) is only allowed in a query with GROUP BY, in the select list, HAVING, ORDER BY and QUALIFY`);
    if (e.star || e.distinct || e.args.length === 0) throw sqlError(sql, e.pos, `${e.name}(...) takes one or more GROUP BY expressions`);
    return s.onGrouping(e);
  }
  const f = lookupFunction(e.name);
  if (!f) {
    const nested = nestedTypeReason(e.name);
    if (nested !== undefined) throw sqlError(sql, e.pos, `unknown function "${e.name}": ${nested}`);
    const hint = suggest(e.name, SQL_FUNCTION_NAMES);
    throw sqlError(sql, e.pos, `unknown function "${e.name}"${hint ? `; did you mean "${hint}"?` : ''}`);
  }
  if (f.kind === 'aggregate') return bindAggregateCall(s, e, f.fn, bindExpr);
  if (e.star) throw sqlError(sql, e.pos, `${e.name}(*) is not valid`);
  if (e.distinct) throw sqlError(sql, e.pos, `DISTINCT is only allowed in aggregate functions, not in ${e.name}()`);
  if (f.kind === 'datePart') return bindDatePart(s, e, e.args[0], e.args[1], callAt, bindExpr);
  if (f.kind === 'special') return bindSpecial(s, e, f.name, callAt, bindExpr);
  const args = e.args.map((a) => bindExpr(s, a));
  return callAt(f.id, args, e.pos);
}

/** GROUPING(a, ...) and its DuckDB alias: which of its arguments a row's grouping set leaves out, as bits. */
const GROUPING_NAMES = new Set(['grouping', 'grouping_id']);

/** Binds a boolean condition; anything else is an error naming the clause. */
export function bindCondition(s: ExprScope, e: Expr): RexNode {
  const c = bindExpr(s, e);
  if (c.type !== 'BOOLEAN' && c.type !== 'NULL') throw sqlError(s.ctx.sql, e.pos, `${s.clause} condition must be BOOLEAN, got ${c.type}`);
  return c;
}

/** Rethrows plain eddy errors from plan constructors with a caret at `pos`. */
export function atPos<T>(s: { ctx: BindContext }, pos: Pos, f: () => T): T {
  try {
    return f();
  } catch (err) {
    if (err instanceof EddyError && err.location === undefined) throw sqlError(s.ctx.sql, pos, err.message);
    throw err;
  }
}

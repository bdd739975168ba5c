/**
 * SQL functions the binder builds itself rather than as one catalog call
 * (the registry marks them `special`): extract / date_part and the part
 * shorthands (hour(x), quarter(x), ...), IF / IIF (a CASE), IFNULL / NVL
 * (coalesce of two), log with one or two arguments, trim with or without
 * characters, version(), current_database() and current_schema() (constants). TRY_CAST is syntax (expr.ts); as a plain call it is an error.
 */
import { datePartName } from '../../exec/kernels/date-lib.js';
import { literal, type RexNode } from '../../relnode/rex.js';
import { EddyError } from '../../relnode/errors.js';
import { EDDY_VERSION } from '../../relnode/version.js';
import { CATALOG_NAME, SCHEMA_NAME } from '../information-schema.js';
import type { Expr, Pos } from '../ast.js';
import { bindCaseWhen } from './call.js';
import { sqlError } from './context.js';
import type { BindExprFn, ExprScope, FunctionExpr } from './expr.js';

type CallAt = (fn: string, a: RexNode[], p: Pos) => RexNode;

/** Functions that are date_part with a fixed part. */
const PART_SHORTHANDS: ReadonlyMap<string, string> = new Map([
  ['quarter', 'quarter'], ['dayofweek', 'dow'], ['isodow', 'isodow'], ['dayofyear', 'doy'], ['week', 'week'],
  ['hour', 'hour'], ['minute', 'minute'], ['second', 'second'],
]);

/** extract(part FROM x) / date_part('part', x). */
export function bindDatePart(s: ExprScope, e: FunctionExpr, p: Expr | undefined, x: Expr | undefined, callAt: CallAt, bindExpr: BindExprFn): RexNode {
  const sql = s.ctx.sql;
  if (e.args.length !== 2 || p === undefined || x === undefined) throw sqlError(sql, e.pos, `${e.name} takes a part name and a date, e.g. extract(year FROM d) or date_part('year', d)`);
  // Decision: the part is a constant, as in PostgreSQL (DuckDB also takes a part per row). A bare name
  // is a part name (extract(year FROM d)); another constant is read once here: a NULL part gives NULL.
  let text = p.kind === 'column' ? p.name : p.kind === 'literal' && p.literal === 'string' ? p.value ?? '' : undefined;
  if (text === undefined) {
    const bound = bindExpr(s, p);
    if (bound.kind === 'Literal' && bound.value === null) { bindExpr(s, x); return literal(null, 'BIGINT'); }
    if (bound.kind !== 'Literal' || typeof bound.value !== 'string') throw sqlError(sql, p.pos, `the part of ${e.name} must be a constant string such as 'year' (a part that varies per row is not supported)`);
    text = bound.value;
  }
  const part = datePartName(text);
  if (part === undefined && p.kind === 'column' && e.name !== 'extract') {
    throw sqlError(sql, p.pos, `the part of ${e.name} must be a constant string such as 'year', not ${p.name} (a part that varies per row is not supported; date part names: year, quarter, month, week, day, dow, isodow, doy, hour, minute, second, millisecond, epoch, ...)`);
  }
  if (part === undefined) throw sqlError(sql, p.pos, `unsupported date part "${text}" in ${e.name}; use year, quarter, month, week, day, dow, isodow, doy, hour, minute, second, millisecond, epoch, ...`);
  return datePartCall(part, bindExpr(s, x), e.pos, callAt);
}

function datePartCall(part: string, x: RexNode, pos: Pos, callAt: CallAt): RexNode {
  if (part === 'year' || part === 'month' || part === 'day') return callAt(part, [x], pos);
  if (part === 'epoch') return callAt('epoch', [x], pos);
  return callAt('date_part', [literal(part, 'VARCHAR'), x], pos);
}

/** Binds a special function (see the header). */
export function bindSpecial(s: ExprScope, e: FunctionExpr, name: string, callAt: CallAt, bindExpr: BindExprFn): RexNode {
  const sql = s.ctx.sql;
  const n = e.args.length;
  const arity = (min: number, max = min): void => {
    if (n < min || n > max) throw sqlError(sql, e.pos, `${e.name} takes ${min === max ? min : `${min} or ${max}`} argument${max === 1 ? '' : 's'}, got ${n}`);
  };
  const part = PART_SHORTHANDS.get(name);
  if (part !== undefined) { arity(1); return datePartCall(part, bindExpr(s, e.args[0]!), e.pos, callAt); }
  switch (name) {
    case 'if': {
      arity(3);
      const [c, t, f] = e.args.map((a) => bindExpr(s, a)) as [RexNode, RexNode, RexNode];
      return bindCaseWhen([{ when: c, then: t }], f, (_i, which, message) => {
        throw sqlError(sql, which === 'when' ? e.args[0]!.pos : e.args[1]!.pos, message.replace('CASE WHEN condition', `${e.name} condition`));
      });
    }
    case 'ifnull': {
      arity(2);
      const args = e.args.map((a) => bindExpr(s, a));
      try {
        return callAt('coalesce', args, e.pos);
      } catch (err) {
        // A type error names the function the user wrote (ifnull, nvl), not the coalesce it binds to.
        if (err instanceof EddyError) {
          const [first, ...rest] = err.message.split('\n');
          err.message = [first!.replace(/\bcoalesce\b/g, e.name), ...rest].join('\n');
        }
        throw err;
      }
    }
    case 'log': arity(1, 2); return callAt(n === 1 ? 'log' : 'log_base', e.args.map((a) => bindExpr(s, a)), e.pos);
    case 'trim': arity(1, 2); return callAt(n === 1 ? 'trim' : 'trim_chars', e.args.map((a) => bindExpr(s, a)), e.pos);
    case 'try_cast': throw sqlError(sql, e.pos, 'write TRY_CAST(x AS type)');
    case 'typeof': arity(1); return literal(bindExpr(s, e.args[0]!).type, 'VARCHAR');
    case 'version': arity(0); return literal(`v${EDDY_VERSION}`, 'VARCHAR');
    case 'current_database': arity(0); return literal(CATALOG_NAME, 'VARCHAR');
    case 'current_schema': arity(0); return literal(SCHEMA_NAME, 'VARCHAR');
    default: throw sqlError(sql, e.pos, `internal error: no binding for the function "${name}"`);
  }
}

/**
 * SQL expression text → the Table API's unresolved expressions (ExprNode,
 * src/api/expr.ts), for string arguments of Table methods:
 * `t.filter("l_quantity > 24")`, `t.select("a, b * 2 AS c")`. Names resolve
 * later, when the Table binds the expression against its columns.
 */
import type { ExprNode } from '../api/expr.js';
import { ValidationError } from '../relnode/errors.js';
import { FUNCTIONS } from '../relnode/functions.js';
import { parseTypeName } from '../relnode/types.js';
import { parseDateDays, parseTimestampMs } from '../exec/kernels/datetime.js';
import type { BinaryOp, Expr } from './ast.js';
import { formatSqlError } from './error-format.js';
import { lookupFunction } from './functions.js';
import { addMonthsToDays } from './binder/literals.js';
import { parseExpression, parseSelectItems } from './parse.js';

const OPS: Readonly<Record<BinaryOp, string>> = {
  '+': 'plus', '-': 'minus', '*': 'times', '/': 'divide', '%': 'mod', '||': 'concat_op',
  '=': 'eq', '<>': 'ne', '<': 'lt', '<=': 'le', '>': 'gt', '>=': 'ge', AND: 'and', OR: 'or',
};

/** Parses SQL expression text: one expression, or (`list`) a select list with aliases. */
export function toExprNodes(text: string, list: boolean): ExprNode[] {
  if (!list) return [toExprNode(text, parseExpression(text))];
  return parseSelectItems(text).map((it) => {
    if (it.kind === 'star') throw new ValidationError(formatSqlError(text, it.pos, `"${it.qualifier ? `${it.qualifier}.` : ''}*" is only supported on its own, as select('*')`));
    const node = toExprNode(text, it.expr);
    return it.alias !== undefined ? { k: 'alias', arg: node, name: it.alias } : node;
  });
}

/** Converts one AST expression (positions refer to `text`). */
export function toExprNode(text: string, e: Expr): ExprNode {
  const fail = (pos: Expr['pos'], msg: string): never => { throw new ValidationError(formatSqlError(text, pos, msg)); };
  const rec = (x: Expr): ExprNode => toExprNode(text, x);
  const callN = (fn: string, args: ExprNode[]): ExprNode => ({ k: 'call', fn, args });
  switch (e.kind) {
    case 'column': return e.qualifier !== undefined ? { k: 'col', name: e.name, qualifier: e.qualifier } : { k: 'col', name: e.name };
    case 'literal': return literalNode(e.literal, e.value, false) ?? fail(e.pos, `invalid ${e.literal} literal '${e.value}'`);
    case 'interval': return fail(e.pos, 'an INTERVAL can only be added to or subtracted from a DATE');
    case 'unary':
      if (e.op === '-' && e.arg.kind === 'literal' && e.arg.literal === 'number') return literalNode('number', e.arg.value, true)!;
      if (e.op === '+') return rec(e.arg);
      return callN(e.op === '-' ? 'neg' : 'not', [rec(e.arg)]);
    case 'binary': {
      const iv = e.right.kind === 'interval' ? e.right : e.left.kind === 'interval' && e.op === '+' ? e.left : undefined;
      if (iv && iv.kind === 'interval') {
        const d = e.right === iv ? e.left : e.right;
        const n = (e.op === '-' ? -1 : 1) * iv.value;
        const base = rec(d);
        const months = iv.unit === 'day' ? 0 : iv.unit === 'month' ? n : 12 * n;
        if (base.k === 'lit' && base.type === 'DATE' && typeof base.value === 'number') return { k: 'lit', value: addMonthsToDays(base.value, months) + (iv.unit === 'day' ? n : 0), type: 'DATE' };
        if (months !== 0) {
          if (!FUNCTIONS.has('add_months')) return fail(e.pos, 'DATE ± INTERVAL in months or years is only supported on constant dates');
          return callN('add_months', [base, { k: 'lit', value: months, type: 'INTEGER' }]);
        }
        return callN('date_add', [base, { k: 'lit', value: n, type: 'INTEGER' }]);
      }
      return callN(OPS[e.op], [rec(e.left), rec(e.right)]);
    }
    case 'isNull': return callN(e.negated ? 'is_not_null' : 'is_null', [rec(e.arg)]);
    case 'between': {
      const a = rec(e.arg);
      const both = callN('and', [callN('ge', [a, rec(e.low)]), callN('le', [a, rec(e.high)])]);
      return e.negated ? callN('not', [both]) : both;
    }
    case 'like': {
      const m = callN('like', [rec(e.arg), rec(e.pattern)]);
      return e.negated ? callN('not', [m]) : m;
    }
    case 'inList': {
      const m = callN('in', [rec(e.arg), ...e.list.map(rec)]);
      return e.negated ? callN('not', [m]) : m;
    }
    case 'inSubquery': case 'exists': case 'subquery':
      return fail(e.pos, 'subqueries are not supported in Table API expressions; write the whole query with env.sql(...)');
    case 'case': {
      const whens = e.whens.map((w) => ({ when: e.operand ? callN('eq', [rec(e.operand), rec(w.when)]) : rec(w.when), then: rec(w.then) }));
      return e.else ? { k: 'case', whens, otherwise: rec(e.else) } : { k: 'case', whens };
    }
    case 'cast': {
      const t = parseTypeName(e.type);
      if (t === undefined) return fail(e.pos, `unknown type "${e.type}" in CAST; use one of BOOLEAN, INTEGER, BIGINT, DOUBLE, VARCHAR, DATE, TIMESTAMP`);
      return { k: 'cast', arg: rec(e.arg), type: t };
    }
    case 'function': {
      const f = lookupFunction(e.name);
      if (!f) return fail(e.pos, `unknown function "${e.name}"`);
      if (f.kind === 'aggregate') {
        if (e.star) {
          if (f.fn !== 'count') return fail(e.pos, `${e.name}(*) is not valid; only count(*) takes *`);
          return { k: 'agg', fn: 'count_star', distinct: false };
        }
        if (e.args.length !== 1) return fail(e.pos, `${e.name}() takes exactly one argument, got ${e.args.length}`);
        // No argument types here to tell whether the order could matter (binder/agg-order.ts): never ignore it silently.
        if (e.orderBy !== undefined) return fail(e.orderBy[0]?.expr.pos ?? e.pos, `ORDER BY inside ${e.name}(...) is not supported in Table method text; use env.sql, or drop ORDER BY`);
        return { k: 'agg', fn: f.fn, arg: rec(e.args[0]!), distinct: e.distinct };
      }
      if (f.kind === 'datePart') {
        const p = e.args[0];
        const part = p?.kind === 'column' ? p.name : p?.kind === 'literal' ? p.value ?? '' : '';
        const id = ({ year: 'year', month: 'month', day: 'day' } as Record<string, string>)[part.toLowerCase()];
        if (!id || e.args.length !== 2) return fail(e.pos, `unsupported date part "${part}"; use year, month or day`);
        return callN(id, [rec(e.args[1]!)]);
      }
      return callN(f.id, e.args.map(rec));
    }
  }
}

const INT32_MAX = 2147483647n;

function literalNode(kind: Extract<Expr, { kind: 'literal' }>['literal'], v: string | null, negative: boolean): ExprNode | undefined {
  switch (kind) {
    case 'null': return { k: 'lit', value: null, type: 'NULL' };
    case 'boolean': return { k: 'lit', value: String(v).toLowerCase() === 'true', type: 'BOOLEAN' };
    case 'string': return { k: 'lit', value: v ?? '', type: 'VARCHAR' };
    case 'date': { const d = parseDateDays(v ?? ''); return d === null ? undefined : { k: 'lit', value: d, type: 'DATE' }; }
    case 'timestamp': { const t = parseTimestampMs(v ?? ''); return t === null ? undefined : { k: 'lit', value: t, type: 'TIMESTAMP' }; }
    case 'number': {
      const t = (v ?? '').replace(/_/g, '');
      if (/^\d+$/.test(t)) {
        const b = negative ? -BigInt(t) : BigInt(t);
        if (b >= -INT32_MAX - 1n && b <= INT32_MAX) return { k: 'lit', value: Number(b), type: 'INTEGER' };
        if (b >= -(2n ** 63n) && b < 2n ** 63n) return { k: 'lit', value: b, type: 'BIGINT' };
      }
      return { k: 'lit', value: (negative ? -1 : 1) * Number(t), type: 'DOUBLE' };
    }
  }
}

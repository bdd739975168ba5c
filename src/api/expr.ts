/**
 * The expression DSL of the Table API: `col('x').plus(1).as('y')`,
 * `when(c, v).otherwise(w)`, `sum(col('v'))`. Expressions are unresolved
 * until a Table binds them against its schema (see bind.ts).
 *
 * One rule for strings: a plain string in an expression position names a
 * column, everywhere (function arguments, operator operands, IN lists, CASE
 * values); `lit('x')` is a string literal. Before, `upper('n')` read a column
 * while `concat('a', 'b')` and `eq('R')` made literals, so the same string
 * meant different things by position. The only strings that are not columns
 * are those that are not expressions: `like(pattern)`, type names and aliases.
 */
import type { AggFn } from '../relnode/functions.js';
import type { LiteralValue } from '../relnode/rex.js';
import type { SqlType } from '../relnode/types.js';
import type { WindowFn, WindowFrame } from '../relnode/window.js';
import { inferLiteralType } from '../sql/binder/call.js';

/**
 * A value accepted where an expression is expected: an Expr, a column name
 * (a plain string, `'x'` or `'t.x'`: never a literal, use `lit('x')`), or a
 * JS literal (number, bigint, boolean, null, Date).
 */
export type ExprLike = Expr | ColumnName | number | bigint | boolean | null | Date;
/** A column name, `'x'` or qualified `'t.x'` (in an expression position a string always names a column). */
export type ColumnName = string;
/** A JS value that `lit` turns into a literal (a string here is a VARCHAR value). */
export type LiteralLike = string | number | bigint | boolean | null | Date;
/** A value accepted where a column is expected: an Expr, or a column name. */
export type ColumnLike = Expr | string;

/** The unresolved expression tree. */
export type ExprNode =
  | { readonly k: 'col'; readonly name: string; readonly qualifier?: string }
  | { readonly k: 'lit'; readonly value: LiteralValue; readonly type?: SqlType }
  | { readonly k: 'call'; readonly fn: string; readonly args: readonly ExprNode[] }
  | { readonly k: 'cast'; readonly arg: ExprNode; readonly type: SqlType }
  | { readonly k: 'case'; readonly whens: readonly { readonly when: ExprNode; readonly then: ExprNode }[]; readonly otherwise?: ExprNode }
  /** `more`: arguments after the first (corr's x, quantile's fraction, string_agg's separator); `order`: string_agg's ORDER BY (sort nodes). */
  | { readonly k: 'agg'; readonly fn: AggFn; readonly arg?: ExprNode; readonly distinct: boolean; readonly more?: readonly ExprNode[]; readonly order?: readonly ExprNode[] }
  | { readonly k: 'alias'; readonly arg: ExprNode; readonly name: string }
  | { readonly k: 'sort'; readonly arg: ExprNode; readonly desc: boolean; readonly nullsFirst?: boolean }
  /** A window function call: `rowNumber().over(...)`, `sum('v').over(...)` (see window.ts). */
  | { readonly k: 'window'; readonly fn: WindowFn; readonly args: readonly ExprNode[]; readonly param?: number; readonly spec: WindowSpecNode };

/** A window specification: PARTITION BY, ORDER BY (sort nodes or plain expressions) and an optional frame. */
export interface WindowSpecNode {
  readonly partitionBy: readonly ExprNode[];
  readonly orderBy: readonly ExprNode[];
  readonly frame?: WindowFrame;
}

/** Anything `over` accepts: a window builder (`window().partitionBy(...)`) or its spec. */
export interface WindowLike {
  readonly spec: WindowSpecNode;
}

/** Converts a JS value to a literal node (Date → TIMESTAMP ms, bigint → BIGINT, string → VARCHAR). */
export function literalNode(v: LiteralLike): ExprNode {
  if (v instanceof Date) return { k: 'lit', value: v.getTime(), type: 'TIMESTAMP' };
  if (typeof v === 'number') return { k: 'lit', value: v, type: inferLiteralType(v) };
  if (typeof v === 'bigint') return { k: 'lit', value: v, type: 'BIGINT' };
  if (typeof v === 'string') return { k: 'lit', value: v, type: 'VARCHAR' };
  if (typeof v === 'boolean') return { k: 'lit', value: v, type: 'BOOLEAN' };
  return { k: 'lit', value: null, type: 'NULL' };
}

/** An operand: an Expr stays as is, a string names a column, any other value is a literal. */
export function toNode(v: ExprLike): ExprNode {
  if (v instanceof Expr) return v.node;
  return typeof v === 'string' ? columnNode(v) : literalNode(v);
}

/** A column reference or an Expr (a plain string names a column, `t.x` a qualified one). */
export function columnNode(v: ColumnLike): ExprNode {
  if (v instanceof Expr) return v.node;
  const dot = v.indexOf('.');
  if (dot > 0 && dot < v.length - 1 && !v.includes(' ')) return { k: 'col', qualifier: v.slice(0, dot), name: v.slice(dot + 1) };
  return { k: 'col', name: v };
}

/**
 * An expression of the Table API. Methods build larger expressions; nothing
 * is checked until the expression is used in a Table operation, which then
 * names unknown columns and type errors.
 */
export class Expr {
  constructor(readonly node: ExprNode) {}

  private bin(fn: string, o: ExprLike): Expr { return new Expr({ k: 'call', fn, args: [this.node, toNode(o)] }); }

  /** `this + o` */ plus(o: ExprLike): Expr { return this.bin('plus', o); }
  /** `this - o` */ minus(o: ExprLike): Expr { return this.bin('minus', o); }
  /** `this * o` */ times(o: ExprLike): Expr { return this.bin('times', o); }
  /** `this / o` (float division; x / 0 is NULL) */ div(o: ExprLike): Expr { return this.bin('divide', o); }
  /** `this % o` */ mod(o: ExprLike): Expr { return this.bin('mod', o); }
  /** `-this` */ neg(): Expr { return new Expr({ k: 'call', fn: 'neg', args: [this.node] }); }
  /** `this = o` */ eq(o: ExprLike): Expr { return this.bin('eq', o); }
  /** `this <> o` */ ne(o: ExprLike): Expr { return this.bin('ne', o); }
  /** `this < o` */ lt(o: ExprLike): Expr { return this.bin('lt', o); }
  /** `this <= o` */ le(o: ExprLike): Expr { return this.bin('le', o); }
  /** `this > o` */ gt(o: ExprLike): Expr { return this.bin('gt', o); }
  /** `this >= o` */ ge(o: ExprLike): Expr { return this.bin('ge', o); }
  /** `this AND o` (three-valued) */ and(...o: ExprLike[]): Expr { return new Expr({ k: 'call', fn: 'and', args: [this.node, ...o.map(toNode)] }); }
  /** `this OR o` (three-valued) */ or(...o: ExprLike[]): Expr { return new Expr({ k: 'call', fn: 'or', args: [this.node, ...o.map(toNode)] }); }
  /** `NOT this` */ not(): Expr { return new Expr({ k: 'call', fn: 'not', args: [this.node] }); }
  /** `this IS NULL` */ isNull(): Expr { return new Expr({ k: 'call', fn: 'is_null', args: [this.node] }); }
  /** `this IS NOT NULL` */ isNotNull(): Expr { return new Expr({ k: 'call', fn: 'is_not_null', args: [this.node] }); }
  /** `this IN (values...)`; strings in the list name columns: `in([lit('MAIL'), lit('SHIP')])`. */
  in(values: readonly ExprLike[]): Expr { return new Expr({ k: 'call', fn: 'in', args: [this.node, ...values.map(toNode)] }); }
  /** `this BETWEEN lo AND hi` (inclusive) */
  between(lo: ExprLike, hi: ExprLike): Expr { return this.ge(lo).and(this.le(hi)); }
  /** `this LIKE pattern` (`%` any run, `_` one character); the pattern string is a pattern, not a column. */
  like(pattern: string | Expr): Expr { return new Expr({ k: 'call', fn: 'like', args: [this.node, typeof pattern === 'string' ? literalNode(pattern) : pattern.node] }); }
  /** Case-insensitive LIKE (SQL `ILIKE`): lower-cases both sides per character, as DuckDB. */
  ilike(pattern: string | Expr): Expr { return new Expr({ k: 'call', fn: 'ilike', args: [this.node, typeof pattern === 'string' ? literalNode(pattern) : pattern.node] }); }
  /** `this || o` (NULL if either is NULL); a string `o` names a column, `lit('!')` is a literal. */ concat(o: ExprLike): Expr { return this.bin('concat_op', o); }
  /** `CAST(this AS type)`; type is a SQL type name such as 'DOUBLE', 'INTEGER', 'VARCHAR', 'DATE'. */
  cast(type: SqlType | string): Expr { return new Expr({ k: 'cast', arg: this.node, type: type as SqlType }); }
  /** Names the expression's output column. */
  as(name: string): Expr { return new Expr({ k: 'alias', arg: this.node, name }); }
  /**
   * This aggregate as a window function over `w` (`sum('v').over(window().partitionBy('g').orderBy('t'))`):
   * a value per row, over the row's frame.
   */
  over(w: WindowLike): Expr {
    const n = this.node;
    if (n.k !== 'agg') throw new TypeError('over() applies to an aggregate (sum, count, min, ...) or a window function (rowNumber(), lag(), ...)');
    if (n.distinct) throw new TypeError(`DISTINCT is not supported in window function ${n.fn}()`);
    if ((n.more?.length ?? 0) > 0 || (n.order?.length ?? 0) > 0) throw new TypeError(`${n.fn}() with more than one argument or an ORDER BY is not supported as a window function in the Table API; use SQL`);
    return new Expr({ k: 'window', fn: n.fn, args: n.arg ? [n.arg] : [], spec: w.spec });
  }
  /**
   * This aggregate over only the rows where `condition` is true (SQL `agg(...) FILTER (WHERE condition)`;
   * NULL and false drop the row): `countStar().filter(col('l_returnflag').eq(lit('R')))`,
   * `sum('v').filter('is_valid')`. Every aggregate takes it but `first` and `last`, which keep NULLs.
   * Also before `over(...)`.
   */
  filter(condition: ExprLike): Expr {
    const n = this.node;
    if (n.k !== 'agg') throw new TypeError('filter(condition) applies to an aggregate (sum, countStar, min, ...); to filter rows use Table.filter');
    if (n.fn === 'first' || n.fn === 'last') throw new TypeError(`filter(condition) is not supported for ${n.fn}(), which keeps NULL values; filter the table first`);
    const cond = toNode(condition);
    const when = (x: ExprNode): ExprNode => ({ k: 'case', whens: [{ when: cond, then: x }] });
    if (n.fn === 'count_star') return new Expr({ k: 'agg', fn: 'count', arg: when(literalNode(1)), distinct: false });
    // A quantile's fraction and string_agg's separator stay constants; a second value argument (corr's x, arg_max's by) is filtered too.
    const valueMore = n.fn !== 'quantile_cont' && n.fn !== 'quantile_disc' && n.fn !== 'string_agg';
    return new Expr({ ...n, ...(n.arg ? { arg: when(n.arg) } : {}), ...(n.more && valueMore ? { more: n.more.map(when) } : {}) });
  }
  /** Ascending sort key (NULLS LAST unless changed). */ asc(): Expr { return new Expr({ k: 'sort', arg: this.node, desc: false }); }
  /** Descending sort key (NULLS LAST unless changed). */ desc(): Expr { return new Expr({ k: 'sort', arg: stripSort(this.node), desc: true }); }
  /** On a sort key: NULLs first. */ nullsFirst(): Expr { return this.withNulls(true); }
  /** On a sort key: NULLs last. */ nullsLast(): Expr { return this.withNulls(false); }
  private withNulls(first: boolean): Expr {
    const n = this.node;
    return new Expr(n.k === 'sort' ? { ...n, nullsFirst: first } : { k: 'sort', arg: n, desc: false, nullsFirst: first });
  }
}

function stripSort(n: ExprNode): ExprNode { return n.k === 'sort' ? n.arg : n; }

/** A column by name (`'x'` or qualified `'t.x'`). */
export function col(name: string): Expr { return new Expr(columnNode(name)); }
/** A literal value (`lit('x')` is the string 'x'); pass `type` to force a SQL type (e.g. `lit(null, 'INTEGER')`). */
export function lit(value: LiteralLike, type?: SqlType): Expr {
  const n = literalNode(value);
  return new Expr(type && n.k === 'lit' ? { ...n, type } : n);
}
/** A DATE literal from 'YYYY-MM-DD'. */
export function date(iso: string): Expr {
  const ms = Date.parse(`${iso}T00:00:00Z`);
  if (Number.isNaN(ms) || !/^\d{4}-\d{2}-\d{2}$/.test(iso)) throw new TypeError(`date('${iso}'): expected YYYY-MM-DD`);
  return new Expr({ k: 'lit', value: Math.round(ms / 86_400_000), type: 'DATE' });
}

const fn = (name: string) => (...args: ExprLike[]): Expr => new Expr({ k: 'call', fn: name, args: args.map(toNode) });

/** Upper-cases a string. */ export const upper: (s: ColumnLike) => Expr = fn('upper');
/** Lower-cases a string. */ export const lower: (s: ColumnLike) => Expr = fn('lower');
/** Strips leading and trailing spaces. */ export const trim: (s: ColumnLike) => Expr = fn('trim');
/** Length in characters. */ export const length: (s: ColumnLike) => Expr = fn('length');
/** Substring from a 1-based start, optionally of a given length (start and length: numbers, columns or expressions). */
export function substring(s: ColumnLike, start: ExprLike, len?: ExprLike): Expr {
  const args: ExprNode[] = [columnNode(s), toNode(start)];
  if (len !== undefined) args.push(toNode(len));
  return new Expr({ k: 'call', fn: 'substring', args });
}
/** Concatenates strings; NULL arguments count as empty strings. String arguments name columns: `concat('first', lit(' '), 'last')`. */
export function concat(...parts: ExprLike[]): Expr { return new Expr({ k: 'call', fn: 'concat', args: parts.map(toNode) }); }
/** Absolute value. */ export const abs: (x: ColumnLike) => Expr = fn('abs');
/** Rounds half away from zero, to `digits` decimals (default 0). */
export function round(x: ColumnLike, digits?: number): Expr {
  return new Expr({ k: 'call', fn: 'round', args: digits === undefined ? [columnNode(x)] : [columnNode(x), toNode(digits)] });
}
/** Largest integer ≤ x. */ export const floor: (x: ColumnLike) => Expr = fn('floor');
/** Smallest integer ≥ x. */ export const ceil: (x: ColumnLike) => Expr = fn('ceil');
/** Square root. */ export const sqrt: (x: ColumnLike) => Expr = fn('sqrt');
/** Natural logarithm. */ export const ln: (x: ColumnLike) => Expr = fn('ln');
/** e to the power x. */ export const exp: (x: ColumnLike) => Expr = fn('exp');
/** x to the power y (a string y names a column). */
export function power(x: ColumnLike, y: ExprLike): Expr { return new Expr({ k: 'call', fn: 'power', args: [columnNode(x), toNode(y)] }); }
/** Year of a DATE or TIMESTAMP. */ export const year: (d: ColumnLike) => Expr = fn('year');
/** Month (1–12) of a DATE or TIMESTAMP. */ export const month: (d: ColumnLike) => Expr = fn('month');
/** Day of month of a DATE or TIMESTAMP. */ export const day: (d: ColumnLike) => Expr = fn('day');
/** A DATE plus a number of days (a string names a column). */
export function dateAdd(d: ColumnLike, days: ExprLike): Expr { return new Expr({ k: 'call', fn: 'date_add', args: [columnNode(d), toNode(days)] }); }
/** The first non-NULL argument; strings name columns (`coalesce('n', lit(5))`). */
export function coalesce(...args: ExprLike[]): Expr { return new Expr({ k: 'call', fn: 'coalesce', args: args.map(toNode) }); }
/** NULL if a = b, else a (a string b names a column). */
export function nullif(a: ColumnLike, b: ExprLike): Expr { return new Expr({ k: 'call', fn: 'nullif', args: [columnNode(a), toNode(b)] }); }
/** A uniform random DOUBLE in [0, 1) per row (non-deterministic: never cached). */
export function random(): Expr { return new Expr({ k: 'call', fn: 'random', args: [] }); }
/** The current TIMESTAMP (non-deterministic: never cached). */
export function now(): Expr { return new Expr({ k: 'call', fn: 'now', args: [] }); }

/** A CASE expression under construction: `when(c, v).when(c2, v2).otherwise(w)`. */
export class CaseBuilder extends Expr {
  constructor(private readonly whens: readonly { when: ExprNode; then: ExprNode }[]) {
    super({ k: 'case', whens });
  }
  /** Adds a branch; a string condition or value names a column (`lit('x')` for a string value). */
  when(cond: ColumnLike, value: ExprLike): CaseBuilder { return new CaseBuilder([...this.whens, { when: columnNode(cond), then: toNode(value) }]); }
  /** The value when no branch matches (NULL if never called); a string names a column. */
  otherwise(value: ExprLike): Expr { return new Expr({ k: 'case', whens: this.whens, otherwise: toNode(value) }); }
}
/** Starts a CASE expression: `when(col('x').gt(1), lit('big')).otherwise('x')`; strings name columns. */
export function when(cond: ColumnLike, value: ExprLike): CaseBuilder { return new CaseBuilder([{ when: columnNode(cond), then: toNode(value) }]); }

const agg = (f: AggFn, distinct = false) => (x: ColumnLike): Expr => new Expr({ k: 'agg', fn: f, arg: columnNode(x), distinct });
/** Number of non-NULL values. */ export const count: (x: ColumnLike) => Expr = agg('count');
/** Number of distinct non-NULL values. */ export const countDistinct: (x: ColumnLike) => Expr = agg('count', true);
/** Number of rows. */ export function countStar(): Expr { return new Expr({ k: 'agg', fn: 'count_star', distinct: false }); }
/** Sum (INTEGER/BIGINT → BIGINT, DOUBLE → DOUBLE); NULL over no rows. */ export const sum: (x: ColumnLike) => Expr = agg('sum');
/** Average as DOUBLE. */ export const avg: (x: ColumnLike) => Expr = agg('avg');
/** Minimum. */ export const min: (x: ColumnLike) => Expr = agg('min');
/** Maximum. */ export const max: (x: ColumnLike) => Expr = agg('max');
/** Sample standard deviation. */ export const stddev: (x: ColumnLike) => Expr = agg('stddev');
/** Sum of distinct values. */ export const sumDistinct: (x: ColumnLike) => Expr = agg('sum', true);
/** Average of distinct values. */ export const avgDistinct: (x: ColumnLike) => Expr = agg('avg', true);

/** A descending sort key for orderBy. */ export function desc(x: ColumnLike): Expr { return new Expr({ k: 'sort', arg: columnNode(x), desc: true }); }
/** An ascending sort key for orderBy. */ export function asc(x: ColumnLike): Expr { return new Expr({ k: 'sort', arg: columnNode(x), desc: false }); }

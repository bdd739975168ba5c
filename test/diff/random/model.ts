/**
 * The random query model: a small tree of plain objects that renders to SQL
 * text. Expressions are templates (strings and typed child slots), so the
 * generator can build any construct and the minimizer can replace a node by
 * a child of the same type without knowing what the node is. Parentheses
 * are decided at render time from binding strengths, so every rewrite
 * renders valid SQL.
 */

/** The coarse SQL types the generator reasons about (BIGINT counts as 'int'). */
export type T = 'int' | 'double' | 'varchar' | 'date' | 'bool';

/** Binding strengths: how tightly an expression's top operator binds. */
export const PREC = { or: 1, and: 2, not: 3, cmp: 4, concat: 4.5, add: 5, mul: 6, neg: 7, postfix: 8, atom: 9 } as const;

/** An expression: a template of SQL text, typed child slots and subqueries. */
export interface Expr {
  readonly k: 'expr';
  readonly type: T;
  /** Binding strength of the top operator (PREC). */
  readonly prec: number;
  readonly parts: readonly Part[];
  /** Render with redundant parentheses. */
  readonly paren?: boolean;
  /** A bare column reference: its output name when selected. */
  readonly column?: string;
  /** A literal (the minimizer does not replace literals by literals). */
  readonly literal?: boolean;
  /** Contains an aggregate call at its top (informational). */
  readonly aggregate?: boolean;
  /** A sample key (`table.column`) whose values make good literals to compare this expression with. */
  readonly domain?: string;
  /** A float whose last bits depend on summation order (sum/avg/stddev of DOUBLE, or a column holding one). */
  readonly inexact?: boolean;
  /** A column that an outer join (or a derived table) may fill with NULLs. */
  readonly outerNull?: boolean;
}

/** A child expression; parenthesised when its strength is below `min`. */
export interface Slot {
  readonly k: 'slot';
  readonly e: Expr;
  readonly min: number;
}

/** A subquery inside an expression, rendered in parentheses. */
export interface Sub {
  readonly k: 'sub';
  readonly q: Query;
}

/** A piece of an expression template. */
export type Part = string | Slot | Sub;

/** A select-list item: an expression (with optional alias) or a star. */
export type Item =
  | { readonly k: 'item'; readonly e: Expr; readonly alias?: string }
  | { readonly k: 'star'; readonly qualifier?: string };

/** An ORDER BY key naming an output column by index (rendered by name or ordinal). */
export interface OrderKey {
  readonly col: number;
  readonly desc: boolean;
  readonly nulls?: 'FIRST' | 'LAST';
  readonly ordinal: boolean;
}

/** A FROM source: a table (with optional alias) or a derived table. */
export type Source =
  | { readonly k: 'table'; readonly name: string; readonly alias?: string }
  | { readonly k: 'derived'; readonly q: Query; readonly alias: string };

/** How a join is written. */
export type JoinWord = 'JOIN' | 'INNER JOIN' | 'LEFT JOIN' | 'LEFT OUTER JOIN' | 'RIGHT JOIN' | 'RIGHT OUTER JOIN' | 'FULL JOIN' | 'FULL OUTER JOIN' | 'CROSS JOIN' | ',';

/** One join step of a FROM clause. */
export interface Join {
  readonly k: 'join';
  readonly word: JoinWord;
  readonly src: Source;
  readonly on?: Expr;
  /** `USING (columns)` instead of ON. */
  readonly using?: readonly string[];
}

/** A FROM clause: a base source and joins applied left to right. */
export interface From {
  readonly k: 'from';
  readonly base: Source;
  readonly joins: readonly Join[];
}

/** Modifiers of any query. */
interface Tail {
  readonly order?: readonly OrderKey[];
  readonly limit?: number;
  readonly offset?: number;
  /** Render in parentheses when it is a set-operation operand. */
  readonly paren?: boolean;
}

/** A SELECT query. `groupBy` undefined means not grouped; grouped with no keys is a global aggregation. */
export interface Select extends Tail {
  readonly k: 'select';
  readonly distinct: boolean;
  readonly items: readonly Item[];
  readonly from?: From;
  readonly where?: Expr;
  readonly groupBy?: readonly Expr[];
  readonly having?: Expr;
  /** Render the derived tables of this FROM as a WITH clause (CTEs named by their aliases). */
  readonly hoist?: boolean;
  /** Per group key: write it as the ordinal or the alias of the select item that is the same node. */
  readonly groupRefs?: readonly ('ordinal' | 'alias' | undefined)[];
}

/** A set operation. */
export interface SetOp extends Tail {
  readonly k: 'setop';
  readonly op: 'UNION' | 'INTERSECT' | 'EXCEPT';
  readonly all: boolean;
  readonly left: Query;
  readonly right: Query;
}

/** A query. */
export type Query = Select | SetOp;

/** A child slot. */
export function slot(e: Expr, min: number): Slot {
  return { k: 'slot', e, min };
}

/** An expression node. */
export function expr(type: T, prec: number, parts: readonly Part[], extra: Partial<Pick<Expr, 'paren' | 'column' | 'literal' | 'aggregate' | 'domain' | 'inexact' | 'outerNull'>> = {}): Expr {
  return { k: 'expr', type, prec, parts, ...extra };
}

/** True if any part of `e` is order-dependent float arithmetic (see Expr.inexact). */
export function isInexact(e: Expr): boolean {
  return e.inexact === true || e.parts.some((p) => typeof p !== 'string' && p.k === 'slot' && isInexact(p.e));
}

/** True if `e` reads a column an outer join (or a derived table) may fill with NULLs. */
export function readsOuterNull(e: Expr): boolean {
  return e.outerNull === true || e.parts.some((p) => typeof p !== 'string' && p.k === 'slot' && readsOuterNull(p.e));
}

/** True if `e` contains an aggregate call (not looking into subqueries). */
export function hasAggregate(e: Expr): boolean {
  return e.aggregate === true || e.parts.some((p) => typeof p !== 'string' && p.k === 'slot' && hasAggregate(p.e));
}

/** The output column names of a query (alias, or a bare column's name; '?' for stars). */
export function outputNames(q: Query): string[] {
  if (q.k === 'setop') return outputNames(q.left);
  return q.items.map((it, i) => (it.k === 'star' ? '*' : it.alias ?? it.e.column ?? `?${i}`));
}

function join(out: string, piece: string): string {
  // Never let a unary minus meet another minus: "--" starts a comment.
  return out.endsWith('-') && piece.startsWith('-') ? `${out} ${piece}` : out + piece;
}

/** Renders an expression. */
export function renderExpr(e: Expr): string {
  let out = '';
  for (const p of e.parts) {
    if (typeof p === 'string') out = join(out, p);
    else if (p.k === 'sub') out = join(out, `(${renderQuery(p.q)})`);
    else {
      const s = renderExpr(p.e);
      out = join(out, p.e.prec < p.min || p.e.paren ? `(${s})` : s);
    }
  }
  return out;
}

function renderSource(s: Source, hoisted: boolean): string {
  if (s.k === 'table') return s.alias ? `${s.name} AS ${s.alias}` : s.name;
  return hoisted ? s.alias : `(${renderQuery(s.q)}) AS ${s.alias}`;
}

function renderFrom(f: From, hoisted: boolean): string {
  let out = renderSource(f.base, hoisted);
  for (const j of f.joins) {
    out += j.word === ',' ? `, ${renderSource(j.src, hoisted)}` : ` ${j.word} ${renderSource(j.src, hoisted)}`;
    if (j.on) out += ` ON ${renderExpr(j.on)}`;
    else if (j.using) out += ` USING (${j.using.join(', ')})`;
  }
  return out;
}

function renderTail(q: Query, body: string): string {
  let out = body;
  if (q.order && q.order.length > 0) {
    const names = outputNames(q);
    out += ` ORDER BY ${q.order.map((o) => `${o.ordinal ? String(o.col + 1) : names[o.col]}${o.desc ? ' DESC' : ''}${o.nulls ? ` NULLS ${o.nulls}` : ''}`).join(', ')}`;
  }
  if (q.limit !== undefined) out += ` LIMIT ${q.limit}`;
  if (q.offset !== undefined) out += ` OFFSET ${q.offset}`;
  return out;
}

function renderSelect(q: Select): string {
  const items = q.items.map((it) => {
    if (it.k === 'star') return it.qualifier ? `${it.qualifier}.*` : '*';
    const s = renderExpr(it.e);
    return it.alias ? `${s} AS ${it.alias}` : s;
  });
  const derived = q.from ? [q.from.base, ...q.from.joins.map((j) => j.src)].filter((s) => s.k === 'derived') : [];
  const hoisted = q.hoist === true && derived.length > 0;
  let out = hoisted ? `WITH ${derived.map((d) => `${(d as { alias: string }).alias} AS (${renderQuery((d as { q: Query }).q)})`).join(', ')} ` : '';
  out += `SELECT ${q.distinct ? 'DISTINCT ' : ''}${items.join(', ')}`;
  if (q.from) out += ` FROM ${renderFrom(q.from, hoisted)}`;
  if (q.where) out += ` WHERE ${renderExpr(q.where)}`;
  if (q.groupBy && q.groupBy.length > 0) {
    const keys = q.groupBy.map((g, i) => {
      const ref = q.groupRefs?.[i];
      const at = ref ? q.items.findIndex((it) => it.k === 'item' && it.e === g) : -1;
      const item = q.items[at];
      if (ref === 'ordinal' && at >= 0) return String(at + 1);
      if (ref === 'alias' && item?.k === 'item' && item.alias) return item.alias;
      return renderExpr(g);
    });
    out += ` GROUP BY ${keys.join(', ')}`;
  }
  if (q.having) out += ` HAVING ${renderExpr(q.having)}`;
  return renderTail(q, out);
}

const SETOP_PREC = { UNION: 1, EXCEPT: 1, INTERSECT: 2 } as const;

function hasTail(q: Query): boolean {
  return (q.order !== undefined && q.order.length > 0) || q.limit !== undefined || q.offset !== undefined;
}

function renderOperand(q: Query, parentOp: SetOp['op'], right: boolean): string {
  const s = renderQuery(q);
  const needs = q.paren || hasTail(q) || (q.k === 'setop' && (right || SETOP_PREC[q.op] < SETOP_PREC[parentOp]));
  return needs ? `(${s})` : s;
}

/** Renders a query to SQL text. */
export function renderQuery(q: Query): string {
  if (q.k === 'select') return renderSelect(q);
  const body = `${renderOperand(q.left, q.op, false)} ${q.op}${q.all ? ' ALL' : ''} ${renderOperand(q.right, q.op, true)}`;
  return renderTail(q, body);
}

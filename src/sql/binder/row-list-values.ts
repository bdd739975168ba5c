/**
 * A long IN list of constant rows, `(a, b) IN ((1, 'x'), (2, 'y'), ...)`, binds as `(a, b) IN (VALUES ...)`:
 * the row-subquery form (row-subquery.ts), a hash semi / anti join, instead of one OR term per item (100k
 * rows against 5,000 items took 15 s of CPU as ORs). Short lists stay ORs (no join to plan and run). The
 * answer is the same: both are the standard's row IN. Taken only when each column's literals are of the
 * kind its left item already has (numbers for a number, strings for a VARCHAR, ...), so the VALUES column's
 * type never changes what compares equal (a string against a DATE stays a per-item DATE comparison).
 */
import type { RexNode } from '../../relnode/rex.js';
import type { SqlType } from '../../relnode/types.js';
import type { Expr, LiteralKind } from '../ast.js';
import { subqueriesIn } from './ast-walk.js';

type InList = Extract<Expr, { kind: 'inList' }>;
type InSubquery = Extract<Expr, { kind: 'inSubquery' }>;

/** From this many items on, a constant row list is a VALUES subquery. */
export const ROW_LIST_AS_VALUES = 32;

/** The literal kind of a constant item (a literal or a negated number), or undefined. */
function constantKind(e: Expr): LiteralKind | undefined {
  if (e.kind === 'literal') return e.literal === 'parameter' ? undefined : e.literal;
  if (e.kind === 'unary' && e.op === '-' && e.arg.kind === 'literal' && e.arg.literal === 'number') return 'number';
  return undefined;
}

/** The literal kinds that compare with a value of type `t` as they would in a column of their own. */
const FITS: Readonly<Record<SqlType, readonly LiteralKind[]>> = {
  INTEGER: ['number'], BIGINT: ['number'], DOUBLE: ['number'], VARCHAR: ['string'], BOOLEAN: ['boolean'],
  DATE: ['date'], TIMESTAMP: ['timestamp'], NULL: [],
};

const memo = new WeakMap<InList, InSubquery | null>();

/**
 * The VALUES form of `e` when its shape allows one (a row on the left without subqueries, at least
 * ROW_LIST_AS_VALUES items, each a row of constants of the same arity): one object per list, so a
 * clause can recognise the node it will be asked to bind (where.ts).
 */
export function rowListAsValues(e: InList): InSubquery | undefined {
  const known = memo.get(e);
  if (known !== undefined) return known ?? undefined;
  const arg = e.arg;
  let form: InSubquery | null = null;
  if (arg.kind === 'row' && e.list.length >= ROW_LIST_AS_VALUES && subqueriesIn(arg).length === 0
    && e.list.every((x) => x.kind === 'row' && x.items.length === arg.items.length && x.items.every((i) => constantKind(i) !== undefined))) {
    const rows = e.list.map((x) => (x as Extract<Expr, { kind: 'row' }>).items);
    form = { kind: 'inSubquery', arg, query: { kind: 'values', rows, pos: e.pos }, negated: e.negated, pos: e.pos };
  }
  memo.set(e, form);
  return form ?? undefined;
}

/** Whether every column of the VALUES form holds literals that fit its bound left item (`args`) and not only NULLs. */
export function valuesFit(form: InSubquery, args: readonly RexNode[]): boolean {
  if (form.query.kind !== 'values') return false;
  const rows = form.query.rows;
  return args.every((a, i) => {
    const fits = FITS[a.type];
    let some = false;
    for (const r of rows) {
      const k = constantKind(r[i]!);
      if (k === 'null') continue;
      if (k === undefined || !fits.includes(k)) return false;
      some = true;
    }
    return some;
  });
}

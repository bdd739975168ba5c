/**
 * The end of a query: ORDER BY (select-list ordinals, aliases and output
 * names first, as DuckDB, then any expression — a hidden sort column projected away after
 * the Sort), DISTINCT, LIMIT/OFFSET (constant integers).
 */
import { canonicalRex } from '../../relnode/digest.js';
import * as rel from '../../relnode/rel.js';
import { inputRef, type RexNode } from '../../relnode/rex.js';
import type { Expr, OrderItem, Pos } from '../ast.js';
import { sqlError, type BindContext } from './context.js';
import { bindExpr } from './expr.js';
import { countValue } from './literals.js';
import { defaultNullsFirst } from './null-order.js';

/** A resolved ORDER BY item: an output column, or an extra expression. */
export type OrderKey =
  | { readonly ref: number; readonly desc: boolean; readonly nullsFirst: boolean; readonly pos: Pos }
  | { readonly expr: RexNode; readonly desc: boolean; readonly nullsFirst: boolean; readonly pos: Pos };

/** Output names and the bound expressions of a select list (in the clause's binding space). */
export interface Outputs {
  readonly names: readonly string[];
  /** The explicit `AS` aliases (undefined where none): a name matches an alias before a plain output name. */
  readonly aliases?: readonly (string | undefined)[];
  readonly exprs: readonly RexNode[];
}

/** Resolves ORDER BY items against the outputs: ordinal, output name, then expression (`bind`). */
export function resolveOrder(ctx: BindContext, items: readonly OrderItem[] | undefined, out: Outputs, bind: (e: Expr) => RexNode): OrderKey[] {
  if (!items) return [];
  const canon = out.exprs.map(canonicalRex);
  return items.map((it) => {
    const base = { desc: it.desc, nullsFirst: it.nullsFirst ?? defaultNullsFirst(ctx, it.desc), pos: it.expr.pos };
    const e = it.expr;
    if (e.kind === 'literal' && e.literal === 'number' && /^\d+$/.test(e.value ?? '')) {
      const k = Number(e.value);
      if (k < 1 || k > out.names.length) throw sqlError(ctx.sql, e.pos, `ORDER BY position ${k} is not in the select list (1 to ${out.names.length})`);
      return { ...base, ref: k - 1 };
    }
    if (e.kind === 'column' && e.qualifier === undefined) {
      // `SELECT i, i % 2 AS i ... ORDER BY i` sorts by the alias (DuckDB, SQLite).
      const same = (n: string | undefined): boolean => n?.toLowerCase() === e.name.toLowerCase();
      const a = out.aliases?.findIndex(same) ?? -1;
      const k = a >= 0 ? a : out.names.findIndex(same);
      if (k >= 0) return { ...base, ref: k };
    }
    const b = bind(e);
    const k = canon.indexOf(canonicalRex(b));
    return k >= 0 ? { ...base, ref: k } : { ...base, expr: b };
  });
}

/** LIMIT / OFFSET values (undefined when absent; LIMIT NULL means none). */
export function limitValues(ctx: BindContext, limit: Expr | undefined, offset: Expr | undefined): { fetch?: number; offset: number } {
  const scope = { ctx: { sql: ctx.sql, bindQuery: ctx.bindQuery }, cols: [], clause: 'LIMIT' };
  const off = offset ? countValue(ctx.sql, bindExpr({ ...scope, clause: 'OFFSET' }, offset), offset.pos, 'OFFSET') : 0;
  if (!limit) return { offset: off };
  const b = bindExpr(scope, limit);
  if (b.kind === 'Literal' && b.value === null) return { offset: off };
  return { fetch: countValue(ctx.sql, b, limit.pos, 'LIMIT'), offset: off };
}

/** What `finish` builds from. */
export interface Finish {
  readonly base: rel.RelNode;
  readonly exprs: readonly RexNode[];
  readonly names: readonly string[];
  readonly order: readonly OrderKey[];
  readonly distinct: boolean;
  readonly limit?: Expr;
  readonly offset?: Expr;
}

/** Project (outputs, hidden sort keys) → Distinct → Sort → Project (drop sort keys) → Limit. */
export function finish(ctx: BindContext, f: Finish): rel.RelNode {
  const hidden = f.order.filter((o): o is Extract<OrderKey, { expr: RexNode }> => 'expr' in o);
  const n = f.exprs.length;
  const exprs = [...f.exprs, ...hidden.map((h) => h.expr)];
  const names = [...f.names, ...hidden.map((_, i) => `__order${i}`)];
  let plan: rel.RelNode = rel.project(f.base, exprs, names);
  if (f.distinct && hidden.length > 0) {
    // SELECT DISTINCT ... ORDER BY a column not selected (DuckDB allows it): the distinct rows are groups, and
    // each sorts by one value of the key among its rows — DuckDB takes an arbitrary one (first); eddy the
    // smallest for ASC, the largest for DESC (the same answer whenever the key is determined by the row).
    const calls = hidden.map((h, i): rel.AggCall => ({ fn: h.desc ? 'max' : 'min', args: [n + i], distinct: false, type: h.expr.type, name: names[n + i]! }));
    plan = rel.aggregate(plan, [...Array(n).keys()], calls);
  } else if (f.distinct) plan = rel.distinct(plan);
  if (f.order.length > 0) {
    let h = 0;
    plan = rel.sort(plan, f.order.map((o) => ({ index: 'ref' in o ? o.ref : n + h++, desc: o.desc, nullsFirst: o.nullsFirst })));
    if (hidden.length > 0) {
      const keep = [...Array(n).keys()];
      const fields = plan.schema.fields;
      plan = rel.project(plan, keep.map((i) => inputRef(i, fields[i]!.type, fields[i]!.name)), keep.map((i) => fields[i]!.name));
    }
  }
  if (f.limit || f.offset) {
    const lim = limitValues(ctx, f.limit, f.offset);
    if (lim.fetch !== undefined || lim.offset > 0) plan = rel.limit(plan, lim.fetch ?? Number.MAX_SAFE_INTEGER, lim.offset);
  }
  return plan;
}

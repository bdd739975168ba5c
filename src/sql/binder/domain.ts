/**
 * General decorrelation, for the correlated subqueries the equality fast
 * path cannot take (outer columns outside WHERE, non-equality correlation
 * under an aggregate or in a value): the subquery is joined with D, the
 * distinct values of the outer columns it reads, so outer references become
 * ordinary columns of D; an aggregate groups by D's columns too (with a LEFT
 * join, so every value of D keeps its group and count(*) counts matches
 * only). The outer query then joins the result back on D's columns with
 * NULL-safe equality, built from hashable keys (coalesce(k, c), k IS NULL).
 * A correlated aggregate without GROUP BY takes this path too where its
 * one-row-even-over-no-rows result matters (see globalNeedsDomain).
 */
import * as rel from '../../relnode/rel.js';
import { andAll, call, inputRef, literal, rexInputs, rexShift, type LiteralValue, type RexNode } from '../../relnode/rex.js';
import type { SqlType } from '../../relnode/types.js';
import type { Expr, SelectQuery } from '../ast.js';
import { exprChildren, subqueriesIn } from './ast-walk.js';
import type { RelBuilder } from './builder.js';
import type { BindContext, OuterScope } from './context.js';
import { OUTER_BASE } from './expr.js';
import { lookupColumn, type BoundRel, type ScopeColumn } from './scope.js';
import { splitCorrelatedEquality } from './subquery.js';

/** A subquery relation joined with the outer domain D: D's columns first, then the subquery's, then (aggregated) a match marker. */
export interface Domain {
  readonly rel: BoundRel;
  /** Outer ordinals whose values D holds (D's columns, in order). */
  readonly outer: readonly number[];
  /** Input ordinal of the marker that is non-NULL on matched rows (aggregated subqueries: count(*) counts it). */
  readonly marker?: number;
}

/** Outer ordinals referenced by columns of the select list, GROUP BY, HAVING and ORDER BY (not WHERE, not nested subqueries). */
function outerRefsOutsideWhere(q: SelectQuery, from: readonly ScopeColumn[], outer: OuterScope): number[] {
  const out = new Set<number>();
  const walk = (e: Expr): void => {
    if (e.kind === 'column' && lookupColumn(from, e.name, e.qualifier).kind === 'notFound') {
      const o = lookupColumn(outer.cols, e.name, e.qualifier);
      if (o.kind === 'found') out.add(o.index);
    }
    exprChildren(e).forEach(walk);
  };
  q.items.forEach((i) => { if (i.kind === 'expr') walk(i.expr); });
  q.groupBy?.forEach(walk);
  if (q.having) walk(q.having);
  q.orderBy?.forEach((o) => walk(o.expr));
  return [...out];
}

/**
 * Decides whether a correlated SELECT needs the general decorrelation and,
 * if so, joins its filtered FROM relation `r` with the outer domain on the
 * correlated conjuncts. Undefined when the fast path applies.
 */
export function buildDomain(ctx: BindContext, q: SelectQuery, r: BoundRel, correlated: readonly RexNode[], aggregated: boolean): Domain | undefined {
  const outer = ctx.outer;
  if (!outer?.plan) return undefined;
  const other = outerRefsOutsideWhere(q, r.cols, outer);
  const allEq = correlated.every((c) => splitCorrelatedEquality(c) !== undefined);
  if (other.length === 0 && !globalNeedsDomain(q, correlated, aggregated, outer) && (allEq || (!aggregated && outer.use === 'existence'))) return undefined;
  const ordinals = new Set(other);
  for (const c of correlated) for (const i of rexInputs(c)) if (i >= OUTER_BASE) ordinals.add(i - OUTER_BASE);
  const o = [...ordinals].sort((a, b) => a - b);
  const oc = o.map((j) => outer.cols[j]!);
  const d = rel.distinct(rel.project(outer.plan, o.map((j, i) => inputRef(j, oc[i]!.type, oc[i]!.name)), oc.map((c) => c.name)));
  const w = r.cols.length;
  const inner = aggregated
    ? rel.project(r.plan, [...r.cols.map((c, i) => inputRef(i, c.type, c.name)), literal(true, 'BOOLEAN')], [...r.plan.schema.fields.map((f) => f.name), '__match'])
    : r.plan;
  const cond = andAll(correlated.map((c) => rexShift(c, (i) => (i >= OUTER_BASE ? o.indexOf(i - OUTER_BASE) : o.length + i))));
  const plan = rel.join(d, inner, aggregated ? 'left' : 'inner', cond);
  const cols: ScopeColumn[] = [
    ...oc.map((c) => ({ ...c, nullable: true, correlated: true as const })),
    ...r.cols.map((c) => (aggregated ? { ...c, nullable: true } : c)),
    ...(aggregated ? [{ name: '__match', type: 'BOOLEAN' as const, nullable: true, internal: true as const }] : []),
  ];
  return { rel: { plan, cols }, outer: o, ...(aggregated ? { marker: o.length + w } : {}) };
}

/**
 * A correlated aggregate without GROUP BY yields one row per outer row even
 * over no inner rows, which the fast path (grouping by the correlation keys)
 * loses: under [NOT] EXISTS / [NOT] IN (where the empty group must still be
 * a row), with a HAVING (a removed group must give NULL, not the value over
 * no rows) and with a nested subquery in the select list (its value over no
 * rows cannot be folded to a constant). Such subqueries take the domain.
 */
function globalNeedsDomain(q: SelectQuery, correlated: readonly RexNode[], aggregated: boolean, outer: OuterScope): boolean {
  if (!aggregated || correlated.length === 0 || (q.groupBy?.length ?? 0) > 0) return false;
  if (outer.use === 'existence' || q.having !== undefined) return true;
  return q.items.some((i) => i.kind === 'expr' && subqueriesIn(i.expr).length > 0) || (q.orderBy ?? []).some((o) => subqueriesIn(o.expr).length > 0);
}

/** `a IS NOT DISTINCT FROM b`: equal, or both NULL. */
export function nullSafeEq(a: RexNode, b: RexNode): RexNode {
  return call('or', [call('eq', [a, b], 'BOOLEAN'), call('and', [call('is_null', [a], 'BOOLEAN'), call('is_null', [b], 'BOOLEAN')], 'BOOLEAN')], 'BOOLEAN');
}

const SENTINEL: Readonly<Record<SqlType, LiteralValue>> = { BOOLEAN: false, INTEGER: 0, BIGINT: 0n, DOUBLE: 0, VARCHAR: '', DATE: 0, TIMESTAMP: 0, NULL: null };

/** Hashable stand-ins for NULL-safe equality on `e`: coalesce(e, constant) and e IS NULL. */
function nullSafeParts(e: RexNode): RexNode[] {
  const isNull = call('is_null', [e], 'BOOLEAN');
  if (e.type === 'NULL') return [isNull];
  return [call('coalesce', [e, literal(SENTINEL[e.type], e.type)], e.type), isNull];
}

/**
 * Left-joins `right` onto the outer relation `b` where the outer columns
 * `outer` equal right's columns `keys` NULL-safely; returns the ordinal of
 * right's first column in `b`.
 */
export function joinOnDomain(b: RelBuilder, outer: readonly number[], right: rel.RelNode, keys: readonly number[]): number {
  const lparts = outer.flatMap((j) => nullSafeParts(inputRef(j, b.cols[j]!.type, b.cols[j]!.name)));
  const l0 = b.addColumns(lparts);
  const rf = right.schema.fields;
  const rparts = keys.flatMap((k) => nullSafeParts(inputRef(k, rf[k]!.type, rf[k]!.name)));
  const widened = rel.project(right, [...rf.map((f, i) => inputRef(i, f.type, f.name)), ...rparts], [...rf.map((f) => f.name), ...rparts.map((_, i) => `__nk${i}`)]);
  const w = b.width;
  const cond = andAll(lparts.map((p, i) => call('eq', [inputRef(l0 + i, p.type), inputRef(w + rf.length + i, rparts[i]!.type)], 'BOOLEAN')));
  return b.join(widened, 'left', cond);
}

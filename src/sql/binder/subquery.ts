/**
 * Subqueries in expressions, decorrelated into joins with the existing join
 * types:
 * - WHERE [NOT] EXISTS / x [NOT] IN (subquery) conjuncts → semi / anti join
 *   on the correlated conjuncts (NOT IN keeps SQL's NULL semantics: a NULL on
 *   either side makes the row fail, via `x = y OR x IS NULL OR y IS NULL`
 *   unless both sides are known non-nullable);
 * - scalar subqueries → a cross join with a one-row relation (an Aggregate, or
 *   the subquery wrapped in a row-count check), or, when correlated, a left
 *   join with the subquery grouped by its correlation keys (a correlated
 *   count() over no rows is 0, not NULL);
 * - EXISTS / IN as values (in SELECT, under OR) → left joins with distinct keys
 *   and, for IN, the count of rows and of NULLs to give NULL where SQL does.
 */
import { bindCall } from './call.js';
import { formatRex } from '../../relnode/explain.js';
import { FUNCTIONS } from '../../relnode/functions.js';
import * as rel from '../../relnode/rel.js';
import { andAll, call, caseWhen, inputRef, literal, rexInputs, rexShift, type RexNode } from '../../relnode/rex.js';
import { schemaOf, type SqlType } from '../../relnode/types.js';
import type { Expr, Pos, Query } from '../ast.js';
import type { SubqueryExpr } from './ast-walk.js';
import type { RelBuilder } from './builder.js';
import { sqlError, type BindContext } from './context.js';
import { joinOnDomain } from './domain.js';
import { bindExpr, OUTER_BASE } from './expr.js';
import { bindQuery } from './query.js';
import { visibleWidth, type BoundQuery, type BoundRel, type ScopeColumn } from './scope.js';

/** Binds a subquery whose outer scope is `outerCols`. */
export function bindSubquery(ctx: BindContext, outerCols: readonly ScopeColumn[], q: Query, outerPlan: rel.RelNode, use: 'existence' | 'value'): BoundQuery {
  const outer = { cols: outerCols, plan: outerPlan, use, ...(ctx.outer ? { parent: ctx.outer } : {}) };
  return bindQuery({ sql: ctx.sql, ...(ctx.ctes ? { ctes: ctx.ctes } : {}), outer }, q);
}

/** The correlated conjuncts over a join's columns: the outer relation (width `w`) then the subquery's. */
function joinConjuncts(sub: BoundQuery, w: number): RexNode[] {
  return sub.correlated.map((c) => rexShift(c, (i) => (i >= OUTER_BASE ? i - OUTER_BASE : w + i)));
}

const showOver = (cols: readonly ScopeColumn[]) => (e: RexNode): string => formatRex(e, schemaOf(cols));

function eqCall(a: RexNode, b: RexNode, cols: readonly ScopeColumn[]): RexNode {
  return bindCall('eq', [a, b], showOver(cols));
}

/** True for a WHERE conjunct that becomes a semi or anti join: [NOT] EXISTS, x [NOT] IN (subquery). */
export function isExistenceConjunct(e: Expr): boolean {
  let x = e;
  while (x.kind === 'unary' && x.op === 'NOT') x = x.arg;
  return x.kind === 'exists' || x.kind === 'inSubquery';
}

/** Applies a [NOT] EXISTS / [NOT] IN (subquery) conjunct as a semi or anti join. */
export function existenceJoin(ctx: BindContext, r: BoundRel, conjunct: Expr): BoundRel {
  let x = conjunct;
  let negate = false;
  while (x.kind === 'unary' && x.op === 'NOT') { negate = !negate; x = x.arg; }
  if (x.kind !== 'exists' && x.kind !== 'inSubquery') throw new Error('internal error: not an existence conjunct');
  const negated = negate !== x.negated;
  const w = r.cols.length;
  const sub = bindSubquery(ctx, r.cols, x.query, r.plan, 'existence');
  const corr = joinConjuncts(sub, w);
  if (x.kind === 'exists') return { plan: rel.join(r.plan, sub.plan, negated ? 'anti' : 'semi', andAll(corr)), cols: r.cols };
  checkOneColumn(ctx, sub, x.pos);
  const arg = bindExpr({ ctx, cols: r.cols, clause: 'the left side of IN (subquery)' }, x.arg);
  const vf = sub.plan.schema.fields[0]!;
  const v = inputRef(w, vf.type, vf.name);
  const all = [...r.cols, ...sub.cols];
  const eq = wrap(ctx, x.pos, () => eqCall(arg, v, all));
  if (!negated) return { plan: rel.join(r.plan, sub.plan, 'semi', andAll([eq, ...corr])), cols: r.cols };
  const nullable = mayBeNull(arg, r.cols) || vf.nullable;
  const cond = nullable ? andAll([...corr, call('or', [eq, call('is_null', [arg], 'BOOLEAN'), call('is_null', [v], 'BOOLEAN')], 'BOOLEAN')]) : andAll([eq, ...corr]);
  return { plan: rel.join(r.plan, sub.plan, 'anti', cond), cols: r.cols };
}

/** Attaches a subquery expression met in a clause over `b`; returns the expression standing for its value. */
export function attachSubquery(ctx: BindContext, b: RelBuilder, node: SubqueryExpr, sub: BoundQuery, arg?: RexNode): RexNode {
  switch (node.kind) {
    case 'subquery': return attachScalar(ctx, b, sub, node.pos);
    case 'exists': return attachExists(ctx, b, sub, node.negated, node.pos);
    case 'inSubquery': return attachIn(ctx, b, sub, arg!, node.negated, node.pos);
  }
}

/** The SQL type of a subquery's first output column (a scalar subquery's value). */
export function scalarType(sub: BoundQuery): SqlType {
  return sub.plan.schema.fields[0]?.type ?? 'NULL';
}

function checkOneColumn(ctx: BindContext, sub: BoundQuery, pos: Pos): void {
  const n = visibleWidth(sub);
  if (n !== 1) throw sqlError(ctx.sql, pos, `subquery returns ${n} columns; it must return exactly one here`);
}

function wrap<T>(ctx: BindContext, pos: Pos, f: () => T): T {
  try {
    return f();
  } catch (err) {
    throw sqlError(ctx.sql, pos, (err as Error).message);
  }
}

function attachScalar(ctx: BindContext, b: RelBuilder, sub: BoundQuery, pos: Pos): RexNode {
  checkOneColumn(ctx, sub, pos);
  const vf = sub.plan.schema.fields[0]!;
  const w = b.width;
  if (sub.correlated.length === 0) {
    const one = exactlyOneRow(sub.plan) ? sub.plan : singleValue(sub.plan, [], 0);
    const at = b.join(one, 'cross', literal(true, 'BOOLEAN'));
    return inputRef(at, vf.type, vf.name);
  }
  if (sub.domain) {
    // Decorrelated over the outer domain: the carriers (after the value) hold the outer values.
    const k = sub.domain.length;
    const carriers = Array.from({ length: k }, (_, i) => 1 + i);
    if (sub.grouping === 'global') return inputRef(joinOnDomain(b, sub.domain, sub.plan, carriers), vf.type, vf.name);
    const f = sub.plan.schema.fields;
    const keyed = rel.project(sub.plan, [...carriers.map((c) => inputRef(c, f[c]!.type, f[c]!.name)), inputRef(0, vf.type, vf.name)], [...carriers.map((_, i) => `__key${i}`), vf.name]);
    const one = singleValue(keyed, carriers.map((_, i) => i), k);
    return inputRef(joinOnDomain(b, sub.domain, one, carriers.map((_, i) => i)) + k, vf.type, vf.name);
  }
  if (sub.grouping === 'global') {
    // Already one row per correlation key (the keys ride along as carriers): a left join on them.
    const at = b.join(sub.plan, 'left', andAll(joinConjuncts(sub, w)));
    const value = inputRef(at, vf.type, vf.name);
    const empty = sub.emptyValues?.[0];
    if (!empty || (empty.kind === 'Literal' && empty.value === null)) return value;
    const carrier = b.cols[at + 1]!;
    return caseWhen([{ when: call('is_null', [inputRef(at + 1, carrier.type)], 'BOOLEAN'), then: empty }], value, vf.type);
  }
  // Group by the correlation keys, checking that each key has at most one row.
  const pairs = correlationPairs(ctx, sub, pos);
  const keyed = rel.project(sub.plan, [...pairs.map((p) => p.inner), inputRef(0, vf.type, vf.name)], [...pairs.map((_, i) => `__key${i}`), vf.name]);
  const one = singleValue(keyed, pairs.map((_, i) => i), pairs.length);
  const all = [...b.cols, ...one.schema.fields.map((f) => ({ name: f.name, type: f.type, nullable: true }))];
  const at = b.join(one, 'left', andAll(pairs.map((p, i) => eqCall(p.outer, inputRef(w + i, one.schema.fields[i]!.type), all))));
  return inputRef(at + pairs.length, vf.type, vf.name);
}

function attachExists(ctx: BindContext, b: RelBuilder, sub: BoundQuery, negated: boolean, pos: Pos): RexNode {
  const w = b.width;
  // A correlated aggregate without GROUP BY (nor HAVING: that takes the domain; LIMIT is rejected) has one row for every outer row.
  if (sub.correlated.length > 0 && sub.grouping === 'global' && !sub.domain) return literal(!negated, 'BOOLEAN');
  if (sub.correlated.length === 0) {
    const count = rel.aggregate(rel.limit(sub.plan, 1), [], [{ fn: 'count_star', args: [], distinct: false, type: 'BIGINT', name: 'count_star()' }]);
    const flag = rel.project(count, [call('gt', [inputRef(0, 'BIGINT'), literal(0n, 'BIGINT')], 'BOOLEAN')], ['exists']);
    const at = b.join(flag, 'cross', literal(true, 'BOOLEAN'));
    const r = inputRef(at, 'BOOLEAN', 'exists');
    return negated ? call('not', [r], 'BOOLEAN') : r;
  }
  if (sub.domain) {
    const n = visibleWidth(sub);
    const f = sub.plan.schema.fields;
    const k = sub.domain.length;
    const keyed = rel.distinct(rel.project(sub.plan, [...sub.domain.map((_, i) => inputRef(n + i, f[n + i]!.type, f[n + i]!.name)), literal(true, 'BOOLEAN')], [...sub.domain.map((_, i) => `__key${i}`), '__match']));
    const at = joinOnDomain(b, sub.domain, keyed, sub.domain.map((_, i) => i));
    return call(negated ? 'is_null' : 'is_not_null', [inputRef(at + k, 'BOOLEAN')], 'BOOLEAN');
  }
  const pairs = correlationPairs(ctx, sub, pos);
  const keys = rel.distinct(rel.project(sub.plan, pairs.map((p) => p.inner), pairs.map((_, i) => `__key${i}`)));
  const all = [...b.cols, ...keys.schema.fields.map((f) => ({ name: f.name, type: f.type, nullable: true }))];
  const at = b.join(keys, 'left', andAll(pairs.map((p, i) => eqCall(p.outer, inputRef(w + i, keys.schema.fields[i]!.type), all))));
  return call(negated ? 'is_null' : 'is_not_null', [inputRef(at, keys.schema.fields[0]!.type)], 'BOOLEAN');
}

function attachIn(ctx: BindContext, b: RelBuilder, sub: BoundQuery, arg: RexNode, negated: boolean, pos: Pos): RexNode {
  if (sub.correlated.length > 0) throw sqlError(ctx.sql, pos, 'a correlated IN (subquery) is only supported as a WHERE condition (AND-ed with the others), not inside another expression');
  checkOneColumn(ctx, sub, pos);
  const vf = sub.plan.schema.fields[0]!;
  const values = rel.project(sub.plan, [inputRef(0, vf.type, vf.name)], [vf.name]);
  const w = b.width;
  const all = [...b.cols, { name: vf.name, type: vf.type, nullable: true }];
  const eq = wrap(ctx, pos, () => eqCall(arg, inputRef(w, vf.type, vf.name), all));
  const m = b.join(rel.distinct(values), 'left', eq);
  const stats = rel.aggregate(values, [], [
    { fn: 'count_star', args: [], distinct: false, type: 'BIGINT', name: 'count_star()' },
    { fn: 'count', args: [0], distinct: false, type: 'BIGINT', name: `count(${vf.name})` },
  ]);
  const s = b.join(stats, 'cross', literal(true, 'BOOLEAN'));
  const n = inputRef(s, 'BIGINT');
  const nn = inputRef(s + 1, 'BIGINT');
  const bool = (v: boolean | null): RexNode => literal(v, 'BOOLEAN');
  const value = caseWhen([
    { when: call('is_not_null', [inputRef(m, vf.type)], 'BOOLEAN'), then: bool(true) },
    { when: call('eq', [n, literal(0n, 'BIGINT')], 'BOOLEAN'), then: bool(false) },
    { when: call('or', [call('is_null', [arg], 'BOOLEAN'), call('lt', [nn, n], 'BOOLEAN')], 'BOOLEAN'), then: bool(null) },
  ], bool(false), 'BOOLEAN');
  return negated ? call('not', [value], 'BOOLEAN') : value;
}

/** Correlated conjuncts as `outer expression = subquery expression` pairs; anything else is rejected. */
function correlationPairs(ctx: BindContext, sub: BoundQuery, pos: Pos): { outer: RexNode; inner: RexNode }[] {
  return sub.correlated.map((c) => {
    const pair = splitCorrelatedEquality(c);
    if (!pair) throw sqlError(ctx.sql, pos, 'this correlated subquery needs its outer references in equality conditions (inner_column = outer_column); other correlated conditions are only supported in [NOT] EXISTS and IN conditions of WHERE');
    return { outer: rexShift(pair.outer, (i) => i - OUTER_BASE), inner: pair.inner };
  });
}

/** Splits `a = b` where one side reads only outer columns and the other only the subquery's. */
export function splitCorrelatedEquality(c: RexNode): { outer: RexNode; inner: RexNode } | undefined {
  if (c.kind !== 'Call' || c.op !== 'eq') return undefined;
  const side = (e: RexNode): 'outer' | 'inner' | 'mixed' | 'none' => {
    const refs = [...rexInputs(e)];
    if (refs.length === 0) return 'none';
    if (refs.every((i) => i >= OUTER_BASE)) return 'outer';
    if (refs.every((i) => i < OUTER_BASE)) return 'inner';
    return 'mixed';
  };
  const [a, b] = c.args as [RexNode, RexNode];
  if (side(a) === 'outer' && side(b) === 'inner') return { outer: a, inner: b };
  if (side(b) === 'outer' && side(a) === 'inner') return { outer: b, inner: a };
  return undefined;
}

/** True when the plan yields exactly one row (an Aggregate without keys, under Projects/Sorts). */
function exactlyOneRow(p: rel.RelNode): boolean {
  switch (p.kind) {
    case 'Aggregate': return p.groupKeys.length === 0;
    case 'Project': case 'Sort': return exactlyOneRow(p.input);
    case 'Limit': return p.fetch >= 1 && p.offset === 0 && exactlyOneRow(p.input);
    case 'Values': return p.rows.length === 1;
    default: return false;
  }
}

/**
 * One row per group of the leading `keys` with the value column `v`: an
 * Aggregate counting rows (failing the query, as DuckDB does, when a group
 * has more than one) and taking the value.
 */
function singleValue(p: rel.RelNode, keys: readonly number[], v: number): rel.RelNode {
  const vf = p.schema.fields[v]!;
  const t: SqlType = vf.type === 'NULL' ? 'INTEGER' : vf.type;
  const input = vf.type === 'NULL' ? rel.project(p, p.schema.fields.map((f, i) => (i === v ? literal(null, t) : inputRef(i, f.type, f.name))), p.schema.fields.map((f) => f.name)) : p;
  const agg = rel.aggregate(input, keys, [
    { fn: 'count_star', args: [], distinct: false, type: 'BIGINT', name: '__rows' },
    { fn: 'min', args: [v], distinct: false, type: t, name: vf.name },
  ]);
  const k = keys.length;
  const value = FUNCTIONS.has('assert_single_row')
    ? caseWhen([{ when: call('assert_single_row', [inputRef(k, 'BIGINT')], 'BOOLEAN'), then: inputRef(k + 1, t, vf.name) }], literal(null, t), t)
    : inputRef(k + 1, t, vf.name);
  return rel.project(agg, [...keys.map((_, i) => inputRef(i, agg.schema.fields[i]!.type, agg.schema.fields[i]!.name)), value], [...keys.map((_, i) => agg.schema.fields[i]!.name), vf.name]);
}

/** Whether an expression may be NULL (conservative: only column nullability and literals are known). */
export function mayBeNull(e: RexNode, cols: readonly ScopeColumn[]): boolean {
  switch (e.kind) {
    case 'InputRef': return cols[e.index]?.nullable ?? true;
    case 'Literal': return e.value === null;
    case 'Cast': return mayBeNull(e.arg, cols);
    case 'Call': return !(e.op === 'is_null' || e.op === 'is_not_null');
    case 'Case': return true;
  }
}

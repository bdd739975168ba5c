/**
 * The general decorrelation (DuckDB's FlattenDependentJoins): the right side
 * of a Correlate is rewritten to compute its rows for every value of D, the
 * distinct values of the outer columns it reads, at once. `flatten` pushes D
 * down the plan: where a subtree reads no outer column it is cross-joined
 * with D; above that every operator carries D's columns along (at the end of
 * its output) and reads them instead of the outer references; an aggregate
 * groups by them too (a global one is left-joined back onto D so that every
 * value keeps its row over no input, count() 0), a DISTINCT, set operation or
 * join keeps the values apart. A LIMIT keeps its rows per value of D (a
 * partitioned Limit). The Correlate then joins its left side with the result
 * on D's columns, NULL-safely (see subquery-joins.ts).
 */
import { InternalError, ValidationError } from '../relnode/errors.js';
import * as rel from '../relnode/rel.js';
import { andAll, call, inputRef, literal, rexShift, rexTransform, type RexNode } from '../relnode/rex.js';
import { joinOnKeys } from './subquery-joins.js';
import { SAMPLE_FUNCTION } from './sample.js';

const refs = (n: rel.RelNode, from = 0, to = n.schema.fields.length): RexNode[] =>
  n.schema.fields.slice(from, to).map((f, i) => inputRef(from + i, f.type, f.name));
const names = (n: rel.RelNode, from = 0, to = n.schema.fields.length): string[] => n.schema.fields.slice(from, to).map((f) => f.name);
const range = (from: number, n: number): number[] => Array.from({ length: n }, (_, i) => from + i);

/** The domain: the distinct values of the left columns `outer` (ordinals of the Correlate's left). */
export interface Domain {
  readonly node: rel.RelNode;
  /** Left ordinal of D's column j. */
  readonly outer: readonly number[];
}

/**
 * D for the left columns `outer`. It may hold more values than the left has
 * (extra values only compute rows nothing joins back to), so it is read as
 * low in the left plan as the columns pass unchanged: through Projects,
 * the left side of left / semi / anti joins and of Correlates, and cross
 * joins with one row — the shapes earlier subqueries of the same clause
 * leave. Reading it there keeps several subqueries over one relation from
 * nesting copies of each other's plans.
 */
export function domainOf(left: rel.RelNode, outer: readonly number[]): Domain {
  const src = domainSource(left, outer);
  const f = src.node.schema.fields;
  // The domain repeats part of the left plan: a CacheSink in it would run twice and write its entry's rows twice.
  const from = rel.transformUp(src.node, (n) => (n.kind === 'CacheSink' ? n.input : n));
  const node = rel.distinct(rel.project(from, src.cols.map((j) => inputRef(j, f[j]!.type, f[j]!.name)), outer.map((_, i) => `__domain${i}`)));
  return { node, outer };
}

function domainSource(n: rel.RelNode, cols: readonly number[]): { node: rel.RelNode; cols: readonly number[] } {
  switch (n.kind) {
    case 'Project': {
      const m = cols.map((c) => n.exprs[c]!);
      return m.every((e) => e.kind === 'InputRef') ? domainSource(n.input, m.map((e) => (e as { index: number }).index)) : { node: n, cols };
    }
    case 'Join': {
      const lw = n.left.schema.fields.length;
      const leftSide = n.joinType === 'left' || n.joinType === 'semi' || n.joinType === 'anti' || (n.joinType === 'cross' && exactlyOne(n.right));
      return leftSide && cols.every((c) => c < lw) ? domainSource(n.left, cols) : { node: n, cols };
    }
    case 'Correlate': {
      const lw = n.left.schema.fields.length;
      return cols.every((c) => c < lw) ? domainSource(n.left, cols) : { node: n, cols };
    }
    default: return { node: n, cols };
  }
}

function exactlyOne(n: rel.RelNode): boolean {
  return n.kind === 'Aggregate' ? n.groupKeys.length === 0 : n.kind === 'Project' ? exactlyOne(n.input) : false;
}

/** `e` with each OuterRef to left column outer[j] replaced by InputRef(at + j). */
function bindOuter(e: RexNode, d: Domain, at: number): RexNode {
  return rexTransform(e, (x) => {
    if (x.kind !== 'OuterRef') return x;
    const j = d.outer.indexOf(x.index);
    if (j < 0) throw new InternalError(`outer column $${x.index} is not in the domain`);
    return inputRef(at + j, x.type, x.name);
  });
}

/** `n` computed for every value of D: n's columns, then D's. */
export function flatten(n: rel.RelNode, d: Domain): rel.RelNode {
  const k = d.outer.length;
  if (rel.outerRefsOf(n).size === 0) return rel.join(n, d.node, 'cross', literal(true, 'BOOLEAN'));
  switch (n.kind) {
    case 'Filter': {
      const i = flatten(n.input, d);
      return rel.filter(i, bindOuter(n.condition, d, n.input.schema.fields.length));
    }
    case 'Project': {
      const i = flatten(n.input, d);
      const w = n.input.schema.fields.length;
      return rel.project(i, [...n.exprs.map((e) => bindOuter(e, d, w)), ...refs(i, w)], [...names(n), ...names(i, w)]);
    }
    case 'Aggregate': return flattenAggregate(n, d);
    case 'Distinct': return rel.distinct(flatten(n.input, d));
    case 'Sort': {
      const i = flatten(n.input, d);
      if (n.fetch === undefined && !n.offset) return rel.sort(i, n.keys);
      const w = n.input.schema.fields.length;
      return rel.groupLimit(rel.sort(i, n.keys), range(w, k), n.fetch ?? Number.MAX_SAFE_INTEGER, n.offset ?? 0);
    }
    case 'Limit': {
      const i = flatten(n.input, d);
      return rel.groupLimit(i, range(n.input.schema.fields.length, k), n.fetch, n.offset);
    }
    case 'GroupLimit': {
      const i = flatten(n.input, d);
      return rel.groupLimit(i, [...n.keys, ...range(n.input.schema.fields.length, k)], n.fetch, n.offset);
    }
    case 'Window': {
      // One window per outer value: the domain columns join the partition keys; the calls then move before them.
      const i = flatten(n.input, d);
      const w = n.input.schema.fields.length;
      const win = rel.window(i, [...n.partitionKeys, ...range(w, k)], n.orderKeys, n.calls);
      const order = [...range(0, w), ...range(w + k, n.calls.length), ...range(w, k)];
      return rel.project(win, order.map((x) => refs(win)[x]!), order.map((x) => names(win)[x]!));
    }
    case 'Union': return rel.union(n.inputs.map((x) => flatten(x, d)), n.all);
    case 'SetOp': return rel.setOp(n.op, flatten(n.left, d), flatten(n.right, d), n.all);
    case 'Join': return flattenJoin(n, d);
    case 'Correlate':
      throw new InternalError('a Correlate inside a correlated subquery was not decorrelated first');
    case 'Scan': case 'Values': case 'CacheSource': case 'CacheSink': case 'FeedbackRef': case 'DataRef':
      throw new InternalError(`${n.kind} cannot read outer columns`);
    case 'TableFunction': {
      const rw = rel.rowWiseImpl(n);
      if (rw === undefined || n.inputs.length !== 1) throw new ValidationError(n.name === SAMPLE_FUNCTION
        ? 'USING SAMPLE / TABLESAMPLE over rows that read an outer query (a correlated subquery or a LATERAL item) is not supported: sample the table the outer query reads instead'
        : `a correlated subquery inside the input of the table function ${n.name}() (reading an outer query) is not supported`);
      // A row-wise function (LATERAL range(t.n)) carries D's columns through; they move past its own.
      const t = rw.over(flatten(n.inputs[0]!, d));
      const w = n.inputs[0]!.schema.fields.length;
      const order = [...range(0, w), ...range(w + k, n.schema.fields.length - w), ...range(w, k)];
      return rel.project(t, order.map((x) => refs(t)[x]!), order.map((x) => names(t)[x]!));
    }
    case 'Iterate':
      throw new ValidationError('a correlated subquery inside an iteration or a table function input (reading an outer query) is not supported');
  }
}

function flattenAggregate(n: rel.Aggregate, d: Domain): rel.RelNode {
  const k = d.outer.length;
  const i = flatten(n.input, d);
  const w = n.input.schema.fields.length;
  const g = n.groupKeys.length;
  const c = n.aggCalls.length;
  if (g > 0) {
    const a = rel.aggregate(i, [...n.groupKeys, ...range(w, k)], n.aggCalls);
    const order = [...range(0, g), ...range(g + k, c), ...range(g, k)];
    return rel.project(a, order.map((x) => refs(a)[x]!), order.map((x) => names(a)[x]!));
  }
  // A global aggregate has a row for every value of D, also without input rows.
  const a = rel.aggregate(i, range(w, k), n.aggCalls);
  const j = joinOnKeys(d.node, a, 'left', literal(true, 'BOOLEAN'), range(0, k), range(0, k));
  const values = n.aggCalls.map((x, t): RexNode => {
    const r = inputRef(2 * k + t, x.type, x.name);
    return x.fn === 'count' || x.fn === 'count_star' ? call('coalesce', [r, literal(0n, 'BIGINT')], 'BIGINT') : r;
  });
  const out = rel.project(j, [...values, ...refs(j, 0, k)], [...n.aggCalls.map((x) => x.name), ...names(j, 0, k)]);
  ONE_ROW_PER_VALUE.add(out);
  return out;
}

/** Flattened global aggregates: one row per value of D (their last k columns). */
const ONE_ROW_PER_VALUE = new WeakSet<rel.RelNode>();

/** True when `n` (a flattened plan) has at most one row per value of its columns `keys`. */
export function uniqueOn(n: rel.RelNode, keys: readonly number[]): boolean {
  const w = n.schema.fields.length;
  if (ONE_ROW_PER_VALUE.has(n) && range(w - keys.length, keys.length).every((c) => keys.includes(c))) return true;
  switch (n.kind) {
    case 'Project': {
      const m = keys.map((c) => n.exprs[c]!);
      return m.every((e) => e.kind === 'InputRef') && uniqueOn(n.input, m.map((e) => (e as { index: number }).index));
    }
    case 'Filter': case 'Sort': case 'Limit': case 'GroupLimit': return uniqueOn(n.input, keys);
    case 'Aggregate': return n.groupKeys.length > 0 && range(0, n.groupKeys.length).every((c) => keys.includes(c));
    case 'Distinct': return range(0, w).every((c) => keys.includes(c));
    default: return false;
  }
}

function flattenJoin(n: rel.Join, d: Domain): rel.RelNode {
  const k = d.outer.length;
  const t = n.joinType;
  const ca = rel.outerRefsOf(n.left).size > 0;
  const cb = rel.outerRefsOf(n.right).size > 0;
  let fa: boolean;
  let fb: boolean;
  if (t === 'inner' || t === 'cross') { fa = ca || !cb; fb = cb; }
  else if (t === 'left' || t === 'semi' || t === 'anti') { fa = true; fb = cb; }
  else if (t === 'right') { fa = ca; fb = true; }
  else { fa = true; fb = true; }
  const aw = n.left.schema.fields.length;
  const bw = n.right.schema.fields.length;
  const a = fa ? flatten(n.left, d) : n.left;
  const b = fb ? flatten(n.right, d) : n.right;
  const aw2 = a.schema.fields.length;
  // The condition over a ++ b: right ordinals move past a's domain columns; outer columns read a's (or b's) domain.
  const shifted = rexShift(n.condition, (x) => (x >= aw ? x + (aw2 - aw) : x));
  const cond = bindOuter(shifted, d, fa ? aw : aw2 + bw);
  const j = fa && fb
    ? joinOnKeys(a, b, t, cond, range(aw, k), range(bw, k))
    : rel.join(a, b, t, andAll([cond]));
  if (t === 'semi' || t === 'anti') return j;
  const da = range(aw, k);
  const db = range(aw2 + bw, k);
  const jr = refs(j);
  const dom = t === 'full'
    ? da.map((x, i) => call('coalesce', [jr[x]!, jr[db[i]!]!], jr[x]!.type))
    : (fa && t !== 'right' ? da : db).map((x) => jr[x]!);
  const out = [...range(0, aw), ...range(aw2, bw)];
  return rel.project(j, [...out.map((x) => jr[x]!), ...dom], [...out.map((x) => names(j)[x]!), ...range(0, k).map((x) => `__domain${x}`)]);
}

/**
 * A single Correlate over a global aggregate whose correlation is only
 * equalities `outer expression = inner expression` in the Filter below it
 * (TPC-H Q2, Q17, Q20: `(SELECT avg(x) FROM t WHERE t.k = o.k)`): the
 * aggregate is grouped by the inner expressions instead and left-joined on
 * them, so each left row meets at most one group. A left row without a group
 * gets the aggregate's value over no rows: the join's NULLs, except count()
 * which is 0 (coalesced), and what the Project above makes of them. An
 * inner / left (LATERAL) Correlate without condition over such an aggregate
 * takes the same form: it too has exactly one right row per left row.
 */
import * as rel from '../../relnode/rel.js';
import { andAll, call, conjuncts, inputRef, literal, rexInputs, rexTransform, type RexNode } from '../../relnode/rex.js';
import type { Rule } from '../rule.js';
import { overJoin, readsOuter } from './correlate-sides.js';

/** `a = b` with one side reading only outer columns and the other only inner ones: { outer, inner }. */
export function correlatedEquality(c: RexNode): { outer: RexNode; inner: RexNode } | undefined {
  if (c.kind !== 'Call' || c.op !== 'eq') return undefined;
  const onlyOuter = (e: RexNode): boolean => readsOuter(e) && rexInputs(e).size === 0;
  const onlyInner = (e: RexNode): boolean => !readsOuter(e) && rexInputs(e).size > 0;
  const [a, b] = c.args as [RexNode, RexNode];
  if (onlyOuter(a) && onlyInner(b)) return { outer: a, inner: b };
  if (onlyOuter(b) && onlyInner(a)) return { outer: b, inner: a };
  return undefined;
}

function rewrite(c: rel.Correlate): rel.RelNode | undefined {
  // A LATERAL join with a global aggregate (no ON condition) is the same: one right row for every left row.
  const lateral = (c.joinType === 'inner' || c.joinType === 'left') && c.condition.kind === 'Literal' && c.condition.value === true;
  if (c.joinType !== 'single' && !lateral) return undefined;
  const top = c.right.kind === 'Project' ? c.right : undefined;
  const agg = top ? top.input : c.right;
  if (agg.kind !== 'Aggregate' || agg.groupKeys.length > 0) return undefined;
  if (top && top.exprs.some(readsOuter)) return undefined;
  const pre = agg.input.kind === 'Project' ? agg.input : undefined;
  const filter = pre ? pre.input : agg.input;
  if (filter.kind !== 'Filter' || (pre && pre.exprs.some(readsOuter))) return undefined;
  const cs = conjuncts(filter.condition);
  const pairs: { outer: RexNode; inner: RexNode }[] = [];
  const local: RexNode[] = [];
  for (const x of cs) {
    if (!readsOuter(x)) { local.push(x); continue; }
    const p = correlatedEquality(x);
    if (!p) return undefined;
    pairs.push(p);
  }
  const below = local.length > 0 ? rel.filter(filter.input, andAll(local)) : filter.input;
  if (pairs.length === 0 || rel.outerRefsOf(below).size > 0) return undefined;
  const m = pairs.length;
  const bf = below.schema.fields;
  const preExprs = pre ? pre.exprs : bf.map((f, i) => inputRef(i, f.type, f.name));
  const preNames = pre ? pre.schema.fields.map((f) => f.name) : bf.map((f) => f.name);
  const keyed = rel.project(below, [...pairs.map((p) => p.inner), ...preExprs], [...pairs.map((_, i) => `__key${i}`), ...preNames]);
  const grouped = rel.aggregate(keyed, pairs.map((_, i) => i), agg.aggCalls.map((a) => ({ ...a, args: a.args.map((i) => i + m) })));
  const lw = c.left.schema.fields.length;
  const gf = grouped.schema.fields;
  const cond = andAll(pairs.map((p, i) => call('eq', [overJoin(p.outer, lw), inputRef(lw + i, gf[i]!.type)], 'BOOLEAN')));
  const j = rel.join(c.left, grouped, 'left', cond);
  // The aggregate's outputs over the join; count() over no rows is 0, not NULL.
  const aggOut = agg.aggCalls.map((a, i): RexNode => {
    const r = inputRef(lw + m + i, a.type, a.name);
    return a.fn === 'count' || a.fn === 'count_star' ? call('coalesce', [r, literal(0n, 'BIGINT')], 'BIGINT') : r;
  });
  const values = top ? top.exprs.map((e) => rexTransform(e, (x) => (x.kind === 'InputRef' ? aggOut[x.index]! : x))) : aggOut;
  const lf = c.left.schema.fields;
  const names = [...lf.map((f) => f.name), ...c.right.schema.fields.map((f) => f.name)];
  return rel.project(j, [...lf.map((f, i) => inputRef(i, f.type, f.name)), ...values], names);
}

export const decorrelateScalarAggregate: Rule = {
  name: 'decorrelate-scalar-aggregate',
  description: 'A single Correlate over a global aggregate correlated by equalities → a left join with the aggregate grouped by the inner keys (count() coalesced to 0); before decorrelate-domain.',
  rewrite: (node) => rel.transformUp(node, (n) => (n.kind === 'Correlate' ? rewrite(n) ?? n : n)),
};

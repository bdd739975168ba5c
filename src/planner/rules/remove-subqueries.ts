/**
 * Subquery expressions → Correlate nodes (Calcite's SubQueryRemoveRule): the
 * binder leaves `(SELECT ...)`, EXISTS and IN (subquery) inside Filter and
 * Project expressions; here each becomes a dependent join over the node's
 * input. A WHERE conjunct [NOT] EXISTS / [NOT] IN becomes a semi / anti
 * Correlate (NOT IN keeps SQL's NULL semantics: a NULL on either side fails
 * the row unless both sides are known non-NULL); a scalar subquery a single
 * Correlate; EXISTS / IN elsewhere a mark Correlate. Subqueries inside a
 * subquery's plan are removed first, so the decorrelation rules (which run
 * next) meet the innermost Correlates first. Runs first in the rule list.
 */
import * as rel from '../../relnode/rel.js';
import { andAll, call, conjuncts, hasSubquery, inputRef, rexTransform, type RexNode, type Subquery } from '../../relnode/rex.js';
import type { Schema } from '../../relnode/types.js';
import type { Rule } from '../rule.js';

/** The existence form of a WHERE conjunct: [NOT ...] EXISTS / IN (subquery). */
function existence(c: RexNode): { sub: Subquery; negated: boolean } | undefined {
  let x = c;
  let negated = false;
  while (x.kind === 'Call' && x.op === 'not') { negated = !negated; x = x.args[0]!; }
  return x.kind === 'Subquery' && x.mode !== 'scalar' ? { sub: x, negated } : undefined;
}

/** Whether an expression over `schema` may be NULL (conservative). */
function mayBeNull(e: RexNode, schema: Schema): boolean {
  switch (e.kind) {
    case 'InputRef': return schema.fields[e.index]?.nullable ?? true;
    case 'Literal': return e.value === null;
    case 'Cast': return mayBeNull(e.arg, schema);
    case 'Call': return !(e.op === 'is_null' || e.op === 'is_not_null');
    default: return true;
  }
}

/** Removes subqueries inside the plan of every Subquery of `e` (innermost first). */
function removeNested(e: RexNode): RexNode {
  return rexTransform(e, (x) => (x.kind === 'Subquery' ? { ...x, rel: removeSubqueries.rewrite(x.rel) } : x));
}

/** `arg = subquery column 0` over the Correlate's columns (left width `w`). */
function inCondition(sub: Subquery, w: number): RexNode {
  const v = sub.rel.schema.fields[0]!;
  return call('eq', [sub.arg!, inputRef(w, v.type, v.name)], 'BOOLEAN');
}

/** A semi / anti Correlate for an existence conjunct. */
function existenceCorrelate(left: rel.RelNode, sub: Subquery, negated: boolean): rel.RelNode {
  const w = left.schema.fields.length;
  if (sub.mode === 'exists') return rel.correlate(left, sub.rel, negated ? 'anti' : 'semi', andAll([]));
  const eq = inCondition(sub, w);
  if (!negated) return rel.correlate(left, sub.rel, 'semi', eq);
  const v = sub.rel.schema.fields[0]!;
  if (!mayBeNull(sub.arg!, left.schema) && !v.nullable) return rel.correlate(left, sub.rel, 'anti', eq);
  const nullable = call('or', [eq, call('is_null', [sub.arg!], 'BOOLEAN'), call('is_null', [inputRef(w, v.type)], 'BOOLEAN')], 'BOOLEAN');
  return rel.correlate(left, sub.rel, 'anti', nullable);
}

/** A relation that grows by one Correlate per value subquery; `replace` maps each Subquery to its column. */
class Attacher {
  constructor(public plan: rel.RelNode) {}

  replace = (e: RexNode): RexNode => rexTransform(e, (x) => {
    if (x.kind !== 'Subquery') return x;
    const w = this.plan.schema.fields.length;
    if (x.mode === 'scalar') {
      this.plan = rel.correlate(this.plan, x.rel, 'single', andAll([]), x.at);
      const f = this.plan.schema.fields[w]!;
      return inputRef(w, f.type, f.name);
    }
    this.plan = rel.correlate(this.plan, x.rel, 'mark', x.mode === 'in' ? inCondition(x, w) : andAll([]));
    return inputRef(w, 'BOOLEAN', 'mark');
  });
}

const identity = (n: rel.RelNode): RexNode[] => n.schema.fields.map((f, i) => inputRef(i, f.type, f.name));

function removeFromFilter(n: rel.Filter): rel.RelNode {
  const cs = conjuncts(removeNested(n.condition));
  const local = cs.filter((c) => !hasSubquery(c));
  const exist = cs.map(existence).filter((e): e is NonNullable<ReturnType<typeof existence>> => e !== undefined);
  const values = cs.filter((c) => hasSubquery(c) && existence(c) === undefined);
  let plan: rel.RelNode = local.length > 0 ? rel.filter(n.input, andAll(local)) : n.input;
  for (const e of exist) plan = existenceCorrelate(plan, e.sub, e.negated);
  if (values.length === 0) return plan;
  const a = new Attacher(plan);
  const cond = andAll(values.map(a.replace));
  const filtered = rel.filter(a.plan, cond);
  return rel.project(filtered, identity(n.input), n.schema.fields.map((f) => f.name));
}

function removeFromProject(n: rel.Project): rel.RelNode {
  const a = new Attacher(n.input);
  const exprs = n.exprs.map((e) => a.replace(removeNested(e)));
  return rel.project(a.plan, exprs, n.schema.fields.map((f) => f.name));
}

export const removeSubqueries: Rule = {
  name: 'remove-subqueries',
  description: 'Subquery expressions in Filter / Project → semi, anti, single or mark Correlate nodes; runs first, before the decorrelate-* rules.',
  rewrite: (node) => rel.transformUp(node, (n) => {
    if (n.kind === 'Filter' && hasSubquery(n.condition)) return removeFromFilter(n);
    if (n.kind === 'Project' && n.exprs.some(hasSubquery)) return removeFromProject(n);
    return n;
  }),
};

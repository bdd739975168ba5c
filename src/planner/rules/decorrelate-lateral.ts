/**
 * An inner / left (LATERAL) Correlate whose right side is Projects over a
 * Filter over an input that reads nothing of the left (`LATERAL (SELECT
 * u.v, u.v - t.n FROM u WHERE u.k = t.k AND ...)`, `LATERAL (SELECT t.a *
 * 2)`) → one join of the left with that input: the correlated conjuncts and
 * the Correlate's ON condition become the join condition (equalities hash
 * keys, the rest a residual), the Projects' expressions are computed over
 * the join. A left join's unmatched rows must read NULL in every right
 * column, so expressions that are not plain columns of the input (`1 AS
 * one`, `t.a * 2`) are guarded by a match flag the input carries. Saves
 * the domain rule's distinct outer values and second join for the common
 * shape. An inner lateral row-wise table function (`LATERAL range(t.n)`)
 * runs straight over the left rows. Everything else (LIMIT, aggregates,
 * set operations, nested correlation) is left to
 * decorrelate-scalar-aggregate and decorrelate-domain. After
 * decorrelate-uncorrelated, before them.
 */
import * as rel from '../../relnode/rel.js';
import { andAll, call, caseWhen, conjuncts, inputRef, literal, rexInputs, rexTransform, type RexNode } from '../../relnode/rex.js';
import type { Rule } from '../rule.js';
import { overJoin, splitOuterFilter, throughProjects } from './correlate-sides.js';

function rewrite(c: rel.Correlate): rel.RelNode | undefined {
  if (c.joinType !== 'inner' && c.joinType !== 'left') return undefined;
  const lw = c.left.schema.fields.length;
  // Right column i as an expression over the node below the Projects (OuterRefs to left columns).
  const { exprs, node: r } = throughProjects(c.right);
  const { correlated, below } = splitOuterFilter(r);
  if (rel.outerRefsOf(below).size > 0) return undefined;
  const bw = below.schema.fields.length;
  // A left join marks its matches with a column the input always fills (its last); inner joins need none.
  const guard = c.joinType === 'left' && exprs.some((e) => e.kind !== 'InputRef');
  const input = guard
    ? rel.project(below, [...below.schema.fields.map((f, i) => inputRef(i, f.type, f.name)), literal(true, 'BOOLEAN')], [...below.schema.fields.map((f) => f.name), '__matched'])
    : below;
  const over = exprs.map((e) => overJoin(e, lw));
  const matched = call('is_not_null', [inputRef(lw + bw, 'BOOLEAN')], 'BOOLEAN');
  const out = over.map((e, i) => (guard && exprs[i]!.kind !== 'InputRef' ? caseWhen([{ when: matched, then: e }], literal(null, e.type), e.type) : e));
  // The Correlate's condition reads right columns (the Projects' outputs): inline them.
  const cond = rexTransform(c.condition, (x) => (x.kind === 'InputRef' && x.index >= lw ? over[x.index - lw]! : x));
  const all = [...conjuncts(cond), ...correlated.map((x) => overJoin(x, lw))];
  const type = c.joinType === 'inner' && all.length === 0 ? 'cross' : c.joinType;
  const j = rel.join(c.left, input, type, andAll(all));
  const lf = c.left.schema.fields;
  return rel.project(j, [...lf.map((f, i) => inputRef(i, f.type, f.name)), ...out], c.schema.fields.map((f) => f.name));
}

/**
 * An inner lateral row-wise table function over arguments of the left row alone (`FROM t, LATERAL
 * range(t.n)`: Projects over the function over a Project of one constant row) → the function run
 * straight over the left side's rows, the arguments computed in front of them.
 */
function rowWiseOverLeft(c: rel.Correlate): rel.RelNode | undefined {
  if (c.joinType !== 'inner') return undefined;
  const { exprs, node: r } = throughProjects(c.right);
  if (r.kind !== 'TableFunction' || r.inputs.length !== 1) return undefined;
  const rw = rel.rowWiseImpl(r);
  const args = r.inputs[0]!;
  if (rw === undefined || args.kind !== 'Project' || args.input.kind !== 'Values' || args.input.rows.length !== 1) return undefined;
  if (args.exprs.some((e) => rexInputs(e).size > 0)) return undefined;
  const lf = c.left.schema.fields;
  const lw = lf.length;
  const a = args.exprs.length;
  const leftRefs = lf.map((f, i) => inputRef(i, f.type, f.name));
  const input = rel.project(c.left, [...args.exprs.map((e) => overJoin(e, 0)), ...leftRefs], [...args.schema.fields.map((f) => f.name), ...lf.map((f) => f.name)]);
  const t = rw.over(input);
  // Over t (arguments, left columns, the function's own): the right side's columns, then the condition.
  const onT = (e: RexNode): RexNode => rexTransform(e, (x) => (x.kind === 'InputRef' ? inputRef(x.index < a ? x.index : x.index + lw, x.type, x.name) : x.kind === 'OuterRef' ? inputRef(a + x.index, x.type, x.name) : x));
  const out = exprs.map(onT);
  const cond = rexTransform(c.condition, (x) => (x.kind === 'InputRef' ? (x.index < lw ? inputRef(a + x.index, x.type, x.name) : out[x.index - lw]!) : x));
  const kept = conjuncts(cond).length > 0 ? rel.filter(t, cond) : t;
  const tf = t.schema.fields;
  return rel.project(kept, [...lf.map((_, i) => inputRef(a + i, tf[a + i]!.type, tf[a + i]!.name)), ...out], c.schema.fields.map((f) => f.name));
}

export const decorrelateLateral: Rule = {
  name: 'decorrelate-lateral',
  description: 'An inner / left (LATERAL) Correlate over Projects and a Filter over an uncorrelated input → one inner / left join on the correlated conjuncts and the ON condition; after decorrelate-uncorrelated, before decorrelate-domain.',
  rewrite: (node) => rel.transformUp(node, (n) => (n.kind === 'Correlate' ? rewrite(n) ?? rowWiseOverLeft(n) ?? n : n)),
};

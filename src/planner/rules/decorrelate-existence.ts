/**
 * A semi / anti Correlate whose right side is Projects and Filters over an
 * uncorrelated input (the usual `EXISTS (SELECT ... FROM t WHERE t.k = o.k
 * AND ...)`, `x IN (SELECT ...)`, a correlated `(a, b) NOT IN (SELECT ...)`
 * whose row test is a Filter over the subquery's Project over its WHERE):
 * the conjuncts that read outer columns move
 * into the join condition, which becomes a semi / anti join on them (any
 * condition: equalities become hash keys, the rest a residual). The
 * Projects are inlined into the condition: a semi / anti join outputs only
 * the left columns, so nothing else reads them.
 */
import * as rel from '../../relnode/rel.js';
import { andAll, conjuncts, rexTransform } from '../../relnode/rex.js';
import type { Rule } from '../rule.js';
import { overJoin, pullCorrelated } from './correlate-sides.js';

function rewrite(c: rel.Correlate): rel.RelNode | undefined {
  if (c.joinType !== 'semi' && c.joinType !== 'anti') return undefined;
  const lw = c.left.schema.fields.length;
  const pulled = pullCorrelated(c.right);
  if (pulled === undefined || rel.outerRefsOf(pulled.below).size > 0) return undefined;
  const { exprs, correlated, below } = pulled;
  // The Correlate's condition reads right columns (the Projects' outputs): inline them.
  const cond = rexTransform(c.condition, (x) => (x.kind === 'InputRef' && x.index >= lw ? overJoin(exprs[x.index - lw]!, lw) : x));
  const all = [...conjuncts(cond), ...correlated.map((x) => overJoin(x, lw))];
  return rel.join(c.left, below, c.joinType, andAll(all));
}

export const decorrelateExistence: Rule = {
  name: 'decorrelate-existence',
  description: 'A semi / anti Correlate over Projects and a Filter with correlated conjuncts → a semi / anti join on them; after decorrelate-uncorrelated.',
  rewrite: (node) => rel.transformUp(node, (n) => (n.kind === 'Correlate' ? rewrite(n) ?? n : n)),
};

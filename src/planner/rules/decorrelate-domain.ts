/**
 * Every Correlate the specific rules left (outer columns outside WHERE,
 * non-equality correlation under an aggregate, HAVING, LIMIT, set
 * operations, EXISTS / IN as values, ...) → a plain join with its right side
 * computed once over the domain of outer values (flatten-dependent.ts), on
 * the domain's columns, NULL-safely. Runs bottom-up, so a nested Correlate is
 * removed before the one around it; it is last among the decorrelate-* rules
 * and leaves no Correlate behind.
 */
import * as rel from '../../relnode/rel.js';
import { domainOf, flatten, uniqueOn } from '../flatten-dependent.js';
import type { Rule } from '../rule.js';
import { joinForm } from '../subquery-joins.js';

export function decorrelateOverDomain(c: rel.Correlate): rel.RelNode {
  const outer = [...rel.outerRefsOf(c.right)].sort((a, b) => a - b);
  const d = domainOf(c.left, outer);
  const node = flatten(c.right, d);
  const width = c.right.schema.fields.length;
  return joinForm(c, { node, width, unique: uniqueOn(node, outer.map((_, i) => width + i)) }, outer);
}

export const decorrelateDomain: Rule = {
  name: 'decorrelate-domain',
  description: 'Any remaining Correlate → a join with its right side flattened over the distinct outer values (DuckDB FlattenDependentJoins); last decorrelate-* rule.',
  rewrite: (node) => rel.transformUp(node, (n) => (n.kind === 'Correlate' ? decorrelateOverDomain(n) : n)),
};

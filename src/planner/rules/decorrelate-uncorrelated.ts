/**
 * A Correlate whose right side reads nothing of the left (an uncorrelated
 * subquery) → a plain join: semi / anti joins on the condition, a cross join
 * with the one row of a scalar subquery (checked to be at most one unless it
 * is an aggregate), and for EXISTS / IN as values a join with the subquery's
 * existence flag or distinct values plus its row / NULL counts.
 */
import * as rel from '../../relnode/rel.js';
import type { Rule } from '../rule.js';
import { joinForm } from '../subquery-joins.js';

export const decorrelateUncorrelated: Rule = {
  name: 'decorrelate-uncorrelated',
  description: 'A Correlate whose right side has no outer references → a plain semi, anti, cross or left join; after remove-subqueries.',
  rewrite: (node) => rel.transformUp(node, (n) => {
    if (n.kind !== 'Correlate' || rel.outerRefsOf(n.right).size > 0) return n;
    return joinForm(n, { node: n.right, width: n.right.schema.fields.length }, []);
  }),
};

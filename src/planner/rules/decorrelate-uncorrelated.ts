/**
 * A Correlate whose right side reads nothing of the left (an uncorrelated
 * subquery) → a plain join: semi / anti joins on the condition, a cross join
 * with the one row of a scalar subquery (checked to be at most one unless it
 * is an aggregate; one over the outer query's grouped input is rolled up from
 * its groups), and for EXISTS / IN as values a join with the subquery's
 * existence flag or distinct values plus its row / NULL counts.
 */
import * as rel from '../../relnode/rel.js';
import type { Rule } from '../rule.js';
import { joinForm } from '../subquery-joins.js';
import { rollUpScalarAggregate } from './roll-up-scalar-aggregate.js';

export const decorrelateUncorrelated: Rule = {
  name: 'decorrelate-uncorrelated',
  description: 'A Correlate whose right side has no outer references → a plain semi, anti, cross or left join; after remove-subqueries.',
  rewrite: (node) => rel.transformUp(node, (n) => {
    if (n.kind !== 'Correlate' || rel.outerRefsOf(n.right).size > 0) return n;
    // A scalar aggregate of what the outer query groups reads the outer groups (roll-up-scalar-aggregate.ts).
    const right = n.joinType === 'single' ? rollUpScalarAggregate(n.right, n.left) ?? n.right : n.right;
    return joinForm(right === n.right ? n : rel.correlate(n.left, right, n.joinType, n.condition, n.at), { node: right, width: right.schema.fields.length }, []);
  }),
};

/**
 * merge-filters: Filter(Filter(x, a), b) → Filter(x, a AND b). Runs after simplify-expressions and
 * before push-down-filter, so pushdown classifies every conjunct of a stack of filters at once.
 */
import { filter, transformUp } from '../../relnode/rel.js';
import { andAll, conjuncts } from '../../relnode/rex.js';
import type { Rule } from '../rule.js';

/** Collapses stacked filters into one whose condition is the AND of both (inner conjuncts first). */
export const mergeFilters: Rule = {
  name: 'merge-filters',
  description: 'Merges Filter(Filter(x)) into one Filter with AND; runs before push-down-filter so one Filter carries every conjunct.',
  rewrite(root) {
    return transformUp(root, (n) => {
      if (n.kind !== 'Filter' || n.input.kind !== 'Filter') return n;
      const inner = n.input;
      return filter(inner.input, andAll([...conjuncts(inner.condition), ...conjuncts(n.condition)]));
    });
  },
};

/**
 * push-down-limit: Limit over Sort becomes a top-k Sort (fetch/offset), Limit over Limit combines,
 * Limit moves below Project, Limit over Values slices the rows, Limit(0) becomes an empty Values, and
 * a Limit over UNION ALL also caps each branch (the outer Limit stays). Runs before prune-columns;
 * the empty Values it makes feed remove-empty-relations.
 */
import { limit, project, sort, transformDown, union, values, type Limit, type RelNode } from '../../relnode/rel.js';
import { emptyLike, type Rule } from '../rule.js';

/** Moves limits towards the sources and into sorts, top-down. */
export const pushDownLimit: Rule = {
  name: 'push-down-limit',
  description: 'Turns Limit over Sort into a top-k Sort, pushes Limit through Project and into UNION ALL branches, Limit(0) into empty Values; before prune-columns and remove-empty-relations.',
  rewrite(root) {
    return transformDown(root, (n) => (n.kind === 'Limit' ? pushLimit(n) : n));
  },
};

function pushLimit(l: Limit): RelNode {
  if (l.fetch === 0) return emptyLike(l);
  const input = l.input;
  switch (input.kind) {
    case 'Sort': {
      const c = combine(l, input.fetch, input.offset ?? 0);
      return sort(input.input, input.keys, c.fetch, c.offset);
    }
    case 'Limit': {
      const c = combine(l, input.fetch, input.offset);
      return limit(input.input, c.fetch, c.offset);
    }
    case 'Project':
      return project(limit(input.input, l.fetch, l.offset), input.exprs, input.schema.fields.map((f) => f.name));
    case 'Values':
      return values(input.rows.slice(l.offset, l.offset + l.fetch), input.schema);
    case 'Union': {
      if (!input.all) return l;
      const cap = l.fetch + l.offset;
      const branches = input.inputs.map((b) => (maxRows(b) <= cap ? b : limit(b, cap)));
      if (branches.every((b, i) => b === input.inputs[i])) return l;
      return limit(union(branches, true), l.fetch, l.offset);
    }
    default:
      return l;
  }
}

/** The rows of `outer` (a Limit) applied after skipping `innerOffset` rows and keeping at most `innerFetch`. */
function combine(outer: Limit, innerFetch: number | undefined, innerOffset: number): { fetch: number; offset: number } {
  const offset = innerOffset + outer.offset;
  const fetch = innerFetch === undefined ? outer.fetch : Math.max(0, Math.min(outer.fetch, innerFetch - outer.offset));
  return { fetch, offset };
}

/** An upper bound on the rows a subtree yields (Infinity when unknown), read through row-preserving nodes. */
function maxRows(n: RelNode): number {
  switch (n.kind) {
    case 'Values': return n.rows.length;
    case 'Limit': return Math.min(n.fetch, maxRows(n.input));
    case 'Sort': return Math.min(n.fetch ?? Infinity, maxRows(n.input));
    case 'Project': case 'Filter': case 'Distinct': case 'Window': return maxRows(n.input);
    case 'Aggregate': return n.groupKeys.length === 0 ? 1 : maxRows(n.input);
    default: return Infinity;
  }
}

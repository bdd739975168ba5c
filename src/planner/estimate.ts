/**
 * Rough cardinality estimates, used to pick a hash join's build side. Known
 * row counts come from sources; operators apply fixed selectivities.
 */
import type { RelNode } from '../relnode/rel.js';
import type { TableSource } from '../io/source.js';
import { assertNever } from '../relnode/rex.js';

const UNKNOWN_ROWS = 1_000_000;

/** Estimated output rows of a plan. */
export function estimateRows(n: RelNode): number {
  switch (n.kind) {
    case 'Scan': return (n.table.handle as TableSource).numRows ?? UNKNOWN_ROWS;
    case 'Values': return n.rows.length;
    case 'Filter': return estimateRows(n.input) * 0.25;
    case 'Project': case 'Distinct': case 'CacheSink': return estimateRows(n.input);
    case 'Aggregate': return n.groupKeys.length === 0 ? 1 : estimateRows(n.input) * 0.1;
    case 'Join': {
      const l = estimateRows(n.left);
      const r = estimateRows(n.right);
      return n.joinType === 'semi' || n.joinType === 'anti' ? l * 0.5 : n.joinType === 'cross' ? l * r : Math.max(l, r);
    }
    case 'Sort': return n.fetch !== undefined ? Math.min(n.fetch, estimateRows(n.input)) : estimateRows(n.input);
    case 'Limit': return Math.min(n.fetch, estimateRows(n.input));
    case 'GroupLimit': return estimateRows(n.input);
    case 'Union': return n.inputs.reduce((s, i) => s + estimateRows(i), 0);
    case 'SetOp': case 'Correlate': return estimateRows(n.left);
    case 'CacheSource': return estimateRows(n.original);
    default: return assertNever(n, 'RelNode');
  }
}

/**
 * A DATE compared with a constant TIMESTAMP compares as DATEs. DATE ±
 * INTERVAL is a TIMESTAMP (DuckDB's type), so `l_shipdate <= DATE
 * '1998-12-01' - INTERVAL '90' DAY` would otherwise cast every l_shipdate to
 * TIMESTAMP and lose the DATE column's statistics, pruning and fast kernels.
 * The rewrite is exact: with t the timestamp in ms and M a day's ms,
 * d·M <= t ⇔ d <= floor(t/M), d·M < t ⇔ d < ceil(t/M) (and mirrored for > >=);
 * = and <> only when t is a midnight (otherwise the generic cast stays).
 */
import { call, literal, type RexNode } from '../../relnode/rex.js';
import { MS_PER_DAY } from '../../relnode/types.js';

const FLIP: Readonly<Record<string, string>> = { lt: 'gt', le: 'ge', gt: 'lt', ge: 'le', eq: 'eq', ne: 'ne' };

/** `fn(args)` with a DATE operand and a constant TIMESTAMP one, as a DATE comparison; undefined when it does not apply. */
export function narrowDateComparison(fn: string, args: readonly RexNode[]): RexNode | undefined {
  if (!(fn in FLIP) || args.length !== 2) return undefined;
  let [d, t] = args as [RexNode, RexNode];
  let op = fn;
  if (d.type === 'TIMESTAMP' && t.type === 'DATE') { [d, t] = [t, d]; op = FLIP[fn]!; }
  if (d.type !== 'DATE' || t.type !== 'TIMESTAMP' || t.kind !== 'Literal' || typeof t.value !== 'number') return undefined;
  const ms = t.value;
  const lo = Math.floor(ms / MS_PER_DAY), hi = Math.ceil(ms / MS_PER_DAY);
  const date = (days: number): RexNode => literal(days, 'DATE');
  switch (op) {
    case 'le': return call('le', [d, date(lo)], 'BOOLEAN');
    case 'gt': return call('gt', [d, date(lo)], 'BOOLEAN');
    case 'lt': return call('lt', [d, date(hi)], 'BOOLEAN');
    case 'ge': return call('ge', [d, date(hi)], 'BOOLEAN');
    default: return lo === hi ? call(op, [d, date(lo)], 'BOOLEAN') : undefined;
  }
}

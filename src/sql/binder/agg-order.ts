/**
 * Ordered aggregates, `agg(x ORDER BY y)`. Decision: eddy does not sort an
 * aggregate's input, so it accepts ORDER BY only where the result provably
 * cannot depend on the order of the rows, and rejects it everywhere else
 * with an error saying so — never an answer that silently ignores it.
 *
 * Order-independent: count, min, max (any type), and sum / avg over INTEGER
 * or BIGINT (their accumulation is exact, agg-int-sum.ts, and a BIGINT
 * overflow is detected on the exact total, whatever the order). Order-
 * dependent: sum / avg over DOUBLE (float addition is not associative).
 * string_agg is ordered for real: its state sorts by the keys
 * (agg-collect.ts in exec). bool_and/or, median, quantiles and
 * approx_count_distinct do not depend on the order; mode and arg_min/max
 * pick among ties by the order, so they reject it.
 */
import type { AggFn } from '../../relnode/functions.js';
import type { SqlType } from '../../relnode/types.js';

/** Why `name(<argType> ORDER BY ...)` is rejected, or undefined when its result cannot depend on the order. */
export function orderedAggregateError(name: string, fn: AggFn, argType: SqlType | undefined): string | undefined {
  switch (fn) {
    case 'count': case 'count_star': case 'min': case 'max':
    case 'bool_and': case 'bool_or': case 'median': case 'quantile_cont': case 'quantile_disc': case 'approx_count_distinct':
      return undefined;
    case 'string_agg':
      return undefined; // its state sorts the values by the keys
    case 'sum': case 'avg':
      if (argType === 'INTEGER' || argType === 'BIGINT' || argType === 'NULL') return undefined;
      return `ORDER BY inside ${name}(...) is not supported over ${argType ?? 'no argument'}: the result depends on the order of the rows (floating-point addition), and eddy does not sort an aggregate's input; remove ORDER BY, or sum an INTEGER/BIGINT expression`;
    default:
      return `ORDER BY inside ${name}(...) is not supported: eddy does not sort an aggregate's input`;
  }
}

/**
 * The NULL placement an ORDER BY item gets when it does not say (SET
 * default_null_order): shared by query ORDER BY (order.ts) and ordered
 * aggregates (agg-call.ts).
 */
import type { BindContext } from './context.js';

/** NULLS FIRST or LAST when ORDER BY does not say: SET default_null_order (DuckDB's setting), else NULLS LAST. */
export function defaultNullsFirst(ctx: BindContext, desc: boolean): boolean {
  switch (ctx.sql.catalog.setting('default_null_order')) {
    case 'nulls_first': return true;
    case 'nulls_first_on_asc_last_on_desc': return !desc;
    case 'nulls_last_on_asc_first_on_desc': return desc;
    default: return false;
  }
}

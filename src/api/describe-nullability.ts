/**
 * Which output columns of a query DESCRIBE reports as NOT NULL, following
 * DuckDB: a column is NOT NULL only when it is a plain reference, through
 * projections of column references, filters, sorts, limits and inner / cross
 * joins (or the kept side of an outer or semi join), to a NOT NULL column of
 * a table. Any computed expression, aggregate output (group keys included) or
 * other operator gives a nullable column — DuckDB says YES there too. One
 * deliberate difference: the null-padded side of an outer join is nullable
 * (DuckDB 1.5 keeps NO there, although the column then holds NULLs). Cheap:
 * one walk of the bound plan, no execution.
 */
import type { RelNode } from '../relnode/rel.js';

/** Per output column of `plan`: is it declared NOT NULL? */
export function notNullColumns(plan: RelNode): boolean[] {
  const width = plan.schema.fields.length;
  const none = (): boolean[] => new Array<boolean>(width).fill(false);
  switch (plan.kind) {
    case 'Scan': return plan.schema.fields.map((f) => !f.nullable);
    case 'Filter': case 'Sort': case 'Limit': return notNullColumns(plan.input);
    case 'Project': {
      const inner = notNullColumns(plan.input);
      return plan.exprs.map((e) => e.kind === 'InputRef' && inner[e.index] === true);
    }
    case 'Join': {
      const l = notNullColumns(plan.left), r = notNullColumns(plan.right);
      switch (plan.joinType) {
        case 'inner': case 'cross': return [...l, ...r];
        case 'left': return [...l, ...r.map(() => false)];
        case 'right': return [...l.map(() => false), ...r];
        case 'semi': case 'anti': return l.length === width ? l : none();
        default: return none();
      }
    }
    default: return none();
  }
}

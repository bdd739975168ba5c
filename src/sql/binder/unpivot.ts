/**
 * UNPIVOT planned with existing operators: a UNION ALL with one branch per entry, each a filter (unless
 * INCLUDE NULLS) and a projection of the source:
 *
 *   UNPIVOT t ON jan, feb INTO NAME month VALUE sales
 *   = SELECT <other columns>, 'jan' AS month, jan AS sales FROM t WHERE jan IS NOT NULL
 *     UNION ALL SELECT <other columns>, 'feb', feb FROM t WHERE feb IS NOT NULL
 *
 * Decision: a branch per entry rather than reading the source once through a cross join with a VALUES
 * list of the entries and a CASE picking each row's column (DuckDB's unnest of lists). Measured with
 * bench/pivot.ts (4 columns of lineitem, SF 0.1, p1): the cross join cost 990 ms of CPU, the union 290 ms
 * (a filter and a projection per branch are columnar; the nested-loop join and the CASE are per row); over
 * a join source, which each branch computes again, 460 ms against 490. Rows come entry by entry, not
 * row by row as in DuckDB (unordered anyway without ORDER BY).
 *
 * DuckDB's rules: the columns an entry reads leave the output, the others keep their order, then the name
 * column, then the value columns; the values of an entry are cast to the columns' common type (an
 * INTEGER and a DOUBLE give DOUBLE; an INTEGER and a VARCHAR are an error); with several value columns
 * (`ON (a, b) AS x ... VALUE v1, v2`) a row is dropped when any of its values is NULL.
 */
import * as rel from '../../relnode/rel.js';
import { andAll, call, cast, inputRef, literal, rexInputs, type RexNode } from '../../relnode/rex.js';
import { commonType, type SqlType } from '../../relnode/types.js';
import type { FromItem, UnpivotItem } from '../ast.js';
import { sqlError, type BindContext } from './context.js';
import { bindExpr } from './expr.js';
import type { BoundRel, ScopeColumn } from './scope.js';

type BindFrom = (ctx: BindContext, item: FromItem) => BoundRel;

/** Binds an UNPIVOT item (`bindFrom` binds its source; passed in so that this file need not import from.ts). */
export function bindUnpivot(ctx: BindContext, item: UnpivotItem, bindFrom: BindFrom): BoundRel {
  const src = bindFrom(ctx, item.source);
  const width = item.valueColumns.length;
  const scope = { ctx, cols: src.cols, clause: 'UNPIVOT' };
  const read = new Set<number>();
  const entries = item.entries.map((e) => {
    if (e.exprs.length !== width) {
      throw sqlError(ctx.sql, e.pos, `this UNPIVOT entry has ${e.exprs.length} column${e.exprs.length === 1 ? '' : 's'}, but there ${width === 1 ? 'is 1 value column' : `are ${width} value columns`} (${item.valueColumns.join(', ')}): give each entry one column per value column`);
    }
    const exprs = e.exprs.map((x) => bindExpr(scope, x));
    for (const x of exprs) rexInputs(x, read);
    return { exprs, name: e.alias ?? entryName(ctx, e, src.cols) };
  });
  const types = item.valueColumns.map((v, j) => valueType(ctx, item, entries.map((e) => e.exprs[j]!), v));
  const kept = src.cols.map((c, i) => ({ c, i })).filter((x) => !read.has(x.i) && !x.c.internal);
  const names = [...kept.map((x) => x.c.name), item.nameColumn, ...item.valueColumns];
  const branches = entries.map((e) => {
    const values = e.exprs.map((x, j) => cast(x, types[j]!));
    const input = item.includeNulls ? src.plan : rel.filter(src.plan, andAll(values.map((v) => call('is_not_null', [v], 'BOOLEAN'))));
    const exprs: RexNode[] = [...kept.map((x) => inputRef(x.i, x.c.type, x.c.name)), literal(e.name, 'VARCHAR'), ...values];
    return rel.project(input, exprs, names);
  });
  const plan = branches.length === 1 ? branches[0]! : rel.union(branches, true);
  return { plan, cols: plan.schema.fields.map((f) => ({ name: f.name, type: f.type, nullable: f.nullable })) };
}

/** An entry's name without AS: its column's name (`jan`), or its columns' names joined by `_`. */
function entryName(ctx: BindContext, e: UnpivotItem['entries'][number], cols: readonly ScopeColumn[]): string {
  const parts = e.exprs.map((x) => {
    if (x.kind !== 'column') throw sqlError(ctx.sql, x.pos, 'an UNPIVOT entry that is not a column needs a name: write it with AS name');
    const found = cols.find((c) => !c.internal && c.name.toLowerCase() === x.name.toLowerCase());
    return found?.name ?? x.name;
  });
  return parts.join('_');
}

/** The common type of one value column's expressions, or a clear error when they do not mix. */
function valueType(ctx: BindContext, item: UnpivotItem, exprs: readonly RexNode[], column: string): SqlType {
  let t: SqlType | undefined = 'NULL';
  for (const x of exprs) {
    const next: SqlType | undefined = commonType(t, x.type);
    if (next === undefined) {
      const list = [...new Set(exprs.map((e) => e.type))].join(', ');
      throw sqlError(ctx.sql, item.pos, `cannot UNPIVOT columns of types ${list} into one value column "${column}": cast them to one type first (CAST(x AS VARCHAR))`);
    }
    t = next;
  }
  return t === 'NULL' ? 'VARCHAR' : t;
}

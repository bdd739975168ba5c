/**
 * PIVOT lowered to two grouped SELECTs, bound by the ordinary query binder (DuckDB's shape, whose second
 * step is a PhysicalPivot operator over lists instead):
 *
 *   PIVOT t ON year IN (2000, 2010) USING sum(pop) GROUP BY country
 *   = SELECT country, max(CASE WHEN y = 2000 THEN v END) AS "2000", max(CASE WHEN y = 2010 THEN v END) AS "2010"
 *     FROM (SELECT country, year AS y, sum(pop) AS v FROM t GROUP BY country, year) GROUP BY country
 *
 * The first aggregates the input once by the groups and the ON values; the second spreads its (small) result
 * into columns, each cell the one row of its group and value, or when there is none the aggregate over no
 * rows: NULL for sum, 0 for count (`count(*) + 1` gives 1), as in DuckDB. Decision: not one GROUP BY with
 * a FILTER per cell (`sum(pop) FILTER (WHERE year = 2000)`), which evaluates a CASE per input row and cell:
 * bench/pivot.ts (3 values × 2 aggregates over lineitem, SF 0.1, p1) measured ~210 ms of CPU for it
 * against ~15 ms for the grouped input alone, and it grows with the number of columns.
 * DuckDB's shapes and names: without GROUP BY the rows are grouped by every column ON and USING do not
 * name; several ON items make a column per combination of their values (`NL_2000`); several aggregates
 * name their columns `<value>_<alias or aggregate>`; without USING the aggregate is count(*); a NULL in an
 * IN list matches the NULL rows. Without an IN list the values are the distinct non-NULL values of the ON
 * expression, found by a query before binding (pivot-values.ts).
 */
import type { SqlType } from '../../relnode/types.js';
import type { Expr, FromItem, PivotItem, PivotOn, Pos, SelectItem, SelectQuery } from '../ast.js';
import { registryEntry } from '../../relnode/function-registry.js';
import { isAggregateName } from '../functions.js';
import { containsAggregate, exprChildren, exprWithChildren } from './ast-walk.js';
import { sqlError, type BindContext } from './context.js';
import { displayName } from './names.js';
import { MAX_PIVOT_COLUMNS, PivotValuesNeeded } from './pivot-values.js';
import { lookupColumn, notFoundMessage, type BoundQuery, type BoundRel, type ScopeColumn } from './scope.js';

type BindFrom = (ctx: BindContext, item: FromItem) => BoundRel;

/** One output column group: the condition rows must meet, and the name's prefix (`2000`, `NL_2000`). */
interface Cell {
  readonly when: Expr | undefined;
  readonly name: string;
}

/** Binds a PIVOT item (`bindFrom` binds its source; passed in so that this file need not import from.ts). */
export function bindPivot(ctx: BindContext, item: PivotItem, bindFrom: BindFrom): BoundQuery {
  const src = bindFrom(ctx, item.source);
  const visible = src.cols.filter((c) => !c.internal && !c.hidden);
  for (const u of item.using) {
    if (!containsAggregate(u.expr)) throw sqlError(ctx.sql, u.pos, `PIVOT ... USING takes aggregates (sum(x), count(*), max(x) AS m), not ${displayName(u.expr)}`);
  }
  const groups = groupColumns(ctx, item, visible);
  const pos = item.pos;
  const ref = (name: string, qualifier?: string): Expr => ({ kind: 'column', name, ...(qualifier === undefined ? {} : { qualifier }), pos });
  const sourceGroups = groups.map((c) => ref(c.name, c.qualifier));
  const groupItems = (exprs: readonly Expr[], aliases: readonly string[]): SelectItem[] => exprs.map((expr, i) => ({ kind: 'expr', expr, alias: aliases[i]!, pos }));
  const groupNames = groups.map((c) => c.name);
  if (item.on.length === 0) {
    const items = item.using.map((u): SelectItem => ({ kind: 'expr', expr: u.expr, ...(u.alias === undefined ? {} : { alias: u.alias }), pos: u.pos }));
    return ctx.bindQuery(ctx, { kind: 'select', distinct: false, items: [...groupItems(sourceGroups, groupNames), ...items], from: [item.source], ...(groups.length === 0 ? {} : { groupBy: sourceGroups }), pos });
  }
  // Step 1: one row per group and combination of ON values, with every aggregate. Its columns have names of
  // their own (two group columns may share a name, `a.id` and `b.id`).
  const groupCols = groups.map((_, i) => `__pivot_group${i}`);
  const onCols = item.on.map((_, i) => `__pivot_on${i}`);
  const valueCols = item.using.map((_, i) => `__pivot_value${i}`);
  const inner: SelectQuery = {
    kind: 'select',
    distinct: false,
    items: [
      ...groupItems(sourceGroups, groupCols),
      ...item.on.map((o, i): SelectItem => ({ kind: 'expr', expr: o.expr, alias: onCols[i]!, pos: o.pos })),
      ...item.using.map((u, i): SelectItem => ({ kind: 'expr', expr: u.expr, alias: valueCols[i]!, pos: u.pos })),
    ],
    from: [item.source],
    groupBy: [...sourceGroups, ...item.on.map((o) => o.expr)],
    pos,
  };
  const onTypes = ctx.bindQuery(ctx, inner).plan.schema.fields.slice(groups.length, groups.length + item.on.length).map((f) => f.type);
  // Step 2: a column per combination of values (and aggregate), from that group's one row.
  let cells: Cell[] = [{ when: undefined, name: '' }];
  item.on.forEach((on, i) => {
    const values = valuesOf(ctx, item, on, ref(onCols[i]!), onTypes[i]!);
    cells = cells.flatMap((c) => values.map((v) => ({
      when: c.when === undefined ? v.when : { kind: 'binary', op: 'AND', left: c.when, right: v.when, pos: on.pos } satisfies Expr,
      name: c.name === '' ? v.name : `${c.name}_${v.name}`,
    })));
    if (cells.length * item.using.length > MAX_PIVOT_COLUMNS) throw tooMany(ctx, pos, cells.length * item.using.length);
  });
  const many = item.using.length > 1;
  const cellItems: SelectItem[] = cells.flatMap((cell) => item.using.map((u, i): SelectItem => {
    const aggName = u.alias ?? displayName(u.expr);
    const name = many || u.alias !== undefined ? `${cell.name}_${aggName}` : cell.name;
    return { kind: 'expr', expr: cellValue(u.expr, ref(valueCols[i]!), cell.when!), alias: name, pos: u.pos };
  }));
  const from: FromItem = { kind: 'subquery', query: inner, alias: '__pivot', pos };
  const outerGroups = groupCols.map((n) => ref(n));
  return ctx.bindQuery(ctx, { kind: 'select', distinct: false, items: [...groupItems(outerGroups, groupNames), ...cellItems], from: [from], ...(groups.length === 0 ? {} : { groupBy: outerGroups }), pos });
}

/**
 * One cell: the value of the group's row for the cell's values (at most one row matches), or `using` over no
 * rows when none does. That is NULL for a lone aggregate other than a count, which `max` gives by itself.
 */
function cellValue(using: Expr, value: Expr, when: Expr): Expr {
  const pos = using.pos;
  const call = (name: string, arg: Expr): Expr => ({ kind: 'function', name, args: [arg], distinct: false, star: false, pos });
  const picked = call('max', { kind: 'case', whens: [{ when, then: value }], pos });
  const empty = overNoRows(using);
  if (empty.kind === 'literal' && empty.literal === 'null') return picked;
  const one: Expr = { kind: 'literal', literal: 'number', value: '1', pos };
  const zero: Expr = { kind: 'literal', literal: 'number', value: '0', pos };
  const present: Expr = { kind: 'binary', op: '>', left: call('count', { kind: 'case', whens: [{ when, then: one }], pos }), right: zero, pos };
  return { kind: 'case', whens: [{ when: present, then: picked }], else: empty, pos };
}

/** Aggregates whose value over no rows is 0, not NULL. */
const ZERO_WHEN_EMPTY = new Set(['count', 'count_star', 'approx_count_distinct']);

/** `e` over no rows: each aggregate call replaced by its value for no rows (0 for the counts, else NULL). */
function overNoRows(e: Expr): Expr {
  if (e.kind === 'function' && e.over === undefined && isAggregateName(e.name)) {
    const zero = ZERO_WHEN_EMPTY.has(registryEntry(e.name)?.name ?? e.name);
    return zero ? { kind: 'cast', arg: { kind: 'literal', literal: 'number', value: '0', pos: e.pos }, type: 'BIGINT', pos: e.pos } : { kind: 'literal', literal: 'null', value: null, pos: e.pos };
  }
  const ch = exprChildren(e);
  return ch.length === 0 ? e : exprWithChildren(e, ch.map(overNoRows));
}

/** GROUP BY's columns, or every source column that ON and USING do not name (DuckDB's implicit GROUP BY). */
function groupColumns(ctx: BindContext, item: PivotItem, visible: readonly ScopeColumn[]): ScopeColumn[] {
  if (item.groupBy !== undefined) {
    return item.groupBy.map((g) => {
      const f = lookupColumn(visible, g.name);
      if (f.kind !== 'found') throw sqlError(ctx.sql, g.pos, f.kind === 'ambiguous' ? `PIVOT GROUP BY column "${g.name}" is ambiguous` : notFoundMessage(visible, g.name));
      return visible[f.index]!;
    });
  }
  const named = new Set<string>();
  const collect = (e: Expr): void => {
    if (e.kind === 'column') named.add(e.name.toLowerCase());
    exprChildren(e).forEach(collect);
  };
  item.on.forEach((o) => collect(o.expr));
  item.using.forEach((u) => collect(u.expr));
  return visible.filter((c) => !named.has(c.name.toLowerCase()));
}

/** The values of one ON item, each with its condition on `subject` (the item's column in step 1) and its name: the IN list, or the distinct values. */
function valuesOf(ctx: BindContext, item: PivotItem, on: PivotOn, subject: Expr, onType: SqlType): { when: Expr; name: string }[] {
  const type = onType === 'NULL' ? 'VARCHAR' : onType;
  const eq = (value: Expr, pos: Pos): Expr => ({ kind: 'binary', op: '=', left: subject, right: value, pos });
  if (on.values !== undefined) {
    const seen = new Set<string>();
    return on.values.map((v) => {
      const name = v.alias ?? constantText(ctx, v.value);
      if (seen.has(name)) throw sqlError(ctx.sql, v.pos, `the value "${name}" is given twice in PIVOT ... IN (...)`);
      seen.add(name);
      const x = v.value;
      // A NULL in the list matches the NULL rows (DuckDB compares as IS NOT DISTINCT FROM); a string is cast to the ON type ('2000' for a year).
      if (x.kind === 'literal' && x.literal === 'null') return { when: { kind: 'isNull', arg: subject, negated: false, pos: v.pos }, name };
      const value: Expr = x.kind === 'literal' && x.literal === 'string' && type !== 'VARCHAR' ? { kind: 'cast', arg: x, type, pos: v.pos } : x;
      return { when: eq(value, v.pos), name };
    });
  }
  if (ctx.sql.pivotValues === undefined) {
    throw sqlError(ctx.sql, on.pos, `PIVOT ON ${displayName(on.expr)} without IN (...) reads its distinct values first, which only a statement run by env.executeSql() (or the REPL) can do, not env.sql(), a view or a prepared statement: list the values, e.g. ON ${displayName(on.expr)} IN (...)`);
  }
  const plan = ctx.bindQuery(ctx, distinctValuesQuery(item, on)).plan;
  const found = ctx.sql.pivotValues.get(on.expr);
  if (found === undefined) throw new PivotValuesNeeded(on.expr, plan);
  if (found.length > MAX_PIVOT_COLUMNS) throw tooMany(ctx, on.pos, found.length);
  return found.map((text) => ({
    when: eq({ kind: 'cast', arg: { kind: 'literal', literal: 'string', value: text, pos: on.pos }, type, pos: on.pos }, on.pos),
    name: text,
  }));
}

/** `SELECT DISTINCT e, CAST(e AS VARCHAR) FROM source WHERE e IS NOT NULL ORDER BY 1 LIMIT n`: the values, as text in the second column. */
function distinctValuesQuery(item: PivotItem, on: PivotOn): SelectQuery {
  const pos = on.pos;
  return {
    kind: 'select',
    distinct: true,
    items: [
      { kind: 'expr', expr: on.expr, alias: 'value', pos },
      { kind: 'expr', expr: { kind: 'cast', arg: on.expr, type: 'VARCHAR', pos }, alias: 'text', pos },
    ],
    from: [item.source],
    where: { kind: 'isNull', arg: on.expr, negated: true, pos },
    orderBy: [{ expr: { kind: 'literal', literal: 'number', value: '1', pos }, desc: false }],
    limit: { kind: 'literal', literal: 'number', value: String(MAX_PIVOT_COLUMNS + 1), pos },
    pos,
  };
}

/** The column name DuckDB gives an IN-list value: its text (`2000`, `NL`, `NULL`, `2020-01-01`). */
function constantText(ctx: BindContext, e: Expr): string {
  if (e.kind === 'literal' && e.literal !== 'parameter') return e.value ?? 'NULL';
  if (e.kind === 'unary' && e.op === '-' && e.arg.kind === 'literal' && e.arg.literal === 'number') return `-${e.arg.value ?? ''}`;
  throw sqlError(ctx.sql, e.pos, `PIVOT ... IN (...) takes constant values (numbers, strings, dates, NULL), or give the column a name: ${displayName(e)} AS name`);
}

function tooMany(ctx: BindContext, pos: Pos, n: number): Error {
  return sqlError(ctx.sql, pos, `PIVOT would make ${n} columns, more than ${MAX_PIVOT_COLUMNS}: list fewer values with ON col IN (...), or group by the column instead`);
}

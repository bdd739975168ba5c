/**
 * PIVOT lowered to a grouped SELECT with conditional aggregates, bound by the ordinary query binder:
 *
 *   PIVOT t ON year IN (2000, 2010) USING sum(pop) GROUP BY country
 *   = SELECT country, sum(pop) FILTER (WHERE year = 2000) AS "2000", sum(pop) FILTER (WHERE year = 2010) AS "2010"
 *     FROM t GROUP BY country
 *
 * so the planner, the hash aggregate and the workers need nothing new (DuckDB instead aggregates into lists
 * and spreads them with a PhysicalPivot operator). FILTER is desugared as everywhere (cst-agg-clauses.ts),
 * so an empty cell is what the aggregate gives for no rows: NULL for sum, 0 for count, as in DuckDB.
 * DuckDB's shapes and names: without GROUP BY the rows are grouped by every column ON and USING do not
 * name; several ON items make a column per combination of their values (`NL_2000`); several aggregates
 * name their columns `<value>_<alias or aggregate>`; without USING the aggregate is count(*); a NULL in an
 * IN list matches the NULL rows. Without an IN list the values are the distinct non-NULL values of the ON expression,
 * found by a query before binding (pivot-values.ts).
 */
import type { Expr, FromItem, PivotItem, PivotOn, Pos, SelectItem, SelectQuery } from '../ast.js';
import { AggClauseError, desugarAggClauses } from '../cst-agg-clauses.js';
import { isAggregateName } from '../functions.js';
import { containsAggregate, exprChildren } from './ast-walk.js';
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
  let cells: Cell[] = [{ when: undefined, name: '' }];
  for (const on of item.on) {
    const values = valuesOf(ctx, item, on);
    cells = cells.flatMap((c) => values.map((v) => ({
      when: c.when === undefined ? v.when : { kind: 'binary', op: 'AND', left: c.when, right: v.when, pos: on.pos } satisfies Expr,
      name: c.name === '' ? v.name : `${c.name}_${v.name}`,
    })));
    if (cells.length * item.using.length > MAX_PIVOT_COLUMNS) throw tooMany(ctx, item.pos, cells.length * item.using.length);
  }
  if (item.on.length === 0) cells = [{ when: undefined, name: '' }];
  const many = item.using.length > 1;
  const aggItems: SelectItem[] = cells.flatMap((cell) => item.using.map((u): SelectItem => {
    const expr = cell.when === undefined ? u.expr : filtered(ctx, u.expr, cell.when);
    const aggName = u.alias ?? displayName(u.expr);
    const name = cell.name === '' ? aggName : many ? `${cell.name}_${aggName}` : u.alias !== undefined && item.on.length > 0 ? `${cell.name}_${u.alias}` : cell.name;
    return { kind: 'expr', expr, alias: name, pos: u.pos };
  }));
  const groupExprs: Expr[] = groups.map((c) => ({ kind: 'column', name: c.name, ...(c.qualifier === undefined ? {} : { qualifier: c.qualifier }), pos: item.pos }));
  const query: SelectQuery = {
    kind: 'select',
    distinct: false,
    items: [...groupExprs.map((e, i): SelectItem => ({ kind: 'expr', expr: e, alias: groups[i]!.name, pos: item.pos })), ...aggItems],
    from: [item.source],
    ...(groupExprs.length > 0 ? { groupBy: groupExprs } : {}),
    pos: item.pos,
  };
  return ctx.bindQuery(ctx, query);
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

/** The values of one ON item, each with its condition and its name: the IN list, or the distinct values. */
function valuesOf(ctx: BindContext, item: PivotItem, on: PivotOn): { when: Expr; name: string }[] {
  const eq = (value: Expr, pos: Pos): Expr => ({ kind: 'binary', op: '=', left: on.expr, right: value, pos });
  if (on.values !== undefined) {
    // A NULL in the list matches the NULL rows (DuckDB compares as IS NOT DISTINCT FROM).
    const isNull = (v: Expr): boolean => v.kind === 'literal' && v.literal === 'null';
    return on.values.map((v) => ({
      when: isNull(v.value) ? { kind: 'isNull', arg: on.expr, negated: false, pos: v.pos } : eq(v.value, v.pos),
      name: v.alias ?? constantText(ctx, v.value),
    }));
  }
  if (ctx.sql.pivotValues === undefined) {
    throw sqlError(ctx.sql, on.pos, `PIVOT ON ${displayName(on.expr)} without IN (...) reads its distinct values first, which only a statement run by env.executeSql() (or the REPL) can do, not env.sql(), a view or a prepared statement: list the values, e.g. ON ${displayName(on.expr)} IN (...)`);
  }
  const plan = ctx.bindQuery(ctx, distinctValuesQuery(item, on)).plan;
  const found = ctx.sql.pivotValues.get(on.expr);
  if (found === undefined) throw new PivotValuesNeeded(on.expr, plan);
  if (found.length > MAX_PIVOT_COLUMNS) throw tooMany(ctx, on.pos, found.length);
  const valueType = plan.schema.fields[0]!.type;
  const type = valueType === 'NULL' ? 'VARCHAR' : valueType;
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

/** `e` with every aggregate call in it restricted to the rows where `when` holds (FILTER (WHERE when)). */
function filtered(ctx: BindContext, e: Expr, when: Expr): Expr {
  if (e.kind === 'function' && e.over === undefined && isAggregateName(e.name)) {
    try {
      return desugarAggClauses({ ...e, filter: when }, true);
    } catch (err) {
      if (err instanceof AggClauseError) throw sqlError(ctx.sql, err.pos, `PIVOT ... USING ${displayName(e)}: ${err.message.replace(/^FILTER \(WHERE \.\.\.\) is not supported/, 'not supported in a PIVOT')}`);
      throw err;
    }
  }
  const ch = exprChildren(e);
  if (ch.length === 0) return e;
  const mapped = ch.map((c) => filtered(ctx, c, when));
  return withChildren(e, mapped);
}

/** Rebuilds an expression with new direct children (in exprChildren's order). */
function withChildren(e: Expr, ch: readonly Expr[]): Expr {
  switch (e.kind) {
    case 'binary': return { ...e, left: ch[0]!, right: ch[1]! };
    case 'unary': case 'isNull': case 'cast': return { ...e, arg: ch[0]! };
    case 'between': return { ...e, arg: ch[0]!, low: ch[1]!, high: ch[2]! };
    case 'like': return { ...e, arg: ch[0]!, pattern: ch[1]!, ...(e.escape ? { escape: ch[2]! } : {}) };
    case 'inList': return { ...e, arg: ch[0]!, list: ch.slice(1) };
    case 'inSubquery': return { ...e, arg: ch[0]! };
    case 'case': {
      let i = 0;
      const operand = e.operand ? ch[i++]! : undefined;
      const whens = e.whens.map(() => ({ when: ch[i++]!, then: ch[i++]! }));
      const otherwise = e.else ? ch[i++]! : undefined;
      return { kind: 'case', whens, pos: e.pos, ...(operand ? { operand } : {}), ...(otherwise ? { else: otherwise } : {}) };
    }
    case 'function': return e.over ? e : { ...e, args: ch };
    default: return e;
  }
}

function tooMany(ctx: BindContext, pos: Pos, n: number): Error {
  return sqlError(ctx.sql, pos, `PIVOT would make ${n} columns, more than ${MAX_PIVOT_COLUMNS}: list fewer values with ON col IN (...), or group by the column instead`);
}

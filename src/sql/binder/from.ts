/**
 * FROM: tables (CTEs first, then the catalog), derived tables, table
 * functions and joins (ON, USING, NATURAL, CROSS, comma lists) → a plan and
 * the scope of its columns, qualified by table name or alias. Items after
 * the first may be lateral (lateral.ts).
 */
import * as rel from '../../relnode/rel.js';
import { andAll, inputRef, literal, type RexNode } from '../../relnode/rex.js';
import { bindCall } from './call.js';
import { formatRex } from '../../relnode/explain.js';
import { field, schemaOf } from '../../relnode/types.js';
import type { FromItem, Pos } from '../ast.js';
import { cteNames, lookupCte, sqlError, type BindContext } from './context.js';
import { atPos, bindCondition } from './expr.js';
import { colsOf, lookupColumn, suggest, type BoundRel, type ScopeColumn } from './scope.js';
import { bindMlFunction, isMlFunction } from './ml-functions.js';
import { checkTableFunctionName, syncTableFunction } from './table-functions.js';
import { bindRightSide, lateralJoin } from './lateral.js';
import { bindComputedSeries, isComputedSeries } from './lateral-series.js';
import { withSample } from './sample.js';
import { bindPivot } from './pivot.js';
import { bindUnpivot } from './unpivot.js';
import { ValidationError } from '../../relnode/errors.js';
import { informationSchemaSchema, parseTableName } from '../information-schema.js';

/** The relation of a FROM list: the items cross-joined in order (one dummy row when empty). */
export function bindFromList(ctx: BindContext, items: readonly FromItem[]): BoundRel {
  if (items.length === 0) return dual();
  let acc = bindFromItem(ctx, items[0]!);
  for (const it of items.slice(1)) {
    const r = bindRightSide(ctx, acc, it, bindFromItem);
    acc = r.lateral
      ? lateralJoin(ctx, acc, r.rel, 'cross', undefined, it.pos)
      : { plan: rel.join(acc.plan, r.rel.plan, 'cross', literal(true, 'BOOLEAN')), cols: [...acc.cols, ...r.rel.cols] };
  }
  return acc;
}

/** One row, one internal column: the input of a SELECT without FROM. */
export function dual(): BoundRel {
  const plan = rel.values([[0]], schemaOf([field('dummy', 'INTEGER', false)]));
  return { plan, cols: [{ name: 'dummy', type: 'INTEGER', nullable: false, internal: true }] };
}

/** Binds one FROM item (sampled when it says TABLESAMPLE). */
export function bindFromItem(ctx: BindContext, item: FromItem): BoundRel {
  const bound = bindUnsampled(ctx, item);
  return 'sample' in item && item.sample !== undefined ? withSample(bound, item.sample) : bound;
}

function bindUnsampled(ctx: BindContext, item: FromItem): BoundRel {
  // A derived table in a subquery may read the subquery's outer query (its OuterRefs refer to the same outer relation).
  const inner: BindContext = { sql: ctx.sql, bindQuery: ctx.bindQuery, ...(ctx.ctes ? { ctes: ctx.ctes } : {}), ...(ctx.outer ? { outer: ctx.outer } : {}) };
  switch (item.kind) {
    case 'table': {
      const cte = lookupCte(ctx.ctes, item.name);
      // `recurring.t` (a USING KEY CTE's keyed table, recursive.ts) is qualified as `t`, as in DuckDB.
      if (cte) return renamed(ctx, requalify(cte, item.alias ?? item.name.slice(item.name.lastIndexOf('.') + 1)), item.columnAliases, item.pos);
      const plan = catalogRelation(ctx, item.name, item.pos);
      // A qualified name (`main.orders`, `information_schema.tables`) qualifies its columns by its last part, as in DuckDB.
      return renamed(ctx, requalify({ plan, cols: colsOf(plan) }, item.alias ?? item.name.slice(item.name.lastIndexOf('.') + 1)), item.columnAliases, item.pos);
    }
    case 'subquery': {
      const q = ctx.bindQuery(inner, item.query);
      return renamed(ctx, requalify(q, item.alias), item.columnAliases, item.pos);
    }
    case 'tableFunction': {
      // ML and generator functions bind here, without opening anything (so they work in the lazy env.sql()).
      const t = isMlFunction(item.name) ? bindMlFunction(inner, item, bindFromItem)
        : isComputedSeries(item) ? bindComputedSeries(inner, item)
        : ctx.sql.tableFunctions?.get(item) ?? syncTableFunction(ctx.sql, item);
      if (t === undefined) checkTableFunctionName(ctx.sql, item);
      if (t === undefined) throw sqlError(ctx.sql, item.pos, `table function ${item.name}(...) reads a file asynchronously: run this query with env.executeSql(...) (or open the file with env.fromCsv/fromParquet/fromArrowFile and registerTable it)`);
      return renamed(ctx, { plan: t, cols: colsOf(t, item.alias ?? item.name) }, item.columnAliases, item.pos);
    }
    case 'join': return bindJoin(ctx, item);
    case 'pivot': return requalify(bindPivot(inner, item, bindFromItem), item.alias);
    case 'unpivot': return requalify(bindUnpivot(inner, item, bindFromItem), item.alias);
  }
}

/**
 * A table or view of the catalog by (possibly qualified) name: `t`, `main.t`, `memory.main.t`, or
 * an information_schema view (src/sql/information-schema.ts); errors name what exists.
 */
function catalogRelation(ctx: BindContext, name: string, pos: Pos): rel.RelNode {
  const catalog = ctx.sql.catalog;
  const parsed = parseTableName(name);
  if (parsed.schema === 'information_schema') {
    const view = parsed.view;
    return atPos({ ctx }, pos, () => {
      informationSchemaSchema(view); // an unknown view fails here, naming the ones that exist
      if (catalog.informationSchema === undefined) throw new ValidationError('information_schema is not available in this catalog');
      return catalog.informationSchema(view);
    });
  }
  const plan = atPos({ ctx }, pos, () => catalog.relation(parsed.name));
  if (plan === undefined) {
    const names = [...catalog.relationNames(), ...cteNames(ctx.ctes)];
    const hint = suggest(parsed.name, names);
    throw sqlError(ctx.sql, pos, `table "${name}" not found${hint ? `; did you mean "${hint}"?` : names.length > 0 ? `; tables: ${names.join(', ')}` : ' (no tables are registered)'}`);
  }
  return plan;
}

/**
 * A derived table's (subquery's, CTE's) columns under a new qualifier. Output
 * names that repeat get `_1`, `_2`, ... as in DuckDB, so `SELECT i FROM
 * (SELECT j AS i, i FROM t)` reads the first `i` (the alias) instead of
 * failing or picking one silently.
 */
function requalify(r: BoundRel, qualifier: string | undefined): BoundRel {
  const taken = new Set(r.cols.filter((c) => !c.internal).map((c) => c.name.toLowerCase()));
  const seen = new Set<string>();
  return {
    plan: r.plan,
    cols: r.cols.map((c) => {
      const { qualifier: _q, ...rest } = c;
      let name = c.name;
      if (!c.internal) {
        if (seen.has(name.toLowerCase())) {
          let k = 1;
          while (taken.has(`${c.name}_${k}`.toLowerCase())) k++;
          name = `${c.name}_${k}`;
          taken.add(name.toLowerCase());
        }
        seen.add(name.toLowerCase());
      }
      const col = name === c.name ? rest : { ...rest, name };
      return qualifier === undefined ? col : { ...col, qualifier };
    }),
  };
}

/** Applies `alias(c1, c2, ...)` column aliases (a prefix of the columns may be renamed). */
function renamed(ctx: BindContext, r: BoundRel, aliases: readonly string[] | undefined, pos: Pos): BoundRel {
  if (!aliases || aliases.length === 0) return r;
  const visible = r.cols.map((c, i) => ({ c, i })).filter((x) => !x.c.internal);
  if (aliases.length > visible.length) throw sqlError(ctx.sql, pos, `${aliases.length} column aliases given for ${visible.length} columns`);
  const names = r.cols.map((c) => c.name);
  aliases.forEach((a, k) => { names[visible[k]!.i] = a; });
  // VALUES takes the names itself: a renaming Project would be merged away and
  // expressions over the columns would display as col0 (in errors, EXPLAIN).
  const plan = r.plan.kind === 'Values'
    ? rel.values(r.plan.rows, schemaOf(r.plan.schema.fields.map((f, i) => field(names[i]!, f.type, f.nullable))))
    : rel.project(r.plan, r.cols.map((c, i) => inputRef(i, c.type, c.name)), names);
  return { plan, cols: r.cols.map((c, i) => ({ ...c, name: names[i]! })) };
}

function bindJoin(ctx: BindContext, j: Extract<FromItem, { kind: 'join' }>): BoundRel {
  const l = bindFromItem(ctx, j.left);
  const side = bindRightSide(ctx, l, j.right, bindFromItem);
  const r = side.rel;
  const cols = [...l.cols, ...r.cols];
  if (side.lateral) {
    if (j.natural || j.using) throw sqlError(ctx.sql, j.pos, `${j.natural ? 'NATURAL' : 'USING'} is not supported with a LATERAL item that reads the left side; write ON with the equalities`);
    const cond = j.on === undefined ? undefined : bindCondition({ ctx, cols, clause: 'a JOIN condition' }, j.on);
    return lateralJoin(ctx, l, r, j.join, cond, j.pos);
  }
  if (j.join === 'cross') return { plan: rel.join(l.plan, r.plan, 'cross', literal(true, 'BOOLEAN')), cols };
  let using = j.using;
  if (j.natural) {
    using = l.cols.filter((c) => !c.internal && !c.hidden && lookupColumn(r.cols, c.name).kind === 'found').map((c) => c.name);
    if (using.length === 0) return nullabilityOf(rel.join(l.plan, r.plan, j.join === 'inner' ? 'cross' : j.join, literal(true, 'BOOLEAN')), cols);
  }
  if (using) return usingJoin(ctx, j, l, r, using);
  if (!j.on) throw sqlError(ctx.sql, j.pos, `${j.join.toUpperCase()} JOIN needs an ON or USING clause`);
  const scope = { ctx, cols, clause: 'a JOIN condition' };
  const cond = bindCondition(scope, j.on);
  return nullabilityOf(atPos(scope, j.on.pos, () => rel.join(l.plan, r.plan, j.join as rel.JoinType, cond)), cols);
}

/** The join's scope with each column's nullability from the join's schema (an outer join's NULL-supplying side is nullable). */
function nullabilityOf(plan: rel.RelNode, cols: readonly ScopeColumn[]): BoundRel {
  const f = plan.schema.fields;
  return { plan, cols: cols.map((c, i) => (f[i] && f[i].nullable !== c.nullable ? { ...c, nullable: f[i].nullable } : c)) };
}

function usingJoin(ctx: BindContext, j: Extract<FromItem, { kind: 'join' }>, l: BoundRel, r: BoundRel, using: readonly string[]): BoundRel {
  const lw = l.cols.length;
  const cols: ScopeColumn[] = [...l.cols, ...r.cols];
  const pairs = using.map((name) => {
    const find = (side: BoundRel, what: string): number => {
      const f = lookupColumn(side.cols, name);
      if (f.kind !== 'found') throw sqlError(ctx.sql, j.pos, `USING column "${name}" ${f.kind === 'ambiguous' ? 'is ambiguous' : 'not found'} on the ${what} side of the join`);
      return f.index;
    };
    return [find(l, 'left'), lw + find(r, 'right')] as const;
  });
  const show = (e: RexNode): string => formatRex(e, schemaOf(cols));
  const cond = andAll(pairs.map(([a, b]) => {
    try {
      return bindCall('eq', [inputRef(a, cols[a]!.type, cols[a]!.name), inputRef(b, cols[b]!.type, cols[b]!.name)], show);
    } catch (err) {
      throw sqlError(ctx.sql, j.pos, (err as Error).message);
    }
  }));
  const plan = rel.join(l.plan, r.plan, j.join as rel.JoinType, cond);
  if (j.join === 'inner' || j.join === 'left') {
    // The left copy of each USING column stands for it; the right copy is reachable only qualified.
    const hide = new Set(pairs.map(([, b]) => b));
    return { plan, cols: plan.schema.fields.map((f, i) => ({ ...cols[i]!, nullable: f.nullable, ...(hide.has(i) ? { hidden: true } : {}) })) };
  }
  // RIGHT / FULL: the USING column is COALESCE(left, right), first, as DuckDB prints it.
  const fields = plan.schema.fields;
  const ref = (i: number): RexNode => inputRef(i, fields[i]!.type, fields[i]!.name);
  const exprs = [...pairs.map(([a, b]) => bindCall('coalesce', [ref(a), ref(b)], show)), ...fields.map((_, i) => ref(i))];
  const names = [...pairs.map(([a]) => cols[a]!.name), ...fields.map((f) => f.name)];
  const proj = rel.project(plan, exprs, names);
  const hidden = new Set(pairs.flatMap(([a, b]) => [a, b]));
  const outCols: ScopeColumn[] = [
    ...pairs.map(([a]) => ({ name: cols[a]!.name, type: proj.schema.fields[0]!.type, nullable: true })),
    ...cols.map((c, i) => ({ ...c, nullable: true, ...(hidden.has(i) ? { hidden: true } : {}) })),
  ];
  return { plan: proj, cols: outCols.map((c, i) => ({ ...c, type: proj.schema.fields[i]!.type })) };
}

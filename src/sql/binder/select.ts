/**
 * SELECT: FROM → WHERE → (GROUP BY / aggregates / HAVING) → select list →
 * DISTINCT → ORDER BY → LIMIT. Without aggregation the select list is a
 * Project over the filtered relation (as `Table.select`); with it, the plan
 * follows `Table.groupBy().select()` (see aggregate.ts). Subqueries bind to
 * Subquery expressions whose outer scope is the relation the expression is
 * evaluated over: the FROM relation, or (aggregated) the group keys, which
 * lead the Aggregate's output.
 */
import { rewriteDistinctOn } from './distinct-on.js';
import { canonicalRex } from '../../relnode/digest.js';
import { aggRef, inputRef, rexTransform, type RexNode } from '../../relnode/rex.js';
import * as rel from '../../relnode/rel.js';
import type { Expr, Pos, SelectItem, SelectQuery } from '../ast.js';
import { AggPlanner } from './aggregate.js';
import { containsAggregate, exprChildren, subqueriesIn } from './ast-walk.js';
import { sqlError, type BindContext } from './context.js';
import { bindCondition, bindExpr, type ExprScope } from './expr.js';
import { bindFromList } from './from.js';
import { withSample } from './sample.js';
import { displayName } from './names.js';
import { isAggregateName } from '../functions.js';
import { finish, resolveOrder } from './order.js';
import { lookupColumn, starColumns, type BoundQuery, type BoundRel, type ScopeColumn } from './scope.js';
import { bindSubqueryExpr } from './subquery.js';
import { applyWhere } from './where.js';
import { bindWindowCall, buildWindows, type BoundWindowCall } from './window.js';
import { hasWindowCall, windowPlaceholder, WindowExtractor, type WindowCallExpr } from './window-extract.js';

/** One output of the select list after `*` expansion. */
interface Entry {
  readonly expr?: Expr;
  /** A `*`-expanded column of the FROM relation. */
  readonly index?: number;
  readonly name: string;
  readonly alias?: string;
  readonly pos: Pos;
}

/** Binds a SELECT query. */
export function bindSelect(ctx: BindContext, q0: SelectQuery): BoundQuery {
  const from = withSample(bindFromList(ctx, q0.from), q0.sample);
  const all = expandItems(ctx, from, q0.items);
  const q1 = rewriteDistinctOn(ctx, q0, all, (name) => lookupColumn(from.cols, name).kind !== 'notFound');
  const extracted = extractWindows(ctx, q1, all);
  const { entries, windows } = extracted;
  let q = extracted.query;
  const whereAlias = (name: string): RexNode | undefined => {
    const e = entries.find((x) => x.alias?.toLowerCase() === name.toLowerCase());
    if (!e?.expr || containsAggregate(e.expr) || subqueriesIn(e.expr).length > 0) return undefined;
    return bindExpr({ ctx, cols: from.cols, clause: 'WHERE' }, e.expr);
  };
  const w = applyWhere(ctx, from, q.where, whereAlias);
  if (q.groupByAll === true) q = { ...q, groupBy: groupByAllKeys(all) };
  const aggregated = (q.groupBy?.length ?? 0) > 0 || q.groupingSets !== undefined || q.groupByAll === true || q.having !== undefined
    || entries.some((e) => e.expr && containsAggregate(e.expr)) || (q.orderBy ?? []).some((o) => containsAggregate(o.expr))
    || (q.qualify !== undefined && containsAggregate(q.qualify)) || windows.calls.some(windowHasAggregate);
  return aggregated ? bindGrouped(ctx, q, w, entries, windows) : bindPlain(ctx, q, w, entries, windows);
}

/**
 * Replaces the window calls of the select list, ORDER BY and QUALIFY with placeholder columns
 * (window-extract.ts); WHERE, GROUP BY and HAVING may not hold any (they run before windows).
 */
function extractWindows(ctx: BindContext, q: SelectQuery, entries: Entry[]): { query: SelectQuery; entries: Entry[]; windows: WindowExtractor } {
  const x = new WindowExtractor(ctx, q);
  for (const [clause, es] of [['WHERE', q.where ? [q.where] : []], ['GROUP BY', q.groupBy ?? []], ['HAVING', q.having ? [q.having] : []]] as const) {
    for (const e of es) if (hasWindowCall(e)) throw sqlError(ctx.sql, e.pos, `window functions are not allowed in ${clause} (it is evaluated before them); filter on them with QUALIFY`);
  }
  const any = entries.some((e) => e.expr && hasWindowCall(e.expr)) || (q.orderBy ?? []).some((o) => hasWindowCall(o.expr)) || (q.qualify !== undefined && hasWindowCall(q.qualify));
  if (!any) {
    if (q.qualify) throw sqlError(ctx.sql, q.qualify.pos, 'QUALIFY needs a window function in the select list or in QUALIFY itself');
    return { query: q, entries, windows: x };
  }
  const out = entries.map((e) => (e.expr ? { ...e, expr: x.replace(e.expr) } : e));
  const orderBy = q.orderBy?.map((o) => ({ ...o, expr: x.replace(o.expr) }));
  const qualify = q.qualify ? x.replace(q.qualify) : undefined;
  return { query: { ...q, ...(orderBy ? { orderBy } : {}), ...(qualify ? { qualify } : {}) }, entries: out, windows: x };
}

function windowHasAggregate(w: WindowCallExpr): boolean {
  return [...w.call.args, ...(w.spec.partitionBy ?? []), ...(w.spec.orderBy ?? []).map((o) => o.expr)].some(containsAggregate);
}

/** The placeholder columns of the window calls, after the columns `cols` (their ordinals continue cols'). */
function windowCols(calls: readonly BoundWindowCall[]): ScopeColumn[] {
  return calls.map((c, j) => ({ name: windowPlaceholder(j), type: c.type, nullable: true }));
}

/** GROUP BY ALL as select-list ordinals: every item without an aggregate or a window function (DuckDB). */
function groupByAllKeys(entries: readonly Entry[]): Expr[] {
  return entries.flatMap((e, i): Expr[] => (e.expr !== undefined && (containsAggregate(e.expr) || hasWindowCall(e.expr)) ? [] : [{ kind: 'literal', literal: 'number', value: String(i + 1), pos: e.pos }]));
}

function expandItems(ctx: BindContext, from: BoundRel, items: readonly SelectItem[]): Entry[] {
  return items.flatMap((it): Entry[] => {
    if (it.kind === 'star') {
      const idx = starColumns(from.cols, it.qualifier);
      if (idx.length === 0) {
        if (it.qualifier) throw sqlError(ctx.sql, it.pos, `no table or alias "${it.qualifier}" in FROM for ${it.qualifier}.*`);
        throw sqlError(ctx.sql, it.pos, 'SELECT * needs a FROM clause with columns');
      }
      return starEntries(ctx, from, it, idx);
    }
    const colName = (c: Extract<Expr, { kind: 'column' }>): string => {
      const l = lookupColumn(from.cols, c.name, c.qualifier);
      return l.kind === 'found' ? from.cols[l.index]!.name : c.name;
    };
    return [{ expr: it.expr, name: it.alias ?? displayName(it.expr, colName), ...(it.alias !== undefined ? { alias: it.alias } : {}), pos: it.pos }];
  });
}

/** The columns of a star, less its EXCLUDE list, with its REPLACE expressions in place (each name must be one of the star's). */
function starEntries(ctx: BindContext, from: BoundRel, it: Extract<SelectItem, { kind: 'star' }>, idx: readonly number[]): Entry[] {
  const dropped = new Set<number>();
  for (const x of it.exclude ?? []) {
    const l = lookupColumn(from.cols, x.name, x.qualifier ?? it.qualifier);
    const hit = l.kind === 'found' && idx.includes(l.index) ? [l.index] : idx.filter((i) => from.cols[i]!.name.toLowerCase() === x.name.toLowerCase());
    if (hit.length === 0) throw sqlError(ctx.sql, x.pos, `column "${x.name}" in EXCLUDE is not a column of ${it.qualifier ? `${it.qualifier}.*` : '*'}`);
    for (const i of hit) dropped.add(i);
  }
  const replaced = new Map<number, { expr: Expr; pos: Pos }>();
  for (const r of it.replace ?? []) {
    const hit = idx.filter((i) => from.cols[i]!.name.toLowerCase() === r.name.toLowerCase() && !dropped.has(i));
    if (hit.length === 0) throw sqlError(ctx.sql, r.pos, `column "${r.name}" in REPLACE is not a column of ${it.qualifier ? `${it.qualifier}.*` : '*'}`);
    for (const i of hit) replaced.set(i, { expr: r.expr, pos: r.pos });
  }
  const kept = idx.filter((i) => !dropped.has(i));
  if (kept.length === 0) throw sqlError(ctx.sql, it.pos, 'EXCLUDE leaves no columns');
  return kept.map((i): Entry => {
    const name = from.cols[i]!.name;
    const r = replaced.get(i);
    return r === undefined ? { index: i, name, pos: it.pos } : { expr: r.expr, name, alias: name, pos: r.pos };
  });
}

function outputCols(names: readonly string[], plan: BoundRel['plan']): ScopeColumn[] {
  return names.map((n, i) => ({ name: n, type: plan.schema.fields[i]!.type, nullable: plan.schema.fields[i]!.nullable }));
}

function bindPlain(ctx: BindContext, q: SelectQuery, r0: BoundRel, entries: readonly Entry[], windows: WindowExtractor): BoundQuery {
  let r = r0;
  if (windows.calls.length > 0) {
    const ws: ExprScope = { ctx, cols: r0.cols, clause: 'a window function' };
    const calls = windows.calls.map((w, j) => bindWindowCall(ws, w, windowName(w, j)));
    r = { plan: buildWindows(r0.plan, calls), cols: [...r0.cols, ...windowCols(calls)] };
  }
  const scope: ExprScope = {
    ctx, cols: r.cols, clause: 'the select list',
    onSubquery: (n, arg) => bindSubqueryExpr(ctx, r.cols, n, n.kind === 'inSubquery' ? arg() : undefined),
  };
  const exprs = entries.map((e) => (e.index !== undefined ? inputRef(e.index, r.cols[e.index]!.type, r.cols[e.index]!.name) : bindExpr(scope, e.expr!)));
  const names = entries.map((e) => e.name);
  const aliasOf = aliasResolver(entries, exprs);
  const aliases = entries.map((e) => e.alias);
  const order = resolveOrder(ctx, q.orderBy, { names, aliases, exprs }, (e) => bindExpr({ ...scope, clause: 'ORDER BY', aliasFallback: aliasOf }, e));
  const base = q.qualify ? rel.filter(r.plan, bindCondition({ ...scope, clause: 'QUALIFY', aliasFallback: aliasOf }, q.qualify)) : r.plan;
  const plan = finish(ctx, { base, exprs, names, order, distinct: q.distinct, ...(q.limit ? { limit: q.limit } : {}), ...(q.offset ? { offset: q.offset } : {}) });
  return { plan, cols: outputCols(names, plan) };
}

/** The Window node's name for call j: the call as written, without its OVER clause. */
function windowName(w: WindowCallExpr, _j: number): string {
  const { over: _, ...call } = w.call;
  return displayName(call);
}

function aliasResolver(entries: readonly Entry[], exprs: readonly RexNode[]): (name: string) => RexNode | undefined {
  return (name) => {
    const k = entries.findIndex((x) => x.alias?.toLowerCase() === name.toLowerCase());
    return k >= 0 ? exprs[k] : undefined;
  };
}

function bindGrouped(ctx: BindContext, q: SelectQuery, r: BoundRel, entries: readonly Entry[], windows: WindowExtractor): BoundQuery {
  const keys: RexNode[] = [];
  const keyNames: string[] = [];
  const keyCols: ScopeColumn[] = [];
  const addKey = (e: RexNode, name: string, col?: ScopeColumn): number => {
    const c = canonicalRex(e);
    const at = keys.findIndex((k) => canonicalRex(k) === c);
    if (at >= 0) return at;
    keys.push(e);
    keyNames.push(name);
    keyCols.push(col ? { ...col, nullable: true } : { name, type: e.type, nullable: true, internal: true });
    return keys.length - 1;
  };
  const keyScope: ExprScope = { ctx, cols: r.cols, clause: 'GROUP BY' };
  const keyOf = new Map<Expr, number>();
  for (const g of q.groupBy ?? []) {
    const k = bindGroupKey(ctx, keyScope, g, entries, r);
    keyOf.set(g, addKey(k.expr, k.name, k.expr.kind === 'InputRef' ? r.cols[k.expr.index] : undefined));
  }
  const sets = q.groupingSets?.map((set) => [...new Set(set.map((g) => keyOf.get(g)!))].sort((a, b) => a - b));
  const planner = new AggPlanner(r, keys, keyNames, sets);
  // GROUPING's arguments name group keys as GROUP BY items do (an alias of the select list included).
  const onGrouping = (node: Extract<Expr, { kind: 'function' }>): RexNode => planner.grouping(node.args.map((a) => {
    const k = a.kind === 'literal' ? -1 : planner.keyIndex(bindGroupKey(ctx, keyScope, a, entries, r).expr);
    if (k < 0) throw sqlError(ctx.sql, a.pos, `the arguments of ${node.name}(...) must be GROUP BY expressions`);
    return k;
  }));
  // Window calls bind over the input with aggregates (they run over the Aggregate's output); the select
  // list sees each one as a placeholder column after the input's columns.
  const wcalls = windows.calls.map((w, j) => bindWindowCall({ ctx, cols: r.cols, clause: 'a window function', onAggregate: planner.onAggregate, onGrouping }, w, windowName(w, j)));
  const scope: ExprScope = {
    ctx, cols: [...r.cols, ...windowCols(wcalls)], clause: 'the select list', onAggregate: planner.onAggregate, onGrouping,
    // Evaluated over the Aggregate's output, whose leading columns are the group keys: they are the subquery's outer scope.
    onSubquery: (node, arg) => bindSubqueryExpr(ctx, keyCols, node, node.kind === 'inSubquery' ? arg() : undefined, { argsElsewhere: true }),
  };
  const marked = entries.map((e) => (e.index !== undefined ? inputRef(e.index, r.cols[e.index]!.type, r.cols[e.index]!.name) : bindExpr(scope, e.expr!)));
  const names = entries.map((e) => e.name);
  const aliasOf = aliasResolver(entries, marked);
  const aliases = entries.map((e) => e.alias);
  // HAVING: a name that is a group key is the key; otherwise a select alias wins over an input column (DuckDB).
  const keyCanon = keys.map(canonicalRex);
  const isKey = (name: string): boolean => {
    const l = lookupColumn(r.cols, name, undefined);
    return l.kind === 'found' && keyCanon.includes(canonicalRex(inputRef(l.index, r.cols[l.index]!.type)));
  };
  const havingAlias = (name: string): RexNode | undefined => (isKey(name) ? undefined : aliasOf(name));
  const having = q.having ? bindCondition({ ...scope, clause: 'HAVING', aliasFallback: aliasOf, aliasFirst: havingAlias }, q.having) : undefined;
  const order = resolveOrder(ctx, q.orderBy, { names, aliases, exprs: marked }, (e) => bindExpr({ ...scope, clause: 'ORDER BY', aliasFallback: aliasOf }, e));
  const qualify = q.qualify ? bindCondition({ ...scope, clause: 'QUALIFY', aliasFallback: aliasOf }, q.qualify) : undefined;

  let base: rel.RelNode = planner.build();
  // A placeholder column (ordinal past the input's) is window call j: over the Aggregate's output
  // followed by the window columns it is column keys + calls + j, which an AggRef past the calls maps to.
  const width = r.cols.length;
  const nAgg = planner.calls.length;
  const windowRefs = (e: RexNode): RexNode => rexTransform(e, (x) => (x.kind === 'InputRef' && x.index >= width ? aggRef(nAgg + x.index - width, x.type, x.name ?? '') : x));
  const rewrite = (e: RexNode, at: Expr | undefined): RexNode => planner.rewrite(windowRefs(e), (i) => strayColumn(ctx, r, i, at, q));
  const exprs = marked.map((m, i) => rewrite(m, entries[i]!.expr));
  if (having) base = rel.filter(base, rewrite(having, q.having));
  if (wcalls.length > 0) base = buildWindows(base, wcalls, (e) => rewrite(e, undefined));
  if (qualify) base = rel.filter(base, rewrite(qualify, q.qualify));
  const finalOrder = order.map((o) => ('expr' in o ? { ...o, expr: rewrite(o.expr, undefined) } : o));
  const plan = finish(ctx, { base, exprs, names, order: finalOrder, distinct: q.distinct, ...(q.limit ? { limit: q.limit } : {}), ...(q.offset ? { offset: q.offset } : {}) });
  return { plan, cols: outputCols(names, plan) };
}

/** A GROUP BY item: an ordinal or alias of the select list, or an expression over FROM (columns before aliases, as DuckDB). */
function bindGroupKey(ctx: BindContext, s: ExprScope, g: Expr, entries: readonly Entry[], r: BoundRel): { expr: RexNode; name: string } {
  const fromEntry = (e: Entry): { expr: RexNode; name: string } => {
    if (e.index !== undefined) return { expr: inputRef(e.index, r.cols[e.index]!.type, r.cols[e.index]!.name), name: e.name };
    if (containsAggregate(e.expr!)) throw sqlError(ctx.sql, g.pos, `GROUP BY cannot refer to an aggregate ("${e.name}")`);
    return { expr: bindExpr(s, e.expr!), name: e.name };
  };
  if (g.kind === 'literal' && g.literal === 'number' && /^\d+$/.test(g.value ?? '')) {
    const k = Number(g.value);
    const e = entries[k - 1];
    if (!e) throw sqlError(ctx.sql, g.pos, `GROUP BY position ${k} is not in the select list (1 to ${entries.length})`);
    return fromEntry(e);
  }
  if (g.kind === 'column' && g.qualifier === undefined && lookupColumn(r.cols, g.name).kind === 'notFound') {
    // Several select items with this alias: the last one, as DuckDB.
    const e = [...entries].reverse().find((x) => x.alias?.toLowerCase() === g.name.toLowerCase());
    if (e) return fromEntry(e);
  }
  const expr = bindExpr(s, g);
  return { expr, name: expr.kind === 'InputRef' ? r.cols[expr.index]!.name : displayName(g) };
}

function strayColumn(ctx: BindContext, r: BoundRel, index: number, at: Expr | undefined, q: SelectQuery): never {
  const c = r.cols[index];
  const name = c?.name ?? `$${index}`;
  const pos = (at && findColumnPos(at, name)) ?? at?.pos ?? q.pos;
  throw sqlError(ctx.sql, pos, `column "${name}" must appear in the GROUP BY clause or be used in an aggregate function`);
}

function findColumnPos(e: Expr, name: string): Pos | undefined {
  if (e.kind === 'column' && e.name.toLowerCase() === name.toLowerCase()) return e.pos;
  if (e.kind === 'function' && isAggregateName(e.name)) return undefined;
  for (const c of exprChildren(e)) {
    const p = findColumnPos(c, name);
    if (p) return p;
  }
  return undefined;
}

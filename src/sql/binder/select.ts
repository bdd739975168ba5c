/**
 * SELECT: FROM → WHERE → (GROUP BY / aggregates / HAVING) → select list →
 * DISTINCT → ORDER BY → LIMIT. Without aggregation the select list is a
 * Project over the filtered relation (as `Table.select`); with it, the plan
 * follows `Table.groupBy().select()` (see aggregate.ts). A correlated
 * subquery carries its correlation columns (or, aggregated, its correlation
 * keys as extra group keys) as trailing internal outputs.
 */
import { canonicalRex } from '../../relnode/digest.js';
import { evaluateConstant } from '../../exec/kernels/index.js';
import { call, inputRef, literal, rexInputs, rexShift, rexTransform, type RexNode } from '../../relnode/rex.js';
import type { Expr, Pos, SelectItem, SelectQuery } from '../ast.js';
import { AggPlanner, SUBQ_BASE } from './aggregate.js';
import { containsAggregate, exprChildren, type SubqueryExpr } from './ast-walk.js';
import { RelBuilder } from './builder.js';
import { sqlError, type BindContext } from './context.js';
import { bindCondition, bindExpr, OUTER_BASE, type ExprScope } from './expr.js';
import { bindFromList } from './from.js';
import { isConstant } from './literals.js';
import { displayName } from './names.js';
import { isAggregateName } from '../functions.js';
import { finish, resolveOrder } from './order.js';
import { lookupColumn, starColumns, type BoundQuery, type BoundRel, type ScopeColumn } from './scope.js';
import { attachSubquery, bindSubquery, scalarType, splitCorrelatedEquality } from './subquery.js';
import { applyWhere } from './where.js';
import { buildDomain, nullSafeEq, type Domain } from './domain.js';
import * as rel from '../../relnode/rel.js';
import { schemaOf } from '../../relnode/types.js';

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
export function bindSelect(ctx: BindContext, q: SelectQuery): BoundQuery {
  const from = bindFromList(ctx, q.from);
  const entries = expandItems(ctx, from, q.items);
  const whereAlias = (name: string): RexNode | undefined => {
    const e = entries.find((x) => x.alias?.toLowerCase() === name.toLowerCase());
    if (!e?.expr || containsAggregate(e.expr) || hasSubquery(e.expr)) return undefined;
    return bindExpr({ ctx, cols: from.cols, clause: 'WHERE' }, e.expr);
  };
  const w = applyWhere(ctx, from, q.where, whereAlias);
  const aggregated = (q.groupBy?.length ?? 0) > 0 || q.having !== undefined
    || entries.some((e) => e.expr && containsAggregate(e.expr)) || (q.orderBy ?? []).some((o) => containsAggregate(o.expr));
  const dom = buildDomain(ctx, q, w.rel, w.correlated, aggregated);
  if (!dom) return aggregated ? bindGrouped(ctx, q, w.rel, entries, w.correlated) : bindPlain(ctx, q, w.rel, entries, w.correlated);
  // Decorrelated over the outer domain: FROM columns moved right by D's width.
  const k = dom.outer.length;
  const shifted = entries.map((e) => (e.index !== undefined ? { ...e, index: e.index + k } : e));
  return aggregated ? bindGrouped(ctx, q, dom.rel, shifted, [], dom) : bindPlain(ctx, q, dom.rel, shifted, [], dom);
}

/** Carriers and correlation conditions of a domain-decorrelated subquery with `n` outputs. */
function domainCarry(r: BoundRel, dom: Domain, n: number): { carry: RexNode[]; correlated: RexNode[] } {
  const carry = dom.outer.map((_, i) => inputRef(i, r.cols[i]!.type, r.cols[i]!.name));
  const correlated = dom.outer.map((j, i) => nullSafeEq(inputRef(OUTER_BASE + j, r.cols[i]!.type), inputRef(n + i, r.cols[i]!.type)));
  return { carry, correlated };
}

function hasSubquery(e: Expr): boolean {
  return e.kind === 'subquery' || e.kind === 'exists' || e.kind === 'inSubquery' || exprChildren(e).some(hasSubquery);
}

function expandItems(ctx: BindContext, from: BoundRel, items: readonly SelectItem[]): Entry[] {
  return items.flatMap((it): Entry[] => {
    if (it.kind === 'star') {
      const idx = starColumns(from.cols, it.qualifier);
      if (idx.length === 0) {
        if (it.qualifier) throw sqlError(ctx.sql, it.pos, `no table or alias "${it.qualifier}" in FROM for ${it.qualifier}.*`);
        throw sqlError(ctx.sql, it.pos, 'SELECT * needs a FROM clause with columns');
      }
      return idx.map((i) => ({ index: i, name: from.cols[i]!.name, pos: it.pos }));
    }
    const colName = (c: Extract<Expr, { kind: 'column' }>): string => {
      const l = lookupColumn(from.cols, c.name, c.qualifier);
      return l.kind === 'found' ? from.cols[l.index]!.name : c.name;
    };
    return [{ expr: it.expr, name: it.alias ?? displayName(it.expr, colName), ...(it.alias !== undefined ? { alias: it.alias } : {}), pos: it.pos }];
  });
}

function outputCols(names: readonly string[], plan: BoundRel['plan']): ScopeColumn[] {
  return names.map((n, i) => ({ name: n, type: plan.schema.fields[i]!.type, nullable: plan.schema.fields[i]!.nullable }));
}

function carryCols(plan: BoundRel['plan'], from: number): ScopeColumn[] {
  return plan.schema.fields.slice(from).map((f, i) => ({ name: `__corr${i}`, type: f.type, nullable: f.nullable, internal: true }));
}

function bindPlain(ctx: BindContext, q: SelectQuery, r: BoundRel, entries: readonly Entry[], correlated: readonly RexNode[], dom?: Domain): BoundQuery {
  const b = new RelBuilder(r);
  const scope: ExprScope = {
    ctx, cols: r.cols, clause: 'the select list',
    onSubquery: (n, arg) => attachSubquery(ctx, b, n, bindSubquery(ctx, b.cols, n.query, b.plan, 'value'), n.kind === 'inSubquery' ? arg() : undefined),
  };
  const exprs = entries.map((e) => (e.index !== undefined ? inputRef(e.index, r.cols[e.index]!.type, r.cols[e.index]!.name) : bindExpr(scope, e.expr!)));
  const names = entries.map((e) => e.name);
  const aliasOf = aliasResolver(entries, exprs);
  const order = resolveOrder(ctx, q.orderBy, { names, exprs }, (e) => bindExpr({ ...scope, clause: 'ORDER BY', aliasFallback: aliasOf }, e));
  // Correlation: carry every inner column the correlated conjuncts read.
  const inner = [...new Set(correlated.flatMap((c) => [...rexInputs(c)].filter((i) => i < OUTER_BASE)))].sort((a, c) => a - c);
  const n = exprs.length;
  const d = dom ? domainCarry(r, dom, n) : undefined;
  const carry = d ? d.carry : inner.map((i) => inputRef(i, r.cols[i]!.type, r.cols[i]!.name));
  const corrOut = d ? d.correlated : correlated.map((c) => rexShift(c, (i) => (i >= OUTER_BASE ? i : n + inner.indexOf(i))));
  const plan = finish(ctx, { base: b.plan, exprs, names, order, distinct: q.distinct, ...(q.limit ? { limit: q.limit } : {}), ...(q.offset ? { offset: q.offset } : {}), carry });
  return { plan, cols: [...outputCols(names, plan), ...carryCols(plan, n)], correlated: corrOut, grouping: 'none', ...(dom ? { domain: dom.outer } : {}) };
}

function aliasResolver(entries: readonly Entry[], exprs: readonly RexNode[]): (name: string) => RexNode | undefined {
  return (name) => {
    const k = entries.findIndex((x) => x.alias?.toLowerCase() === name.toLowerCase());
    return k >= 0 ? exprs[k] : undefined;
  };
}

function bindGrouped(ctx: BindContext, q: SelectQuery, r: BoundRel, entries: readonly Entry[], correlated: readonly RexNode[], dom?: Domain): BoundQuery {
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
  for (const g of q.groupBy ?? []) {
    const k = bindGroupKey(ctx, keyScope, g, entries, r);
    addKey(k.expr, k.name, k.expr.kind === 'InputRef' ? r.cols[k.expr.index] : undefined);
  }
  const userKeys = keys.length;
  // A correlated aggregate subquery groups by its correlation keys (they must be equalities).
  const corrKeys = correlated.map((c) => {
    const pair = splitCorrelatedEquality(c);
    if (!pair) throw sqlError(ctx.sql, q.where?.pos, 'a correlated subquery with aggregates supports only equality conditions between an outer and an inner expression');
    return { outer: pair.outer, key: addKey(pair.inner, `__corr_key${keys.length}`) };
  });
  // Decorrelated over the outer domain: its columns are group keys too.
  const domKeys = dom ? dom.outer.map((_, i) => addKey(inputRef(i, r.cols[i]!.type, r.cols[i]!.name), `__outer${i}`)) : [];
  const marker = dom?.marker !== undefined ? inputRef(dom.marker, 'BOOLEAN', '__match') : undefined;
  const planner = new AggPlanner(r, keys, keyNames, marker);
  const subs: { node: SubqueryExpr; arg?: RexNode }[] = [];
  const scope: ExprScope = {
    ctx, cols: r.cols, clause: 'the select list', onAggregate: planner.onAggregate,
    onSubquery: (node, arg) => {
      // Bound here for its type (over an empty stand-in of the aggregate's output); bound again once that exists.
      const sub = bindSubquery(ctx, keyCols, node.query, rel.values([], schemaOf(keyCols)), 'value');
      subs.push({ node, ...(node.kind === 'inSubquery' ? { arg: arg() } : {}) });
      return inputRef(SUBQ_BASE + subs.length - 1, node.kind === 'subquery' ? scalarType(sub) : 'BOOLEAN');
    },
  };
  const marked = entries.map((e) => (e.index !== undefined ? inputRef(e.index, r.cols[e.index]!.type, r.cols[e.index]!.name) : bindExpr(scope, e.expr!)));
  const names = entries.map((e) => e.name);
  const aliasOf = aliasResolver(entries, marked);
  const having = q.having ? bindCondition({ ...scope, clause: 'HAVING', aliasFallback: aliasOf }, q.having) : undefined;
  const order = resolveOrder(ctx, q.orderBy, { names, exprs: marked }, (e) => bindExpr({ ...scope, clause: 'ORDER BY', aliasFallback: aliasOf }, e));

  const agg = planner.build();
  const aggCols: ScopeColumn[] = [...keyCols, ...planner.calls.map((c) => ({ name: c.name, type: c.type, nullable: true, internal: true }))];
  const b = new RelBuilder({ plan: agg, cols: aggCols });
  const subValues: RexNode[] = [];
  const rewrite = (e: RexNode, at: Expr | undefined): RexNode => rexTransform(planner.rewrite(e, (i) => strayColumn(ctx, r, i, at, q)), (x) => (x.kind === 'InputRef' && x.index >= SUBQ_BASE && x.index < OUTER_BASE ? subValues[x.index - SUBQ_BASE]! : x));
  for (const s of subs) subValues.push(attachSubquery(ctx, b, s.node, bindSubquery(ctx, b.cols, s.node.query, b.plan, 'value'), s.arg ? rewrite(s.arg, undefined) : undefined));
  const exprs = marked.map((m, i) => rewrite(m, entries[i]!.expr));
  if (having) b.filter(rewrite(having, q.having));
  const finalOrder = order.map((o) => ('expr' in o ? { ...o, expr: rewrite(o.expr, undefined) } : o));
  const n = exprs.length;
  const carryKeys = dom ? domKeys : corrKeys.map((c) => c.key);
  const carry = carryKeys.map((k) => inputRef(k, keys[k]!.type, keyNames[k]));
  const corrOut = dom
    ? dom.outer.map((j, i) => nullSafeEq(inputRef(OUTER_BASE + j, keys[domKeys[i]!]!.type), inputRef(n + i, keys[domKeys[i]!]!.type)))
    : corrKeys.map((c, i) => call('eq', [c.outer, inputRef(n + i, keys[c.key]!.type)], 'BOOLEAN'));
  const plan = finish(ctx, { base: b.plan, exprs, names, order: finalOrder, distinct: q.distinct, ...(q.limit ? { limit: q.limit } : {}), ...(q.offset ? { offset: q.offset } : {}), carry });
  const grouping = userKeys > 0 ? 'grouped' : 'global';
  const emptyValues = grouping === 'global' && corrKeys.length > 0 ? exprs.map((e) => constantOrSelf(planner.overNoRows(e))) : undefined;
  return { plan, cols: [...outputCols(names, plan), ...carryCols(plan, n)], correlated: corrOut, grouping, ...(emptyValues ? { emptyValues } : {}), ...(dom ? { domain: dom.outer } : {}) };
}

function constantOrSelf(e: RexNode): RexNode {
  if (!isConstant(e)) return e;
  try {
    return literal(evaluateConstant(e), e.type);
  } catch {
    return e;
  }
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

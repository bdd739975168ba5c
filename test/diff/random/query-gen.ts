/**
 * Random queries: SELECTs (joins, WHERE, GROUP BY / aggregates / HAVING,
 * DISTINCT, ORDER BY / LIMIT / OFFSET), set operations, derived tables and
 * subqueries (scalar, EXISTS, IN; correlated or not). `generateQuery(seed)`
 * is deterministic: the same seed and features give the same SQL.
 */
import type { Catalog } from './catalog.js';
import { ExprGen, type Ctx, type SubqueryMaker } from './expr-gen.js';
import type { FeatureSet } from './features.js';
import { FromGen, type FromInfo, type QueryMeta } from './from-gen.js';
import { literalOf } from './literals.js';
import { expr, hasAggregate, isInexact, outputNames, readsOuterNull, PREC, renderExpr, renderQuery, type Expr, type Item, type OrderKey, type Query, type Select, type SetOp, type T } from './model.js';
import { PredGen } from './pred-gen.js';
import { Rng } from './prng.js';

/** What a SELECT is for: it decides shapes and sizes. */
type Role = 'top' | 'derived' | 'operand' | 'in' | 'exists' | 'scalar';

interface SelOpts {
  readonly role: Role;
  /** Remaining nesting budget for derived tables and subqueries. */
  readonly depth: number;
  /** Required output types (set-operation right sides, IN and scalar subqueries). */
  readonly want?: readonly T[];
  /** Preferred base table. */
  readonly table?: string;
  /** A ready FROM clause (subqueries build theirs with the correlation). */
  readonly fromInfo?: FromInfo;
  /** The FROM clause correlates with an outer query. */
  readonly correlated?: boolean;
}

/** Row-estimate budgets of a FROM clause: top-level queries, and derived tables / subqueries. */
const TOP_EST = 20000;
const SUB_EST = 4000;

/** True if no two columns share a name (a star over them has unambiguous output names). */
function uniqueNames(cols: readonly { readonly name: string }[]): boolean {
  return new Set(cols.map((c) => c.name)).size === cols.length;
}

/** Generates queries; one instance per query. */
export class QueryGen implements SubqueryMaker {
  readonly g: ExprGen;
  readonly pg: PredGen;
  readonly fg: FromGen;

  constructor(readonly rng: Rng, catalog: Catalog, features: FeatureSet) {
    this.g = new ExprGen(rng, catalog, features);
    this.g.sub = this;
    this.pg = new PredGen(this.g);
    this.fg = new FromGen(this.g, this.pg, { derived: (depth) => this.derived(depth) });
  }

  /** A top-level query. */
  top(): QueryMeta {
    if (this.g.on('setop') && this.rng.chance(0.15)) return this.withOrder(this.setop(2), 'top');
    return this.select({ role: 'top', depth: 2 });
  }

  private derived(depth: number): QueryMeta {
    if (this.g.on('setop') && this.rng.chance(0.08)) return this.setop(depth);
    return this.select({ role: 'derived', depth });
  }

  private setop(depth: number): QueryMeta {
    const r = this.rng;
    const g = this.g;
    const left = this.select({ role: 'operand', depth: Math.max(0, depth - 1) });
    const operand = (): QueryMeta => this.select({ role: 'operand', depth: Math.max(0, depth - 1), want: left.types, ...(r.chance(0.6) && left.baseTable ? { table: left.baseTable } : {}) });
    const op = (): { op: SetOp['op']; all: boolean } => ({
      op: r.weighted<SetOp['op']>([[5, 'UNION'], [g.on('intersect') ? 2 : 0, 'INTERSECT'], [g.on('except') ? 2 : 0, 'EXCEPT']]),
      all: g.on('setopAll') && r.chance(0.4),
    });
    const paren = (m: QueryMeta): Query => (r.chance(0.15) ? { ...m.q, paren: true } : m.q);
    const first = op();
    const right = first.op !== 'UNION' && r.chance(0.7) ? this.variant(left) ?? operand() : operand();
    let q: SetOp = { k: 'setop', ...first, left: paren(left), right: paren(right) };
    let est = left.est + right.est;
    if (r.chance(0.2)) {
      const third = operand();
      q = r.chance(0.6) ? { k: 'setop', ...op(), left: q, right: paren(third) } : { ...q, right: { k: 'setop', ...op(), left: q.right, right: paren(third) } };
      est += third.est;
    }
    return { q, names: left.names, types: left.types, origins: left.types.map(() => undefined), ...(left.inexact ? { inexact: left.inexact } : {}), est, ...(left.baseTable ? { baseTable: left.baseTable } : {}) };
  }

  /** The same SELECT with one more WHERE conjunct (and maybe DISTINCT flipped): INTERSECT / EXCEPT against it are not trivially empty. */
  private variant(m: QueryMeta): QueryMeta | undefined {
    if (m.q.k !== 'select' || !m.scope) return undefined;
    const extra = this.pg.pred({ ...this.ctxFor(m.scope, 0, false), conjunct: true }, 1);
    const where = m.q.where ? PredGen.conj('AND', m.q.where, extra) : extra;
    return { ...m, q: { ...m.q, where, distinct: this.rng.chance(0.3) ? !m.q.distinct : m.q.distinct } };
  }

  /** Adds ORDER BY (and maybe LIMIT / OFFSET) to a query whose output has no stars. */
  private withOrder(m: QueryMeta, role: Role): QueryMeta {
    const r = this.rng;
    const g = this.g;
    const n = m.types.length;
    if (outputNames(m.q).includes('*') || n === 0) return m;
    const wantOrder = role === 'top' ? g.on('orderBy') && r.chance(0.4) : role === 'derived' ? g.on('orderBy') && g.on('limit') && r.chance(0.08) : false;
    if (!wantOrder) return m;
    const limit = g.on('limit') && (role === 'derived' || r.chance(0.45));
    const cols = limit ? r.sample([...Array(n).keys()], n) : r.sample([...Array(n).keys()], r.int(1, n));
    const order: OrderKey[] = cols.map((col) => ({
      col, desc: r.chance(0.4), ordinal: g.on('ordinal') && r.chance(0.2),
      ...(g.on('nullsOrder') && r.chance(0.2) ? { nulls: r.pick(['FIRST', 'LAST'] as const) } : {}),
    }));
    const tail: { order: OrderKey[]; limit?: number; offset?: number } = { order };
    if (limit) {
      tail.limit = r.weighted([[1, 0], [6, r.int(1, 10)], [2, r.int(11, 60)]]);
      if (g.on('offset') && r.chance(0.3)) tail.offset = r.int(0, 5);
    }
    return { ...m, q: { ...m.q, ...tail } };
  }

  private ctxFor(scope: FromInfo['scope'], depth: number, sub: boolean): Ctx {
    return { scope, subDepth: depth, correlate: true, qualify: sub || this.rng.chance(0.3) };
  }

  /** A SELECT for a role. */
  select(opts: SelOpts): QueryMeta {
    const r = this.rng;
    const g = this.g;
    const sub = opts.role === 'in' || opts.role === 'exists' || opts.role === 'scalar';
    const nSources = opts.fromInfo ? 1 : r.weighted([[45, 1], [40, 2], [15, 3]]);
    const fi = opts.fromInfo ?? this.fg.build(nSources, opts.depth, opts.role === 'top' ? TOP_EST : SUB_EST, opts.table);
    const ctx = this.ctxFor(fi.scope, opts.depth, sub);
    const conj = [...fi.conjuncts];
    const nPreds = r.weighted([[35, 0], [45, 1], [15, 2], [5, 3]]);
    for (let i = 0; i < nPreds; i++) conj.push(this.pg.pred({ ...ctx, conjunct: true }, r.int(0, 2)));
    const where = PredGen.all(conj);

    const groupChance = { top: 0.35, derived: 0.35, operand: 0.25, in: 0.15, exists: 0.1, scalar: 1 }[opts.role];
    const grouped = opts.role === 'scalar' || (g.on('groupBy') && r.chance(groupChance));
    let items: Item[];
    let groupBy: Expr[] | undefined;
    let having: Expr | undefined;
    if (grouped) {
      // correlatedAggPredicate: [NOT] EXISTS / [NOT] IN over a correlated aggregation without GROUP BY (always one row).
      const globalOk = g.on('globalAgg') && ((opts.role !== 'exists' && opts.role !== 'in') || !opts.correlated || g.on('correlatedAggPredicate'));
      groupBy = opts.role === 'scalar' || (globalOk && r.chance(0.2)) ? [] : this.groupKeys(ctx);
      const gctx: Ctx = { ...ctx, grouped: groupBy, correlate: false };
      if (opts.role === 'scalar') {
        // One aggregate, or an expression over aggregates (which may hold uncorrelated subqueries: subqueryInCorrelatedAgg).
        const t = opts.want![0]!;
        const sctx = opts.correlated && !g.on('subqueryInCorrelatedAgg') ? { ...gctx, subDepth: 0 } : gctx;
        let e = r.chance(0.35) ? g.expr(t, sctx, 1) : undefined;
        if (!e && (t === 'int' || t === 'double') && sctx.subDepth > 0 && r.chance(0.15)) {
          const a = g.agg(t, gctx);
          const inner = this.scalar(t, { ...sctx, correlate: false });
          if (a && inner) e = g.bin(t, a, '+', inner, PREC.add);
        }
        items = [{ k: 'item', e: e && hasAggregate(e) ? e : g.agg(t, gctx) ?? g.agg('int', gctx)! }];
      } else if (opts.want) {
        items = opts.want.map((t) => ({ k: 'item', e: r.chance(0.4) ? g.leaf(t, gctx) : g.expr(t, gctx, r.int(0, 2)) }));
      } else {
        items = groupBy.filter(() => r.chance(0.6)).map((e) => ({ k: 'item', e }));
        const n = r.int(items.length === 0 ? 1 : 0, 3);
        for (let i = 0; i < n; i++) items.push({ k: 'item', e: g.expr(r.pick(['int', 'int', 'double', 'double', 'varchar', 'date', 'bool'] as const), gctx, r.int(0, 2)) });
      }
      // DuckDB bug: a correlated `SELECT 1 ... HAVING TRUE` (HAVING without GROUP BY or aggregates) gives NULL, not 1,
      // for outer rows without matches. Only real aggregations get a HAVING.
      const aggregates = groupBy.length > 0 || items.some((it) => it.k === 'item' && hasAggregate(it.e));
      const havingOk = g.on('having') && aggregates && (!opts.correlated || g.on('correlatedHaving'));
      if (havingOk && r.chance(0.35)) having = this.pg.pred(gctx, 1);
    } else if (opts.want) {
      items = opts.want.map((t) => ({ k: 'item', e: r.chance(0.5) ? g.columnish(t, ctx) ?? g.expr(t, ctx, 1) : g.expr(t, ctx, r.int(0, 2)) }));
    } else if (g.on('star') && (opts.role === 'derived' || opts.role === 'exists' || opts.role === 'top') && uniqueNames(fi.scope.cols) && r.chance(0.08)) {
      items = [r.chance(0.5) || fi.from.joins.length === 0 ? { k: 'star' } : { k: 'star', qualifier: r.pick(fi.scope.cols).q }];
    } else if (opts.role === 'exists' && r.chance(0.5)) {
      items = [{ k: 'item', e: literalOf(r, 'int', 1, 'value') }];
    } else {
      const types = g.availableTypes(ctx);
      const n = opts.role === 'in' ? 1 : r.int(1, 5);
      items = [];
      for (let i = 0; i < n; i++) {
        const t: T = r.chance(0.1) || types.length === 0 ? 'bool' : r.pick(types);
        items.push({ k: 'item', e: r.chance(0.45) ? g.columnish(t, ctx) ?? g.expr(t, ctx, 2) : g.expr(t, ctx, r.int(1, 2)) });
      }
    }
    items = this.name(items, opts.role);
    const distinct = g.on('distinct') && opts.role !== 'scalar' && r.chance(0.12);
    const groupRefs = groupBy && g.on('groupByRef') ? this.groupRefs(groupBy, items, fi.scope.cols) : undefined;
    const hasDerived = [fi.from.base, ...fi.from.joins.map((j) => j.src)].some((x) => x.k === 'derived');
    const hoist = hasDerived && opts.role !== 'operand' && g.on('cte') && r.chance(0.3);
    const q: Select = {
      k: 'select', distinct, items, from: fi.from, ...(hoist ? { hoist } : {}), ...(groupRefs ? { groupRefs } : {}),
      ...(where ? { where } : {}), ...(groupBy ? { groupBy } : {}), ...(having ? { having } : {}),
    };
    const types: T[] = [];
    const origins: (string | undefined)[] = [];
    const names: string[] = [];
    const inexact: boolean[] = [];
    for (const it of items) {
      if (it.k === 'star') {
        for (const c of fi.scope.cols.filter((x) => !it.qualifier || x.q === it.qualifier)) { types.push(c.type); origins.push(c.origin); names.push(c.name); inexact.push(c.inexact === true); }
      } else {
        types.push(it.e.type);
        origins.push(it.e.column !== undefined ? it.e.domain : undefined);
        names.push(it.alias ?? it.e.column ?? '?');
        inexact.push(isInexact(it.e));
      }
    }
    const est = grouped ? Math.max(1, Math.ceil(fi.scope.est / 4)) : fi.scope.est;
    const meta: QueryMeta = { q, names, types, origins, inexact, est, scope: fi.scope, ...(fi.baseTable ? { baseTable: fi.baseTable } : {}) };
    return opts.role === 'top' || opts.role === 'derived' ? this.withOrder(meta, opts.role) : meta;
  }

  /** Aliases items: unique output names; bare columns sometimes keep their own name. */
  private name(items: Item[], role: Role): Item[] {
    const r = this.rng;
    const prefix = role === 'derived' ? 'x' : 'c';
    const bare = new Map<string, number>();
    for (const it of items) if (it.k === 'item' && it.e.column) bare.set(it.e.column, (bare.get(it.e.column) ?? 0) + 1);
    return items.map((it, i) => {
      if (it.k === 'star') return it;
      const keep = it.e.column !== undefined && bare.get(it.e.column) === 1 && !/^[cx]\d+$/.test(it.e.column) && r.chance(0.4);
      return keep ? it : { ...it, alias: `${prefix}${i}` };
    });
  }

  /** GROUP BY keys that are select items may be written as the item's ordinal or alias (an alias only when no column or table has its name). */
  private groupRefs(keys: readonly Expr[], items: readonly Item[], cols: readonly { readonly name: string; readonly q: string }[]): ('ordinal' | 'alias' | undefined)[] | undefined {
    const r = this.rng;
    const refs = keys.map((k) => {
      const item = items.find((it) => it.k === 'item' && it.e === k);
      if (!item || item.k !== 'item' || !r.chance(0.3)) return undefined;
      // DuckDB reads a bare table alias as the whole row, so an alias equal to a table alias is out too.
      const aliasOk = item.alias !== undefined && !cols.some((c) => c.name === item.alias || c.q === item.alias);
      return aliasOk && r.chance(0.5) ? 'alias' as const : 'ordinal' as const;
    });
    return refs.some((x) => x !== undefined) ? refs : undefined;
  }

  private groupKeys(ctx: Ctx): Expr[] {
    const r = this.rng;
    const g = this.g;
    const n = r.weighted([[5, 1], [3, 2], [1, 3]]);
    const plain: Ctx = { ...ctx, subDepth: 0 };
    const keys: Expr[] = [];
    const seen = new Set<string>();
    for (let i = 0; i < n; i++) {
      let e: Expr;
      if (g.on('groupByExpr') && r.chance(0.25)) {
        e = g.expr(r.pick(['int', 'varchar', 'date'] as const), plain, 1);
        if (e.literal) e = g.col(r.pick(ctx.scope.cols), plain);
      } else {
        e = g.col(r.pick(ctx.scope.cols), plain);
      }
      const key = renderExpr(e);
      if (!seen.has(key)) { seen.add(key); keys.push(e); }
    }
    return keys;
  }

  /** A FROM for a subquery: one table, correlated with the outer scope through a join edge when asked and possible. */
  private subFrom(ctx: Ctx, correlated: boolean, preferFrom?: string): FromInfo {
    const r = this.rng;
    const g = this.g;
    if (correlated) {
      const cands: { outer: (typeof ctx.scope.cols)[number]; to: string }[] = [];
      for (const c of ctx.scope.cols) {
        if (!c.origin) continue;
        for (const e of g.catalog.edges) {
          if (e.a === c.origin) cands.push({ outer: c, to: e.b });
          if (e.b === c.origin) cands.push({ outer: c, to: e.a });
        }
      }
      const ok = cands.filter((c) => this.fg.tables().some((t) => t.name === c.to.split('.')[0]));
      if (ok.length > 0) {
        const c = r.pick(ok);
        const [tname, cname] = c.to.split('.') as [string, string];
        const s = this.fg.source(this.fg.tables().find((t) => t.name === tname)!, ['where', 'derived'], true, SUB_EST);
        const inner = s.cols.find((x) => x.name === cname)!;
        const qctx: Ctx = { scope: { cols: [...ctx.scope.cols, ...s.cols], est: s.est }, subDepth: 0, correlate: false, qualify: true };
        const eq = this.pg.compare(g.col(inner, qctx), '=', g.col(c.outer, qctx));
        return { from: { k: 'from', base: s.src, joins: [] }, scope: { cols: s.cols, est: s.est }, conjuncts: [...(s.restriction ? [s.restriction] : []), eq] };
      }
    }
    const t = preferFrom ? this.fg.tables().find((x) => x.name === preferFrom) ?? this.fg.pickTable() : this.fg.pickTable();
    const s = this.fg.source(t, ['where', 'derived'], true, SUB_EST);
    return { from: { k: 'from', base: s.src, joins: [] }, scope: { cols: s.cols, est: s.est }, conjuncts: s.restriction ? [s.restriction] : [] };
  }

  private mayCorrelate(ctx: Ctx): boolean {
    return this.g.on('correlated') && ctx.correlate && !ctx.grouped && ctx.scope.est <= 3000;
  }

  scalar(t: T, ctx: Ctx): Expr | undefined {
    if (ctx.subDepth <= 0 || t === 'bool') return undefined;
    const correlated = this.mayCorrelate(ctx) && this.rng.chance(0.5);
    const fi = this.subFrom(ctx, correlated);
    const m = this.select({ role: 'scalar', depth: ctx.subDepth - 1, want: [t], fromInfo: fi, correlated });
    return expr(m.types[0] ?? t, PREC.atom, [{ k: 'sub', q: m.q }]);
  }

  exists(ctx: Ctx): Expr | undefined {
    if (ctx.subDepth <= 0) return undefined;
    const correlated = this.mayCorrelate(ctx) && this.rng.chance(0.75);
    const fi = this.subFrom(ctx, correlated);
    const m = this.select({ role: 'exists', depth: ctx.subDepth - 1, fromInfo: fi, correlated });
    return expr('bool', PREC.cmp, [this.rng.chance(0.3) ? 'NOT EXISTS ' : 'EXISTS ', { k: 'sub', q: m.q }]);
  }

  inSubquery(arg: Expr, ctx: Ctx): Expr | undefined {
    if (ctx.subDepth <= 0 || arg.type === 'bool') return undefined;
    if (ctx.conjunct && ctx.negated && !this.g.on('notInOuterJoin') && readsOuterNull(arg)) return undefined;
    const r = this.rng;
    // Prefer the table an edge from the argument's column leads to (o_custkey IN (SELECT c_custkey ...)).
    const edge = arg.domain ? this.g.catalog.edges.find((e) => e.a === arg.domain || e.b === arg.domain) : undefined;
    const prefer = edge && r.chance(0.6) ? (edge.a === arg.domain ? edge.b : edge.a).split('.')[0] : undefined;
    const correlated = this.mayCorrelate(ctx) && (ctx.conjunct === true || this.g.on('correlatedInValue')) && r.chance(0.3);
    const fi = this.subFrom(ctx, correlated, prefer);
    const m = this.select({ role: 'in', depth: ctx.subDepth - 1, want: [arg.type], fromInfo: fi, correlated });
    // notInOuterJoin: NOT IN whose argument an outer join may have made NULL.
    const not = this.g.on('notInSubquery') && (this.g.on('notInOuterJoin') || !readsOuterNull(arg)) && r.chance(0.3);
    return expr('bool', PREC.cmp, [{ k: 'slot', e: arg, min: PREC.atom }, not ? ' NOT IN ' : ' IN ', { k: 'sub', q: m.q }]);
  }
}

/** A generated query: its model, SQL text and output column names. */
export interface Generated {
  readonly seed: number;
  readonly query: Query;
  readonly sql: string;
  readonly names: readonly string[];
}

/** The query of a seed (deterministic for a seed, catalog and feature set). */
export function generateQuery(seed: number, catalog: Catalog, features: FeatureSet): Generated {
  const gen = new QueryGen(new Rng(seed), catalog, features);
  const m = gen.top();
  return { seed, query: m.q, sql: renderQuery(m.q), names: outputNames(m.q) };
}

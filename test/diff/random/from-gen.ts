/**
 * FROM clauses: 1–3 sources joined along key edges (inner, left, right,
 * full, cross, comma joins, self joins), big tables restricted to a key
 * range — as a derived table, a WHERE conjunct or an ON conjunct — so every
 * query stays fast, and a running row estimate that keeps joins from
 * blowing up.
 */
import type { Edge, TableInfo } from './catalog.js';
import type { Col, ExprGen, Scope } from './expr-gen.js';
import { literalOf } from './literals.js';
import { expr, PREC, slot, type Expr, type From, type Join, type JoinWord, type Query, type Select, type Source, type T } from './model.js';
import { PredGen } from './pred-gen.js';

/** A FROM clause with its scope and the conjuncts it needs in WHERE. */
export interface FromInfo {
  readonly from: From;
  readonly scope: Scope;
  /** Restrictions and comma-join conditions that go into WHERE. */
  readonly conjuncts: readonly Expr[];
  /** The base table's name (for set-operation operands over the same table). */
  readonly baseTable?: string;
}

/** A generated source. */
export interface SourceInfo {
  readonly src: Source;
  readonly cols: Col[];
  readonly est: number;
  readonly table?: string;
  /** A restriction to put in WHERE or ON (when the restriction is not a derived table). */
  readonly restriction?: Expr;
}

/** Where a restriction may go. */
export type RestrictPlace = 'where' | 'on' | 'derived';

/** A generated query with what its outer query needs to know about its output. */
export interface QueryMeta {
  readonly q: Query;
  readonly names: readonly string[];
  readonly types: readonly T[];
  /** `table.column` of output columns that are bare base columns. */
  readonly origins: readonly (string | undefined)[];
  /** Output columns holding order-dependent floats (see Expr.inexact). */
  readonly inexact?: readonly boolean[];
  readonly est: number;
  /** The base table of the FROM clause (set-operation operands reuse it). */
  readonly baseTable?: string;
  /** The FROM scope of a SELECT (set operations derive a similar operand from it). */
  readonly scope?: Scope;
}

/** Makes derived tables for FROM (implemented by the query generator). */
export interface DerivedMaker {
  derived(depth: number): QueryMeta;
}

const PREFIX: Readonly<Record<string, string>> = {
  region: 'r', nation: 'n', supplier: 's', customer: 'c', part: 'p', partsupp: 'ps', orders: 'o', lineitem: 'l', nulls: 'nu', nulls_r: 'nr',
};

/** Builds FROM clauses. */
export class FromGen {
  private aliasCount = 0;

  constructor(private readonly g: ExprGen, private readonly pg: PredGen, private readonly derivedMaker: DerivedMaker) {}

  /** A fresh alias for a table (or 'd' for derived tables). */
  alias(table: string | undefined): string {
    return `${table ? PREFIX[table] ?? 't' : 'd'}${++this.aliasCount}`;
  }

  /** Tables allowed by the feature set. */
  tables(): readonly TableInfo[] {
    return this.g.catalog.tables.filter((t) => this.g.on('nullsTables') || !t.nullable);
  }

  /** A table picked by weight, optionally only among those with at most `maxRows` rows. */
  pickTable(maxRows = Infinity): TableInfo {
    const ts = this.tables().filter((t) => t.rows <= maxRows || t.restrict !== undefined);
    return this.g.rng.weighted(ts.map((t) => [t.weight, t] as const));
  }

  /** A source over `table`; `places` says where its restriction may go; `forceAlias` when the name could clash. */
  source(table: TableInfo, places: readonly RestrictPlace[], forceAlias: boolean, maxEst = Infinity): SourceInfo {
    const r = this.g.rng;
    const alias = forceAlias || r.chance(0.7) ? this.alias(table.name) : undefined;
    const q = alias ?? table.name;
    const cols: Col[] = table.columns.map((c) => ({ q, name: c.name, type: c.type, nullable: table.nullable, origin: `${table.name}.${c.name}` }));
    const res = table.restrict;
    const mustRestrict = res !== undefined && (table.rows > 3000 || table.rows > maxEst);
    if (!res || (!mustRestrict && r.chance(0.5))) return { src: { k: 'table', name: table.name, ...(alias ? { alias } : {}) }, cols, est: table.rows, table: table.name };
    const hi = Math.max(res.lo, Math.min(res.hi, Math.floor(maxEst / res.density)));
    const bound = r.int(res.lo, hi);
    const est = Math.min(table.rows, Math.ceil(bound * res.density));
    const place = r.pick(places);
    const boundLit = literalOf(r, 'int', bound, 'compare');
    if (place === 'derived') {
      const da = alias ?? this.alias(table.name);
      const inner: Select = {
        k: 'select', distinct: false, items: [{ k: 'star' }], from: { k: 'from', base: { k: 'table', name: table.name }, joins: [] },
        where: this.pg.compare(this.g.col({ q: table.name, name: res.column, type: 'int', nullable: false }, { scope: { cols: [], est: 0 }, subDepth: 0, correlate: false, qualify: false }), '<', boundLit),
      };
      return { src: { k: 'derived', q: inner, alias: da }, cols: cols.map((c) => ({ ...c, q: da })), est, table: table.name };
    }
    const keyCol = cols.find((c) => c.name === res.column)!;
    const key = this.g.col(keyCol, { scope: { cols, est }, subDepth: 0, correlate: false, qualify: true });
    const restriction = r.chance(0.8) ? this.pg.compare(key, r.pick(['<', '<=']), boundLit)
      : expr('bool', PREC.cmp, [slot(key, PREC.atom), ' BETWEEN 1 AND ', slot(boundLit, PREC.atom)]);
    return { src: { k: 'table', name: table.name, ...(alias ? { alias } : {}) }, cols, est, table: table.name, restriction };
  }

  private derivedSource(depth: number): SourceInfo {
    const m = this.derivedMaker.derived(depth);
    const alias = this.alias(undefined);
    const cols: Col[] = m.names.map((name, i) => ({ q: alias, name, type: m.types[i]!, nullable: true, ...(m.origins[i] ? { origin: m.origins[i] } : {}), ...(m.inexact?.[i] ? { inexact: true } : {}), outerNull: true }));
    return { src: { k: 'derived', q: m.q, alias }, cols, est: m.est };
  }

  private joinWord(): JoinWord {
    const g = this.g;
    return g.rng.weighted<JoinWord>([
      [4, g.rng.pick(['JOIN', 'INNER JOIN'] as const)],
      [g.on('leftJoin') ? 2.5 : 0, g.rng.pick(['LEFT JOIN', 'LEFT OUTER JOIN'] as const)],
      [g.on('rightJoin') ? 1 : 0, g.rng.pick(['RIGHT JOIN', 'RIGHT OUTER JOIN'] as const)],
      [g.on('fullJoin') ? 1 : 0, g.rng.pick(['FULL JOIN', 'FULL OUTER JOIN'] as const)],
      [g.on('commaJoin') ? 0.8 : 0, ','],
      [g.on('crossJoin') ? 0.5 : 0, 'CROSS JOIN'],
    ]);
  }

  /**
   * A FROM clause of `n` sources (fewer when no join fits the row budget);
   * `table` fixes the base table; `depth` > 0 allows a derived base table.
   */
  build(n: number, depth: number, maxEst: number, table?: string, forceAlias = false): FromInfo {
    const g = this.g;
    const r = g.rng;
    const conjuncts: Expr[] = [];
    const useDerived = !table && depth > 0 && g.on('derived') && r.chance(0.12);
    const baseTable = table ? this.tables().find((t) => t.name === table) ?? this.pickTable() : this.pickTable();
    const base = useDerived ? this.derivedSource(depth - 1) : this.source(baseTable, ['where', 'derived'], forceAlias, maxEst);
    if (base.restriction) conjuncts.push(base.restriction);
    let cols = [...base.cols];
    let est = base.est;
    const joins: Join[] = [];
    const used = new Set<string>(base.table ? [base.table] : []);
    for (let i = 1; i < n && g.on('join'); i++) {
      const word = this.joinWord();
      const last = i === n - 1;
      if (word === ',' && !last) continue;
      if (word === 'CROSS JOIN' || (word === ',' && r.chance(0.3))) {
        const small = this.tables().filter((t) => t.rows * est <= maxEst && t.rows <= 100);
        if (small.length === 0) continue;
        const t = r.pick(small);
        if (used.has(t.name) && !g.on('selfJoin')) continue;
        const s = this.source(t, ['derived'], true);
        joins.push({ k: 'join', word, src: s.src });
        cols = [...cols, ...s.cols];
        est *= s.est;
        used.add(t.name);
        continue;
      }
      const cands: { col: Col; to: string; fan: number; also: readonly (readonly [string, string])[] }[] = [];
      const addCand = (c: Col, e: Edge, fromA: boolean): void => {
        const to = fromA ? e.b : e.a;
        const also = (e.also ?? []).map(([x, y]) => (fromA ? [x, y] as const : [y, x] as const));
        cands.push({ col: c, to, fan: fromA ? e.ab : e.ba, also });
      };
      for (const c of cols) {
        if (!c.origin) continue;
        for (const e of g.catalog.edges) {
          if (e.a === c.origin) addCand(c, e, true);
          else if (e.b === c.origin) addCand(c, e, false);
        }
      }
      const ok = cands.filter((c) => {
        const tname = c.to.split('.')[0]!;
        const t = this.tables().find((x) => x.name === tname);
        return t !== undefined && (!used.has(tname) || g.on('selfJoin'));
      });
      if (ok.length === 0) continue;
      const cand = r.pick(ok);
      const [tname, cname] = cand.to.split('.') as [string, string];
      const t = this.tables().find((x) => x.name === tname)!;
      const places: RestrictPlace[] = word === 'JOIN' || word === 'INNER JOIN' || word.startsWith('LEFT') ? ['on', 'derived'] : ['derived'];
      const s = this.source(t, places, true, Math.max(200, maxEst / Math.max(1, est)));
      const frac = s.est / t.rows;
      const m = cand.fan * frac;
      const nextEst = word.startsWith('FULL') ? est * m + s.est : word.startsWith('RIGHT') ? Math.max(est * m, s.est) : word.startsWith('LEFT') ? est * Math.max(1, m) : est * m;
      if (nextEst > maxEst) continue;
      const ctx = { scope: { cols: [...cols, ...s.cols], est: nextEst }, subDepth: 0, correlate: false, qualify: true };
      const newCol = s.cols.find((c) => c.name === cname)!;
      const onParts: Expr[] = [this.pg.compare(g.col(cand.col, ctx), '=', g.col(newCol, ctx))];
      for (const [x, y] of cand.also) {
        const ex = cols.find((c) => c.q === cand.col.q && c.origin === x);
        const ny = s.cols.find((c) => c.origin === y);
        if (ex && ny) onParts.push(this.pg.compare(g.col(ex, ctx), '=', g.col(ny, ctx)));
      }
      if (s.restriction) onParts.push(s.restriction);
      if (g.on('joinExtraOn') && r.chance(0.25)) {
        const sideCtx = r.chance(0.6) ? { ...ctx, scope: { cols: s.cols, est: s.est } } : ctx;
        onParts.push(this.pg.pred(sideCtx, 1));
      }
      // A self-join on one same-named column may be written USING (col).
      const usable = g.on('using') && onParts.length === 1 && word !== ',' && cand.col.name === cname && r.chance(0.4)
        && cols.filter((c) => c.name === cname).length === 1;
      if (word === ',') {
        conjuncts.push(...onParts);
        joins.push({ k: 'join', word, src: s.src });
      } else if (usable) {
        joins.push({ k: 'join', word, src: s.src, using: [cname] });
      } else {
        joins.push({ k: 'join', word, src: s.src, on: PredGen.all(onParts)! });
      }
      const leftNull = word.startsWith('RIGHT') || word.startsWith('FULL');
      const rightNull = word.startsWith('LEFT') || word.startsWith('FULL');
      cols = [...cols.map((c) => (leftNull ? { ...c, nullable: true, outerNull: true } : c)), ...s.cols.map((c) => (rightNull ? { ...c, nullable: true, outerNull: true } : c))];
      est = nextEst;
      used.add(tname);
    }
    return { from: { k: 'from', base: base.src, joins }, scope: { cols, est: Math.max(1, est) }, conjuncts, ...(base.table ? { baseTable: base.table } : {}) };
  }
}

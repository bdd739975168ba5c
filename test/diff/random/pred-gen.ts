/**
 * Random predicates: comparisons against literals from the column's own
 * values, AND/OR/NOT, IS [NOT] NULL, [NOT] IN lists, [NOT] BETWEEN,
 * [NOT] LIKE, boolean columns, and subquery predicates (EXISTS, IN, scalar
 * comparisons) through the SubqueryMaker.
 */
import type { Ctx, ExprGen } from './expr-gen.js';
import { likePattern, literalOf, quote } from './literals.js';
import { expr, isInexact, PREC, slot, type Expr, type T } from './model.js';

type Maker = () => Expr | undefined;

/** True if an expression reads a column or an aggregate (is not constant). */
export function readsData(e: Expr): boolean {
  if (e.column !== undefined || e.aggregate) return true;
  return e.parts.some((p) => typeof p !== 'string' && (p.k === 'sub' || readsData(p.e)));
}

const CMP_OPS = ['=', '<>', '<', '<=', '>', '>='];

/** Generates predicates; installs itself as the expression generator's `predicate`. */
export class PredGen {
  constructor(private readonly g: ExprGen) {
    g.predicate = (ctx, depth) => this.pred(ctx, depth);
  }

  /** `a AND b` / `a OR b` as a binary node (nested ANDs let the minimizer drop one conjunct at a time). */
  static conj(op: 'AND' | 'OR', a: Expr, b: Expr): Expr {
    const p = op === 'AND' ? PREC.and : PREC.or;
    return expr('bool', p, [slot(a, p), ` ${op} `, slot(b, p)]);
  }

  /** Conjunction of a list (undefined when empty). */
  static all(xs: readonly Expr[]): Expr | undefined {
    return xs.reduce<Expr | undefined>((acc, x) => (acc ? PredGen.conj('AND', acc, x) : x), undefined);
  }

  private cmpType(ctx: Ctx): T {
    const ts = this.g.availableTypes(ctx);
    return ts.length > 0 ? this.g.rng.pick(ts) : 'int';
  }

  /** An operand that reads a column (or a key / an aggregate) whenever one of type t exists. */
  private operand(t: T, ctx: Ctx, depth: number): Expr {
    const e = this.g.rng.chance(0.65) ? this.g.columnish(t, ctx) ?? this.g.expr(t, ctx, depth) : this.g.expr(t, ctx, depth);
    return readsData(e) ? e : this.g.columnish(t, ctx) ?? e;
  }

  /** `a op b`. */
  compare(a: Expr, op: string, b: Expr): Expr {
    return expr('bool', PREC.cmp, [slot(a, PREC.cmp + 1), ` ${op} `, slot(b, PREC.cmp + 1)]);
  }

  /** A predicate with at most `depth` levels of nesting. */
  pred(ctx: Ctx, depth: number): Expr {
    const g = this.g;
    const r = g.rng;
    const d = Math.max(0, depth - 1);
    // Only AND and NOT keep a WHERE conjunct a conjunct; everything below other operators is a value.
    const conj = ctx;
    ctx = ctx.conjunct ? { ...ctx, conjunct: false, negated: false } : ctx;
    const boolCols = ctx.grouped ? ctx.grouped.filter((k) => k.type === 'bool') : g.colsOf('bool', ctx).map((c) => g.col(c, ctx));
    const sub = ctx.subDepth > 0 && g.sub !== undefined;
    const makers: [number, Maker][] = [
      [6, () => this.cmp(ctx, d)],
      [depth > 0 ? 2 : 0, () => PredGen.conj('AND', this.pred(conj, d), this.pred(conj, d))],
      [depth > 0 ? 1.5 : 0, () => PredGen.conj('OR', this.pred(ctx, d), this.pred(ctx, d))],
      [depth > 0 && g.on('not') ? 0.7 : 0, () => expr('bool', PREC.not, ['NOT ', slot(this.pred({ ...conj, negated: !conj.negated }, d), PREC.not)])],
      [g.on('isNull') ? 1.5 : 0, () => this.isNull(ctx, d)],
      [g.on('inList') ? 1.5 : 0, () => this.inList(ctx, d)],
      [g.on('between') ? 1 : 0, () => this.between(ctx, d)],
      [g.on('like') ? 1.5 : 0, () => this.like(ctx, d)],
      [boolCols.length > 0 ? 1 : 0, () => r.pick(boolCols)],
      [0.15, () => literalOf(r, 'bool', r.chance(0.7), 'value')],
      [sub && g.on('exists') ? 1 : 0, () => g.sub!.exists(ctx)],
      [sub && g.on('inSubquery') ? 1 : 0, () => g.sub!.inSubquery(this.operand(this.cmpType(ctx), ctx, 0), conj)],
      [sub && g.on('scalarSubquery') ? 0.7 : 0, () => {
        const t = this.cmpType(ctx);
        const s = g.sub!.scalar(t, ctx);
        return s ? this.compare(this.operand(t, ctx, 0), r.pick(CMP_OPS), s) : undefined;
      }],
    ];
    return r.weighted(makers)() ?? this.cmp(ctx, d);
  }

  private cmp(ctx: Ctx, d: number): Expr {
    const g = this.g;
    const r = g.rng;
    const t = this.cmpType(ctx);
    let a = this.operand(t, ctx, d);
    let b = r.chance(0.7) ? g.literal(t, a.domain, 'compare') : this.g.expr(t, ctx, d);
    // Equality on a column with many distinct values rarely matches: prefer ranges there.
    const samples = a.domain ? g.catalog.samples.get(a.domain) : undefined;
    const manyValues = samples === undefined || samples.length >= 30;
    const op = manyValues ? r.weighted([[1, '='], [1.5, '<>'], [3, '<'], [3, '<='], [3, '>'], [3, '>=']]) : r.pick(CMP_OPS);
    // Comparing a column with itself is constant; comparing two order-dependent floats
    // (sum(DISTINCT x) <= sum(x)) depends on the last bits: compare with a literal instead.
    if ((b.column !== undefined && b.column === a.column) || (t === 'double' && !b.literal && (isInexact(a) || isInexact(b)))) b = g.literal(t, a.domain, 'compare');
    if (t === 'date' && g.on('interval') && r.chance(0.25)) [a, b] = this.withInterval(a, b);
    const written = op === '<>' && g.on('syntaxVariants') && r.chance(0.3) ? '!=' : op;
    return r.chance(0.15) ? this.compare(b, written, a) : this.compare(a, written, b);
  }

  /**
   * DATE ± INTERVAL inside a date comparison (DuckDB makes it a TIMESTAMP, so
   * it stays out of select lists): months and years on a literal, days on a column.
   */
  private withInterval(a: Expr, b: Expr): [Expr, Expr] {
    const r = this.g.rng;
    const n = r.int(1, 12);
    const quoted = r.chance(0.5);
    const iv = (unit: string, k: number): string => `INTERVAL ${quoted ? `'${k}'` : k} ${unit}`;
    const sign = r.pick([' + ', ' - ']);
    const text = b.parts[0];
    if (b.literal && typeof text === 'string' && text !== 'NULL' && r.chance(0.6)) {
      const unit = r.pick(['DAY', 'MONTH', 'YEAR']);
      // '1995-01-01' + INTERVAL is ambiguous to DuckDB: write DATE '1995-01-01'.
      const date = text.startsWith("'") ? expr('date', PREC.atom, [`DATE ${text}`], { literal: true }) : b;
      return [a, expr('date', PREC.add, [slot(date, PREC.add), sign, iv(unit, unit === 'DAY' ? n * 10 : unit === 'YEAR' ? Math.ceil(n / 4) : n)])];
    }
    return [expr('date', PREC.add, [slot(a, PREC.add), sign, iv('DAY', n * 7)]), b];
  }

  private isNull(ctx: Ctx, d: number): Expr {
    const g = this.g;
    const r = g.rng;
    const nullable = ctx.grouped ? [] : ctx.scope.cols.filter((c) => c.nullable);
    const a = nullable.length > 0 && r.chance(0.7) ? g.col(r.pick(nullable), ctx) : this.operand(this.cmpType(ctx), ctx, d);
    return expr('bool', PREC.cmp, [slot(a, PREC.atom), r.chance(0.6) ? ' IS NULL' : ' IS NOT NULL']);
  }

  private inList(ctx: Ctx, d: number): Expr {
    const g = this.g;
    const r = g.rng;
    const t = this.cmpType(ctx);
    const a = this.operand(t, ctx, d);
    const n = r.int(1, 5);
    const parts: (string | ReturnType<typeof slot>)[] = [slot(a, PREC.atom), r.chance(0.25) ? ' NOT IN (' : ' IN ('];
    for (let i = 0; i < n; i++) {
      if (i > 0) parts.push(', ');
      parts.push(slot(r.chance(0.08) ? literalOf(r, t, null, 'compare') : g.literal(t, a.domain, 'compare'), 0));
    }
    parts.push(')');
    return expr('bool', PREC.cmp, parts);
  }

  private between(ctx: Ctx, d: number): Expr {
    const g = this.g;
    const r = g.rng;
    const t = this.cmpType(ctx);
    const a = this.operand(t, ctx, d);
    let lo = g.literal(t, a.domain, 'compare');
    let hi = g.literal(t, a.domain, 'compare');
    const key = (e: Expr): string => String(e.parts[0]).replace(/^DATE /, '');
    const num = t === 'int' || t === 'double';
    const gt = num ? Number(key(lo)) > Number(key(hi)) : key(lo) > key(hi);
    if (gt && r.chance(0.85)) [lo, hi] = [hi, lo];
    return expr('bool', PREC.cmp, [slot(a, PREC.atom), r.chance(0.2) ? ' NOT BETWEEN ' : ' BETWEEN ', slot(lo, PREC.atom), ' AND ', slot(hi, PREC.atom)]);
  }

  private like(ctx: Ctx, d: number): Expr {
    const g = this.g;
    const r = g.rng;
    const a = this.operand('varchar', ctx, d);
    const pattern = likePattern(r, a.domain ? g.catalog.samples.get(a.domain) : undefined);
    return expr('bool', PREC.cmp, [slot(a, PREC.atom), r.chance(0.2) ? ' NOT LIKE ' : ' LIKE ', quote(pattern)]);
  }
}

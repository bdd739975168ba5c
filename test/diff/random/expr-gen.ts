/**
 * Random scalar expressions and aggregates of a requested type over a scope
 * of columns. In grouped mode the leaves are the group keys, aggregates and
 * literals, so every generated select item is valid for the GROUP BY.
 * Predicates live in pred-gen.ts; subqueries come from a SubqueryMaker (the
 * query generator), which breaks the module cycle.
 */
import type { Catalog } from './catalog.js';
import type { Feature, FeatureSet } from './features.js';
import { genericValue, literalOf, valueFor, type LiteralUse } from './literals.js';
import { expr, isInexact, PREC, slot, type Expr, type T } from './model.js';
import type { Rng } from './prng.js';

/** A column visible in a scope: qualifier, name, type, and where its values come from. */
export interface Col {
  readonly q: string;
  readonly name: string;
  readonly type: T;
  readonly nullable: boolean;
  /** `table.column` of a base column (for join edges and sample literals). */
  readonly origin?: string;
  /** Holds order-dependent float results (a derived table's sum/avg column). */
  readonly inexact?: boolean;
  /** May be NULL because of an outer join, or comes from a derived table. */
  readonly outerNull?: boolean;
}

/** The columns of a FROM clause and an estimate of its row count. */
export interface Scope {
  readonly cols: readonly Col[];
  readonly est: number;
}

/** Where an expression is generated. */
export interface Ctx {
  readonly scope: Scope;
  /** Group keys: grouped mode (leaves are keys, aggregates, literals) when defined. */
  readonly grouped?: readonly Expr[];
  /** Remaining nesting budget for subqueries (0: none). */
  readonly subDepth: number;
  /** Subqueries may correlate with this scope. */
  readonly correlate: boolean;
  /** Always qualify column references. */
  readonly qualify: boolean;
  /** The predicate being generated is a WHERE conjunct (not nested in OR, CASE, a select item ...). */
  readonly conjunct?: boolean;
  /** The conjunct is under an odd number of NOTs. */
  readonly negated?: boolean;
}

/** Builds subqueries for expressions (implemented by the query generator). */
export interface SubqueryMaker {
  /** `(SELECT agg(...) FROM ...)` of type t, or undefined when none fits. */
  scalar(t: T, c: Ctx): Expr | undefined;
  /** `[NOT] EXISTS (...)`. */
  exists(c: Ctx): Expr | undefined;
  /** `arg [NOT] IN (SELECT ...)`. */
  inSubquery(arg: Expr, c: Ctx): Expr | undefined;
}

type Maker = () => Expr | undefined;

/** Generates expressions and aggregates. */
export class ExprGen {
  /** The subquery source; set by the query generator. */
  sub: SubqueryMaker | undefined;

  constructor(readonly rng: Rng, readonly catalog: Catalog, readonly features: FeatureSet) {}

  /** True if a feature is enabled. */
  on(f: Feature): boolean {
    return this.features.has(f);
  }

  /** A reference to a column. */
  col(c: Col, ctx: Ctx): Expr {
    const dup = ctx.scope.cols.filter((x) => x.name === c.name).length > 1;
    const text = ctx.qualify || dup || this.rng.chance(0.75) ? `${c.q}.${c.name}` : c.name;
    return expr(c.type, PREC.atom, [text], { column: c.name, ...(c.origin ? { domain: c.origin } : {}), ...(c.inexact ? { inexact: true } : {}), ...(c.outerNull ? { outerNull: true } : {}) });
  }

  /** A literal of type t, drawn from the samples of `domain` when given. */
  literal(t: T, domain: string | undefined, use: LiteralUse = 'value'): Expr {
    const samples = domain ? this.catalog.samples.get(domain) : undefined;
    return literalOf(this.rng, t, samples ? valueFor(this.rng, t, samples) : genericValue(this.rng, t), use);
  }

  /** Columns of type t in scope. */
  colsOf(t: T, ctx: Ctx): Col[] {
    return ctx.scope.cols.filter((c) => c.type === t);
  }

  /** A leaf: a column (or, grouped, a key or an aggregate) or a literal. */
  leaf(t: T, ctx: Ctx): Expr {
    const r = this.rng;
    if (ctx.grouped) {
      const keys = ctx.grouped.filter((k) => k.type === t);
      return r.weighted<Maker>([
        [keys.length > 0 ? 5 : 0, () => r.pick(keys)],
        [t === 'bool' ? 0 : 5, () => this.agg(t, ctx)],
        [1, () => this.literal(t, undefined)],
      ])() ?? this.literal(t, undefined);
    }
    const cols = this.colsOf(t, ctx);
    if (cols.length > 0 && r.chance(0.8)) return this.col(r.pick(cols), ctx);
    return this.literal(t, cols.length > 0 ? r.pick(cols).origin : undefined);
  }

  /** A leaf that is preferably a column (or a key) of type t. */
  columnish(t: T, ctx: Ctx): Expr | undefined {
    if (ctx.grouped) {
      const keys = ctx.grouped.filter((k) => k.type === t);
      if (keys.length > 0 && this.rng.chance(0.5)) return this.rng.pick(keys);
      return t === 'bool' ? undefined : this.agg(t, ctx);
    }
    const cols = this.colsOf(t, ctx);
    return cols.length > 0 ? this.col(this.rng.pick(cols), ctx) : undefined;
  }

  /** The types that have a column (or key / aggregate) in this context. */
  availableTypes(ctx: Ctx): T[] {
    const ts: T[] = ['int', 'double', 'varchar', 'date'];
    if (ctx.grouped) return ts;
    return ts.filter((t) => ctx.scope.cols.some((c) => c.type === t));
  }

  /** Makes a boolean expression (set by the predicate generator). */
  predicate: (ctx: Ctx, depth: number) => Expr = () => expr('bool', PREC.atom, ['TRUE'], { literal: true });

  /** An expression of type t with at most `depth` levels of operators. */
  expr(t: T, ctx: Ctx, depth: number): Expr {
    if (t === 'bool') return this.predicate(ctx, depth);
    if (depth <= 0 || this.rng.chance(0.3)) return this.leaf(t, ctx);
    const d = depth - 1;
    const makers = t === 'int' ? this.intMakers(ctx, d) : t === 'double' ? this.doubleMakers(ctx, d) : t === 'varchar' ? this.stringMakers(ctx, d) : this.dateMakers(ctx, d);
    const common: [number, Maker][] = [
      [this.on('case') ? 2 : 0, () => this.caseExpr(t, ctx, d)],
      [this.on('coalesce') ? 1 : 0, () => this.fn(t, this.variant('coalesce', { coalesce: 'ifnull' }), [this.expr(t, ctx, d), this.expr(t, ctx, d)])],
      [this.on('nullif') ? 0.5 : 0, () => { const a = this.expr(t, ctx, d); return this.fn(t, 'nullif', [a, this.literal(t, a.domain)]); }],
      [this.on('scalarSubquery') && ctx.subDepth > 0 ? 0.6 : 0, () => this.sub?.scalar(t, ctx)],
    ];
    return this.rng.weighted([...makers, ...common])() ?? this.leaf(t, ctx);
  }

  /**
   * A DOUBLE expression that is not order-dependent (see Expr.inexact), for
   * the arguments of functions that jump (round, floor, ceil, a cast to an
   * integer): two correct engines may differ in the last bit of an inexact
   * value, and a jump turns that bit into 0.02 versus 0.03 (stddev of TPC-H
   * discounts was 0.025 + 1e-18 exactly; DuckDB's Welford said
   * 0.024999999999999994). Falls back to a literal.
   */
  exactDouble(ctx: Ctx, depth: number, leafOnly = false): Expr {
    for (let i = 0; i < 4; i++) {
      const e = leafOnly ? this.leaf('double', ctx) : this.expr('double', ctx, depth);
      if (!isInexact(e)) return e;
    }
    return this.literal('double', undefined);
  }

  /** A numeric (INTEGER-ish or DOUBLE) expression. */
  num(ctx: Ctx, depth: number): Expr {
    return this.expr(this.rng.chance(0.5) ? 'int' : 'double', ctx, depth);
  }

  /** `a op b` (left-associative, binding strength p). */
  bin(t: T, a: Expr, op: string, b: Expr, p: number): Expr {
    return expr(t, p, [slot(a, p), ` ${op} `, slot(b, p + 1)]);
  }

  /** `name(args...)`. */
  fn(t: T, name: string, args: readonly Expr[]): Expr {
    const parts: (string | ReturnType<typeof slot>)[] = [`${name}(`];
    args.forEach((a, i) => { if (i > 0) parts.push(', '); parts.push(slot(a, 0)); });
    parts.push(')');
    return expr(t, PREC.atom, parts);
  }

  /** `CAST(a AS name)` or `a::name`. */
  cast(t: T, a: Expr, name: string): Expr {
    if (this.on('postfixCast') && this.rng.chance(0.3)) return expr(t, PREC.postfix, [slot(a, PREC.atom), `::${name}`]);
    return expr(t, PREC.atom, ['CAST(', slot(a, 0), ` AS ${name})`]);
  }

  /** A function name, or with 'syntaxVariants' sometimes another spelling of it. */
  variant(name: string, spellings: Readonly<Record<string, string>>): string {
    const alt = spellings[name];
    return alt !== undefined && this.on('syntaxVariants') && this.rng.chance(0.3) ? alt : name;
  }

  /** year / month / day of a date: `year(d)`, `extract(year FROM d)` or `date_part('year', d)`. */
  datePart(date: Expr): Expr {
    const r = this.rng;
    const part = r.pick(['year', 'month', 'day']);
    if (!this.on('syntaxVariants') || r.chance(0.6)) return this.fn('int', part === 'day' && this.on('syntaxVariants') && r.chance(0.2) ? 'dayofmonth' : part, [date]);
    return r.chance(0.5)
      ? expr('int', PREC.atom, [`extract(${part} FROM `, slot(date, 0), ')'])
      : expr('int', PREC.atom, [`date_part('${part}', `, slot(date, 0), ')']);
  }

  /** `substring(s, a[, b])`, `substr(...)` or `substring(s FROM a [FOR b])`. */
  substring(str: Expr, start: Expr, len: Expr | undefined): Expr {
    const r = this.rng;
    if (this.on('syntaxVariants') && r.chance(0.2)) {
      return expr('varchar', PREC.atom, ['substring(', slot(str, 0), ' FROM ', slot(start, 0), ...(len ? [' FOR ', slot(len, 0)] : []), ')']);
    }
    return this.fn('varchar', this.variant('substring', { substring: 'substr' }), len ? [str, start, len] : [str, start]);
  }

  private smallInt(lo: number, hi: number): Expr {
    return literalOf(this.rng, 'int', this.rng.int(lo, hi), 'value');
  }

  private intMakers(ctx: Ctx, d: number): [number, Maker][] {
    const r = this.rng;
    return [
      [this.on('arith') ? 3 : 0, () => this.bin('int', this.expr('int', ctx, d), r.pick(['+', '-']), this.expr('int', ctx, d), PREC.add)],
      [this.on('arith') ? 1 : 0, () => this.bin('int', this.expr('int', ctx, d), '*', this.smallInt(-3, 10), PREC.mul)],
      [this.on('modulo') ? 1 : 0, () => this.bin('int', this.expr('int', ctx, d), '%', this.smallInt(2, 9), PREC.mul)],
      [this.on('arith') ? 0.5 : 0, () => expr('int', PREC.neg, ['-', slot(this.expr('int', ctx, d), PREC.neg)])],
      [this.on('mathFns') ? 0.5 : 0, () => this.fn('int', 'abs', [this.expr('int', ctx, d)])],
      [this.on('stringFns') ? 1.5 : 0, () => this.fn('int', 'length', [this.expr('varchar', ctx, d)])],
      [this.on('dateFns') ? 2 : 0, () => this.datePart(this.expr('date', ctx, d))],
      [this.on('dateArith') ? 0.7 : 0, () => this.bin('int', this.expr('date', ctx, d), '-', this.expr('date', ctx, d), PREC.add)],
      [this.on('castToInt') ? 0.7 : 0, () => {
        const a = this.exactDouble(ctx, 0, true);
        return this.cast('int', r.chance(0.5) ? this.fn('double', r.pick(['floor', 'ceil']), [a]) : a, ctx.grouped ? 'BIGINT' : 'INTEGER');
      }],
    ];
  }

  private doubleMakers(ctx: Ctx, d: number): [number, Maker][] {
    const r = this.rng;
    return [
      [this.on('arith') ? 3 : 0, () => {
        const a = this.expr('double', ctx, d);
        const b = this.num(ctx, d);
        const [x, y] = r.chance(0.5) ? [a, b] : [b, a];
        const op = r.pick(['+', '-', '*']);
        return this.bin('double', x, op, y, op === '*' ? PREC.mul : PREC.add);
      }],
      [this.on('divide') ? 2 : 0, () => this.bin('double', this.num(ctx, d), '/', this.num(ctx, d), PREC.mul)],
      [this.on('round') ? 1 : 0, () => {
        const a = this.exactDouble(ctx, d);
        return r.chance(0.3) ? this.fn('double', 'round', [a]) : this.fn('double', 'round', [a, this.smallInt(-1, 2)]);
      }],
      [this.on('mathFns') ? 1 : 0, () => {
        const f = r.pick(['floor', 'ceil', 'abs']);
        return this.fn('double', this.variant(f, { ceil: 'ceiling' }), [f === 'abs' ? this.expr('double', ctx, d) : this.exactDouble(ctx, d)]);
      }],
      [this.on('mathFns') ? 0.5 : 0, () => this.fn('double', 'sqrt', [this.fn('double', 'abs', [this.num(ctx, d)])])],
      [this.on('mathFns') ? 0.3 : 0, () => this.fn('double', 'ln', [this.bin('double', this.fn('double', 'abs', [this.num(ctx, d)]), '+', this.smallInt(1, 3), PREC.add)])],
      [this.on('mathFns') ? 0.3 : 0, () => this.fn('double', 'power', [this.expr('double', ctx, d), this.smallInt(0, 2)])],
      [this.on('cast') ? 1.5 : 0, () => this.cast('double', this.expr('int', ctx, d), 'DOUBLE')],
      [this.on('arith') ? 0.5 : 0, () => expr('double', PREC.neg, ['-', slot(this.expr('double', ctx, d), PREC.neg)])],
    ];
  }

  private stringMakers(ctx: Ctx, d: number): [number, Maker][] {
    const r = this.rng;
    const s = (): Expr => this.expr('varchar', ctx, d);
    return [
      [this.on('stringFns') ? 2 : 0, () => this.fn('varchar', r.pick(['upper', 'lower']), [s()])],
      [this.on('stringFns') ? 1 : 0, () => this.fn('varchar', 'trim', [s()])],
      [this.on('stringFns') ? 2 : 0, () => this.substring(s(), this.smallInt(1, 6), r.chance(0.8) ? this.smallInt(0, 8) : undefined)],
      [this.on('concat') ? 1.5 : 0, () => this.fn('varchar', 'concat', r.chance(0.7) ? [s(), this.literal('varchar', undefined)] : [s(), this.literal('varchar', undefined), s()])],
      [this.on('concat') ? 0.5 : 0, () => this.fn('varchar', 'concat', [s(), this.expr(r.pick(['int', 'date'] as const), ctx, d)])],
      [this.on('concat') ? 1.5 : 0, () => expr('varchar', PREC.concat, [slot(s(), PREC.atom), ' || ', slot(r.chance(0.5) ? s() : this.literal('varchar', undefined), PREC.atom)])],
      [this.on('cast') ? 1 : 0, () => this.cast('varchar', this.expr(r.pick(['int', 'date'] as const), ctx, d), 'VARCHAR')],
      [this.on('castDoubleToVarchar') ? 0.3 : 0, () => this.cast('varchar', this.expr('double', ctx, d), 'VARCHAR')],
    ];
  }

  private dateMakers(ctx: Ctx, d: number): [number, Maker][] {
    const r = this.rng;
    // DuckDB adds only INTEGER days to a DATE (not BIGINT, as count(*) or a BIGINT column are): cast non-literals.
    const days = (): Expr => (r.chance(0.7) || ctx.grouped ? this.smallInt(0, 400) : this.cast('int', this.expr('int', ctx, 0), 'INTEGER'));
    return [
      [this.on('dateArith') ? 3 : 0, () => this.bin('date', this.expr('date', ctx, d), r.pick(['+', '-']), days(), PREC.add)],
      [this.on('dateArith') ? 0.5 : 0, () => this.bin('date', this.smallInt(0, 100), '+', this.expr('date', ctx, d), PREC.add)],
      [this.on('cast') ? 0.5 : 0, () => this.cast('date', literalOf(r, 'varchar', genericValue(r, 'date'), 'value'), 'DATE')],
    ];
  }

  /** A searched or simple CASE of type t. */
  caseExpr(t: T, ctx: Ctx, d: number): Expr {
    const r = this.rng;
    const parts: (string | ReturnType<typeof slot>)[] = ['CASE'];
    const n = r.int(1, 2);
    if (r.chance(0.3)) {
      const ot = r.pick(this.availableTypes(ctx).length > 0 ? this.availableTypes(ctx) : ['int'] as T[]);
      const operand = this.columnish(ot, ctx) ?? this.leaf(ot, ctx);
      parts.push(' ', slot(operand, 0));
      for (let i = 0; i < n; i++) parts.push(' WHEN ', slot(this.literal(ot, operand.domain, 'compare'), 0), ' THEN ', slot(this.expr(t, ctx, d), 0));
    } else {
      for (let i = 0; i < n; i++) parts.push(' WHEN ', slot(this.predicate(ctx, d), 0), ' THEN ', slot(this.expr(t, ctx, d), 0));
    }
    if (r.chance(0.75)) parts.push(' ELSE ', slot(r.chance(0.15) ? literalOf(r, t, null, 'value') : this.expr(t, ctx, d), 0));
    parts.push(' END');
    return expr(t, PREC.atom, parts);
  }

  /** An aggregate call of result type t over the scope (arguments never contain aggregates or subqueries). */
  agg(t: T, ctx: Ctx): Expr | undefined {
    const r = this.rng;
    const plain: Ctx = { scope: ctx.scope, subDepth: 0, correlate: false, qualify: ctx.qualify };
    const arg = (at: T): Expr => (r.chance(0.7) ? this.columnish(at, plain) ?? this.expr(at, plain, 1) : this.expr(at, plain, 1));
    const dist = (): boolean => this.on('distinctAgg') && r.chance(0.2);
    const call = (name: string, a: Expr | undefined, distinct = false, domain = true): Expr => {
      const inexact = t === 'double' && name !== 'min' && name !== 'max';
      return expr(t, PREC.atom, a ? [`${name}(${distinct ? 'DISTINCT ' : ''}`, slot(a, 0), ')'] : [`${name}(*)`], { aggregate: true, ...(domain && a?.domain ? { domain: a.domain } : {}), ...(inexact ? { inexact } : {}) });
    };
    const minmax = (): Expr => call(r.pick(['min', 'max']), arg(t));
    switch (t) {
      case 'int': return r.weighted<() => Expr>([
        [3, () => call('count', undefined)],
        [2, () => call('count', arg(r.pick(['int', 'double', 'varchar', 'date'] as const)), dist(), false)],
        [2, () => call('sum', arg('int'), dist())],
        [2, minmax],
      ])();
      case 'double': return r.weighted<() => Expr>([
        [3, () => call('sum', arg('double'), dist())],
        [3, () => call('avg', arg(r.chance(0.6) ? 'double' : 'int'), dist())],
        [2, minmax],
        [this.on('stddev') ? 0.4 : 0, () => call('stddev', arg('double'), false, false)],
      ])();
      case 'varchar': case 'date': return minmax();
      case 'bool': return undefined;
    }
  }
}

/**
 * Predicate selectivity: the estimated fraction of rows a boolean expression keeps, from what is
 * known about the columns it reads (distinct count, min / max, null fraction), with the textbook
 * defaults (System R's) where nothing is known. Range conjuncts on one column inside an AND are
 * combined into one interval (so `x BETWEEN 10 AND 20` is the width of [10, 20], not the product
 * of two half-ranges). Pure: the caller says what it knows about column `i` of the input.
 */
import { assertNever, conjuncts, type LiteralValue, type RexNode } from '../relnode/rex.js';

/** What the estimator knows about one column (every figure optional). */
export interface ColumnEstimate {
  /** Estimated distinct non-NULL values. */
  readonly ndv?: number;
  readonly min?: number | string;
  readonly max?: number | string;
  /** Fraction of rows that are NULL. */
  readonly nullFrac?: number;
  /** Mean bytes of a plain VARCHAR value (io/stats.ts `avgBytes`). */
  readonly avgBytes?: number;
}

/** Column facts by input ordinal. */
export type ColumnLookup = (i: number) => ColumnEstimate | undefined;

/** Defaults where nothing is known. */
export const DEFAULT_EQ = 0.1;
const DEFAULT_RANGE = 1 / 3;
const DEFAULT_BETWEEN = 0.25;
const DEFAULT_LIKE = 0.1;
const DEFAULT_NULL = 0.05;
const DEFAULT_OTHER = 0.25;

const clamp = (s: number): number => (Number.isNaN(s) ? DEFAULT_OTHER : Math.min(1, Math.max(0, s)));

/** The column an expression reads, through widening casts; undefined for anything else. */
export function columnOf(e: RexNode): number | undefined {
  if (e.kind === 'InputRef') return e.index;
  if (e.kind === 'Cast') return columnOf(e.arg);
  return undefined;
}

function literalOf(e: RexNode): LiteralValue | undefined {
  if (e.kind === 'Literal') return e.value;
  if (e.kind === 'Cast' && e.arg.kind === 'Literal') return e.arg.value;
  return undefined;
}

function numeric(v: LiteralValue | number | string | undefined): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  return undefined;
}

/** The estimated fraction of input rows for which `e` is TRUE. */
export function selectivity(e: RexNode, col: ColumnLookup): number {
  return clamp(sel(e, col));
}

function sel(e: RexNode, col: ColumnLookup): number {
  switch (e.kind) {
    case 'Literal': return e.value === true ? 1 : 0;
    case 'InputRef': return 0.5 * (1 - (col(e.index)?.nullFrac ?? 0));
    case 'Call': return callSel(e.op, e.args, col);
    case 'Cast': case 'Case': case 'OuterRef': case 'AggRef': case 'Subquery': return DEFAULT_OTHER;
    default: return assertNever(e, 'RexNode');
  }
}

function callSel(op: string, args: readonly RexNode[], col: ColumnLookup): number {
  switch (op) {
    case 'and': return andSel(args, col);
    case 'or': return 1 - args.reduce((p, a) => p * (1 - clamp(sel(a, col))), 1);
    case 'not': return 1 - clamp(sel(args[0]!, col));
    case 'is_null': return nullFrac(args[0]!, col);
    case 'is_not_null': return 1 - nullFrac(args[0]!, col);
    case 'eq': return eqSel(args[0]!, args[1]!, col);
    case 'ne': return 1 - eqSel(args[0]!, args[1]!, col) - nullFrac(args[0]!, col);
    case 'in': {
      const [x, ...vs] = args;
      return Math.min(1, vs.reduce((s, v) => s + eqSel(x!, v, col), 0));
    }
    case 'lt': case 'le': case 'gt': case 'ge': {
      const b = bound(op, args[0]!, args[1]!);
      if (b === undefined) return DEFAULT_RANGE;
      return intervalSel(col(b.col), b.lo, b.hi);
    }
    case 'like': return DEFAULT_LIKE;
    default: return DEFAULT_OTHER;
  }
}

function nullFrac(e: RexNode, col: ColumnLookup): number {
  const c = columnOf(e);
  return c === undefined ? DEFAULT_NULL : col(c)?.nullFrac ?? DEFAULT_NULL;
}

function eqSel(a: RexNode, b: RexNode, col: ColumnLookup): number {
  const ca = columnOf(a), cb = columnOf(b);
  if (ca !== undefined && cb !== undefined) {
    const na = col(ca)?.ndv, nb = col(cb)?.ndv;
    const n = Math.max(na ?? 0, nb ?? 0);
    return n > 0 ? 1 / n : DEFAULT_EQ;
  }
  const c = ca ?? cb;
  const v = ca !== undefined ? literalOf(b) : literalOf(a);
  if (c === undefined || v === undefined) return DEFAULT_EQ;
  if (v === null) return 0;
  const s = col(c);
  if (s === undefined) return DEFAULT_EQ;
  if (outside(s, v)) return 0;
  return s.ndv !== undefined && s.ndv > 0 ? (1 - (s.nullFrac ?? 0)) / s.ndv : DEFAULT_EQ;
}

function outside(s: ColumnEstimate, v: LiteralValue): boolean {
  const x = typeof v === 'bigint' ? Number(v) : v;
  if (typeof x === 'number' && typeof s.min === 'number' && typeof s.max === 'number') return x < s.min || x > s.max;
  if (typeof x === 'string' && typeof s.min === 'string' && typeof s.max === 'string') return x < s.min || x > s.max;
  return false;
}

/** A comparison of a column with a numeric literal, as an interval [lo, hi] of the column. */
function bound(op: string, a: RexNode, b: RexNode): { col: number; lo: number; hi: number } | undefined {
  let c = columnOf(a), v = numeric(literalOf(b) ?? undefined), o = op;
  if (c === undefined || v === undefined) {
    c = columnOf(b);
    v = numeric(literalOf(a) ?? undefined);
    o = op === 'lt' ? 'gt' : op === 'le' ? 'ge' : op === 'gt' ? 'lt' : 'le';
  }
  if (c === undefined || v === undefined) return undefined;
  return o === 'lt' || o === 'le' ? { col: c, lo: -Infinity, hi: v } : { col: c, lo: v, hi: Infinity };
}

/** Fraction of a column's [min, max] inside [lo, hi] (uniform values); the default when min/max are unknown. */
function intervalSel(s: ColumnEstimate | undefined, lo: number, hi: number): number {
  const min = numeric(s?.min), max = numeric(s?.max);
  const notNull = 1 - (s?.nullFrac ?? 0);
  if (min === undefined || max === undefined) return lo > -Infinity && hi < Infinity ? DEFAULT_BETWEEN : DEFAULT_RANGE;
  if (hi < lo) return 0;
  if (max <= min) return lo <= min && min <= hi ? notNull : 0;
  const a = Math.max(lo, min), z = Math.min(hi, max);
  if (z < a) return 0;
  return notNull * Math.max((z - a) / (max - min), 1 / Math.max(1, s?.ndv ?? 1));
}

/** AND: range conjuncts on the same column become one interval; the rest multiply (independence). */
function andSel(args: readonly RexNode[], col: ColumnLookup): number {
  const ranges = new Map<number, { lo: number; hi: number }>();
  let s = 1;
  for (const a of args.flatMap((x) => conjuncts(x))) {
    const b = a.kind === 'Call' && (a.op === 'lt' || a.op === 'le' || a.op === 'gt' || a.op === 'ge') ? bound(a.op, a.args[0]!, a.args[1]!) : undefined;
    if (b === undefined) {
      s *= clamp(sel(a, col));
      continue;
    }
    const r = ranges.get(b.col);
    ranges.set(b.col, r ? { lo: Math.max(r.lo, b.lo), hi: Math.min(r.hi, b.hi) } : { lo: b.lo, hi: b.hi });
  }
  for (const [c, r] of ranges) s *= clamp(intervalSel(col(c), r.lo, r.hi));
  return s;
}

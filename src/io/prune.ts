/**
 * The pruning test on min / max / null-count statistics: a block of rows (a
 * cached batch, a Parquet row group) is skipped when its statistics prove a
 * pushed-down conjunct FALSE or NULL for every row. Strings compare by UTF-8
 * bytes (code-point order), like the comparison kernels; numbers by the total
 * order of float-order.ts. A block holding a NaN has no numeric bounds (never
 * skipped by them), and a NaN literal compares above every bound. Moved here
 * from cache/stats.ts so file sources (io) can use it.
 */
import { compareDoubles } from '../exec/kernels/float-order.js';
import { compareBytes, encodeUtf8 } from '../exec/kernels/utf8.js';
import type { LiteralValue, RexNode } from '../relnode/rex.js';

/** A bound: numbers for INTEGER/DOUBLE/DATE (days)/TIMESTAMP (ms), bigint for BIGINT, string, boolean. */
export type StatValue = number | bigint | string | boolean;

/** Statistics of one column of one batch; min/max are absent when unknown (NaN, unsupported type, all NULL). */
export interface ColumnStats {
  readonly nullCount: number;
  readonly min?: StatValue;
  readonly max?: StatValue;
}

/**
 * Statistics of one block of rows (a cached batch, a Parquet row group). Asked per column, so a
 * holder may compute a column's figures on the first question (cache/lazy-stats.ts).
 */
export interface BlockStats {
  readonly rows: number;
  /** Statistics of column `i`; undefined when nothing is known about it (nothing is then proven). */
  column(i: number): ColumnStats | undefined;
}

/** Block statistics over figures already computed (`columns[i]` is column i's). */
export interface FixedBlockStats extends BlockStats {
  readonly columns: readonly ColumnStats[];
}

/** Block statistics over figures already computed. */
export function fixedBlockStats(rows: number, columns: readonly ColumnStats[]): FixedBlockStats {
  return { rows, columns, column: (i) => columns[i] };
}

// ---------------------------------------------------------------- pruning

/** Compares two bounds of the same kind: negative, 0, positive, or undefined when they do not compare. */
function compareValues(a: StatValue, b: StatValue): number | undefined {
  if (typeof a === 'string' || typeof b === 'string') {
    if (typeof a !== 'string' || typeof b !== 'string') return undefined;
    const x = encodeUtf8(a);
    const y = encodeUtf8(b);
    return compareBytes(x, 0, x.length, y, 0, y.length);
  }
  if (typeof a === 'boolean' || typeof b === 'boolean') {
    if (typeof a !== 'boolean' || typeof b !== 'boolean') return undefined;
    return Number(a) - Number(b);
  }
  // Doubles under the total order (a NaN literal is above every bound, -0 = 0); number and bigint mathematically.
  if (typeof a === 'number' && typeof b === 'number') return compareDoubles(a, b);
  if (a !== a) return 1;
  if (b !== b) return -1;
  return a < b ? -1 : a > b ? 1 : 0;
}

const WIDENING = new Set(['INTEGER>BIGINT', 'INTEGER>DOUBLE', 'BIGINT>DOUBLE']);

/** The column a comparison operand reads: a column reference, possibly under a numeric widening cast. */
function columnOf(e: RexNode): number | undefined {
  if (e.kind === 'InputRef') return e.index;
  if (e.kind === 'Cast' && e.arg.kind === 'InputRef' && WIDENING.has(`${e.arg.type}>${e.type}`)) return e.arg.index;
  return undefined;
}

/** A literal operand's value (a widening cast of a numeric literal keeps its value). */
function literalOf(e: RexNode): { value: LiteralValue } | undefined {
  if (e.kind === 'Literal') return { value: e.value };
  if (e.kind === 'Cast' && e.arg.kind === 'Literal' && (e.arg.value === null || WIDENING.has(`${e.arg.type}>${e.type}`))) return { value: e.arg.value };
  return undefined;
}

const FLIP: Readonly<Record<string, string>> = { eq: 'eq', ne: 'ne', lt: 'gt', le: 'ge', gt: 'lt', ge: 'le' };

/** `column op literal` in either order, as (column, literal, op with the column on the left), or undefined. */
function columnVsLiteral(op: string, args: readonly RexNode[]): { col: number; lit: { value: LiteralValue }; op: string } | undefined {
  const col = columnOf(args[0]!);
  const lit = literalOf(args[1]!);
  if (col !== undefined && lit !== undefined) return { col, lit, op };
  const col2 = columnOf(args[1]!);
  const lit2 = literalOf(args[0]!);
  return col2 !== undefined && lit2 !== undefined ? { col: col2, lit: lit2, op: FLIP[op]! } : undefined;
}

/**
 * True when the statistics prove that `conjunct` is not TRUE for any row of
 * the block (so a filter above drops every row). Handles `column op literal`
 * (either side), IN lists, IS [NOT] NULL, AND/OR, and literal FALSE/NULL;
 * anything else is never skipped.
 */
export function provablyFalse(conjunct: RexNode, s: BlockStats): boolean {
  const e = conjunct;
  if (e.kind === 'Literal') return e.value === false || e.value === null;
  if (e.kind !== 'Call') return false;
  switch (e.op) {
    case 'and': return e.args.some((a) => provablyFalse(a, s));
    case 'or': return e.args.every((a) => provablyFalse(a, s));
    case 'is_null': case 'is_not_null': {
      const c = columnOf(e.args[0]!);
      const cs = c === undefined ? undefined : s.column(c);
      if (cs === undefined) return false;
      return e.op === 'is_null' ? cs.nullCount === 0 : cs.nullCount >= s.rows;
    }
    case 'in': {
      const c = columnOf(e.args[0]!);
      const cs = c === undefined ? undefined : s.column(c);
      if (cs === undefined) return false;
      if (cs.nullCount >= s.rows) return true;
      return e.args.slice(1).every((a) => {
        const l = literalOf(a);
        return l !== undefined && (l.value === null || outside(cs, l.value));
      });
    }
    case 'eq': case 'ne': case 'lt': case 'le': case 'gt': case 'ge': {
      const cmp = columnVsLiteral(e.op, e.args);
      if (cmp === undefined) return false;
      const { col, lit, op } = cmp;
      const cs = s.column(col);
      if (cs === undefined) return false;
      if (lit.value === null || cs.nullCount >= s.rows) return true; // a comparison with NULL is never TRUE
      return comparisonFalse(op, cs, lit.value);
    }
    default: return false;
  }
}

function outside(cs: ColumnStats, v: Exclude<LiteralValue, null>): boolean {
  if (cs.min === undefined || cs.max === undefined) return false;
  const lo = compareValues(v, cs.min);
  const hi = compareValues(v, cs.max);
  return lo !== undefined && hi !== undefined && (lo < 0 || hi > 0);
}

function comparisonFalse(op: string, cs: ColumnStats, v: Exclude<LiteralValue, null>): boolean {
  if (cs.min === undefined || cs.max === undefined) return false;
  const vsMin = compareValues(v, cs.min);
  const vsMax = compareValues(v, cs.max);
  if (vsMin === undefined || vsMax === undefined) return false;
  switch (op) {
    case 'eq': return vsMin < 0 || vsMax > 0;
    case 'ne': return vsMin === 0 && vsMax === 0; // every non-NULL value equals v
    case 'lt': return vsMin <= 0; // col < v false when min >= v
    case 'le': return vsMin < 0; // col <= v false when min > v
    case 'gt': return vsMax >= 0; // col > v false when max <= v
    case 'ge': return vsMax > 0; // col >= v false when max < v
    default: return false;
  }
}

/** True when some conjunct is provably not TRUE for every row of the block. */
export function canSkipBlock(s: BlockStats, conjuncts: readonly RexNode[]): boolean {
  for (const c of conjuncts) if (provablyFalse(c, s)) return true;
  return false;
}

// ---------------------------------------------------------------- deciding a whole block

/**
 * True when the statistics prove that `conjunct` is TRUE for every row of the
 * block (the mirror of provablyFalse; a cached aggregate answered from
 * statistics counts such a block whole). Handles `column op literal`
 * (either side) over a column without NULLs and with known bounds, AND/OR,
 * and literal TRUE; anything else is never proven.
 */
export function provablyTrue(conjunct: RexNode, s: BlockStats): boolean {
  const e = conjunct;
  if (e.kind === 'Literal') return e.value === true;
  if (e.kind !== 'Call') return false;
  switch (e.op) {
    case 'and': return e.args.every((a) => provablyTrue(a, s));
    case 'or': return e.args.some((a) => provablyTrue(a, s));
    case 'eq': case 'ne': case 'lt': case 'le': case 'gt': case 'ge': {
      const cmp = columnVsLiteral(e.op, e.args);
      if (cmp === undefined) return false;
      const { col, op } = cmp;
      const value = cmp.lit.value;
      if (value === null) return false;
      const cs = s.column(col);
      // A NULL makes the comparison NULL for its row: only NULL-free columns are decided.
      if (cs === undefined || cs.nullCount > 0 || cs.min === undefined || cs.max === undefined) return false;
      const vsMin = compareValues(value, cs.min);
      const vsMax = compareValues(value, cs.max);
      if (vsMin === undefined || vsMax === undefined) return false;
      switch (op) {
        case 'eq': return vsMin === 0 && vsMax === 0;
        case 'ne': return vsMin < 0 || vsMax > 0;
        case 'lt': return vsMax > 0; // col < v for every row when max < v
        case 'le': return vsMax >= 0;
        case 'gt': return vsMin < 0; // col > v for every row when min > v
        case 'ge': return vsMin <= 0;
        default: return false;
      }
    }
    default: return false;
  }
}

/** Compares two bounds of one column's kind (the order pruning uses); undefined when they do not compare. */
export function compareStatValues(a: StatValue, b: StatValue): number | undefined {
  return compareValues(a, b);
}

/**
 * Per-batch statistics of cached data (min, max and null count per column)
 * and the pruning test: a batch is skipped when its statistics prove a
 * pushed-down conjunct FALSE or NULL for every row. Strings compare by UTF-8
 * bytes (code-point order), like the comparison kernels; numbers by the
 * total order of float-order.ts. A batch holding a NaN has no numeric bounds
 * (never skipped by them), and a NaN literal compares above every bound.
 */
import { Type, type Data, type RecordBatch } from 'apache-arrow';
import { compareDoubles } from '../exec/kernels/float-order.js';
import { compareBytes, decodeUtf8, encodeUtf8, strView } from '../exec/kernels/utf8.js';
import type { LiteralValue, RexNode } from '../relnode/rex.js';

/** A bound: numbers for INTEGER/DOUBLE/DATE (days)/TIMESTAMP (ms), bigint for BIGINT, string, boolean. */
export type StatValue = number | bigint | string | boolean;

/** Statistics of one column of one batch; min/max are absent when unknown (NaN, unsupported type, all NULL). */
export interface ColumnStats {
  readonly nullCount: number;
  readonly min?: StatValue;
  readonly max?: StatValue;
}

/** Statistics of one cached batch. */
export interface BlockStats {
  readonly rows: number;
  readonly columns: readonly ColumnStats[];
}

/** Computes the statistics of a batch (one pass over each column). */
export function blockStats(batch: RecordBatch): BlockStats {
  return { rows: batch.numRows, columns: batch.data.children.map(columnStats) };
}

function nullsOf(d: Data): number {
  return d.typeId === Type.Null ? d.length : d.nullCount;
}

function columnStats(d: Data): ColumnStats {
  const nullCount = nullsOf(d);
  if (nullCount >= d.length) return { nullCount };
  switch (d.typeId) {
    case Type.Int: case Type.Float: case Type.Date: case Type.Timestamp: {
      const mm = numericMinMax(d, nullCount > 0);
      if (mm === undefined) return { nullCount };
      const conv = d.typeId === Type.Timestamp ? (v: number | bigint) => Number(v) : (v: number | bigint) => v;
      return { nullCount, min: conv(mm[0]), max: conv(mm[1]) };
    }
    case Type.Bool: return { nullCount, ...boolMinMax(d, nullCount > 0) };
    case Type.Utf8: case Type.Dictionary: return { nullCount, ...stringMinMax(d) };
    default: return { nullCount };
  }
}

function valid(bm: Uint8Array, offset: number, i: number): boolean {
  const b = offset + i;
  return ((bm[b >> 3]! >> (b & 7)) & 1) === 1;
}

/** Min and max of a numeric column (undefined when a NaN makes the order unclear). */
function numericMinMax(d: Data, nullable: boolean): [number | bigint, number | bigint] | undefined {
  const v = d.values as ArrayLike<number | bigint>;
  const n = d.length;
  const bm = d.nullBitmap;
  if (!nullable || !bm || bm.length === 0) {
    // No NULLs: one monomorphic loop per array kind (the shared loop below sees number and bigint elements alike).
    if (v instanceof Float64Array) return floatMinMax(v, n);
    if (v instanceof Int32Array) return intMinMax(v, n);
    if (v instanceof BigInt64Array) return bigMinMax(v, n);
  }
  let min: number | bigint | undefined;
  let max: number | bigint | undefined;
  if (!nullable || !bm || bm.length === 0) {
    // Other array kinds without NULLs: the plain loop.
    min = v[0]!; max = v[0]!;
    for (let i = 1; i < n; i++) { const x = v[i]!; if (x < min) min = x; else if (x > max) max = x; }
  } else {
    for (let i = 0; i < n; i++) {
      if (!valid(bm, d.offset, i)) continue;
      const x = v[i]!;
      if (min === undefined || x < min) min = x;
      if (max === undefined || x > max) max = x;
    }
  }
  if (min === undefined || max === undefined) return undefined;
  if (typeof min === 'number' && (Number.isNaN(min) || Number.isNaN(max as number) || hasNaN(v, n))) return undefined;
  return [min, max];
}

/** DOUBLE without NULLs; a NaN anywhere makes the bounds unknown (Math.min/max propagate it). */
function floatMinMax(v: Float64Array, n: number): [number, number] | undefined {
  let min = v[0]!;
  let max = min;
  for (let i = 1; i < n; i++) { const x = v[i]!; min = Math.min(min, x); max = Math.max(max, x); }
  return min !== min ? undefined : [min, max];
}

/** INTEGER and DATE without NULLs. */
function intMinMax(v: Int32Array, n: number): [number, number] {
  let min = v[0]!;
  let max = min;
  for (let i = 1; i < n; i++) { const x = v[i]!; min = Math.min(min, x); max = Math.max(max, x); }
  return [min, max];
}

/** BIGINT and TIMESTAMP without NULLs. */
function bigMinMax(v: BigInt64Array, n: number): [bigint, bigint] {
  let min = v[0]!;
  let max = min;
  for (let i = 1; i < n; i++) { const x = v[i]!; if (x < min) min = x; else if (x > max) max = x; }
  return [min, max];
}

function hasNaN(v: ArrayLike<number | bigint>, n: number): boolean {
  if (!(v instanceof Float64Array) && !(v instanceof Float32Array)) return false;
  for (let i = 0; i < n; i++) if (v[i] !== v[i]) return true;
  return false;
}

function boolMinMax(d: Data, nullable: boolean): { min?: boolean; max?: boolean } {
  const bits = d.values as Uint8Array;
  const bm = d.nullBitmap;
  let anyTrue = false;
  let anyFalse = false;
  for (let i = 0; i < d.length && !(anyTrue && anyFalse); i++) {
    if (nullable && bm && bm.length > 0 && !valid(bm, d.offset, i)) continue;
    const b = d.offset + i;
    if ((bits[b >> 3]! >> (b & 7)) & 1) anyTrue = true; else anyFalse = true;
  }
  if (!anyTrue && !anyFalse) return {};
  return { min: !anyFalse, max: anyTrue };
}

/** Min and max by UTF-8 bytes; for a dictionary column, over the entries its rows use. */
function stringMinMax(d: Data): { min?: string; max?: string } {
  const s = strView(d);
  const { offsets, bytes } = s.entries;
  let lo = -1;
  let hi = -1;
  const consider = (k: number): void => {
    if (lo < 0) { lo = k; hi = k; return; }
    const s0 = offsets[k]!, e0 = offsets[k + 1]!;
    if (compareBytes(bytes, s0, e0, bytes, offsets[lo]!, offsets[lo + 1]!) < 0) lo = k;
    else if (compareBytes(bytes, s0, e0, bytes, offsets[hi]!, offsets[hi + 1]!) > 0) hi = k;
  };
  const rowValid = s.valid;
  if (s.codes === null) {
    for (let i = 0; i < s.n; i++) if (rowValid === null || ((rowValid[i >> 3]! >> (i & 7)) & 1)) consider(i);
  } else {
    // Each used dictionary entry once.
    const seen = new Uint8Array(s.entries.count);
    for (let i = 0; i < s.n; i++) {
      if (rowValid !== null && !((rowValid[i >> 3]! >> (i & 7)) & 1)) continue;
      const c = s.codes[i]!;
      if (seen[c] === 0) { seen[c] = 1; consider(c); }
    }
  }
  if (lo < 0) return {};
  return { min: decodeUtf8(bytes, offsets[lo]!, offsets[lo + 1]!), max: decodeUtf8(bytes, offsets[hi]!, offsets[hi + 1]!) };
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
      const cs = c === undefined ? undefined : s.columns[c];
      if (cs === undefined) return false;
      return e.op === 'is_null' ? cs.nullCount === 0 : cs.nullCount >= s.rows;
    }
    case 'in': {
      const c = columnOf(e.args[0]!);
      const cs = c === undefined ? undefined : s.columns[c];
      if (cs === undefined) return false;
      if (cs.nullCount >= s.rows) return true;
      return e.args.slice(1).every((a) => {
        const l = literalOf(a);
        return l !== undefined && (l.value === null || outside(cs, l.value));
      });
    }
    case 'eq': case 'ne': case 'lt': case 'le': case 'gt': case 'ge': {
      let col = columnOf(e.args[0]!);
      let lit = literalOf(e.args[1]!);
      let op: string = e.op;
      if (col === undefined || lit === undefined) {
        col = columnOf(e.args[1]!);
        lit = literalOf(e.args[0]!);
        op = FLIP[e.op]!;
      }
      if (col === undefined || lit === undefined) return false;
      const cs = s.columns[col];
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

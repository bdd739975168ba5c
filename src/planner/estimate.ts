/**
 * Cardinality estimation: estimated output rows of a plan and what is known about each of its
 * output columns (distinct count, min / max, null fraction), from table statistics
 * (src/io/stats.ts) up through the operators:
 * - Filter: rows × selectivity (selectivity.ts);
 * - inner join: |L|·|R| / max(ndv of the keys), a composite key's ndv being the product of its
 *   columns' capped at the side's rows (so a two-column foreign key is not counted twice);
 *   outer joins keep at least their preserved side; semi = the matching fraction of the left
 *   (NOT IN's NULL-aware anti join keyed as the operator runs it);
 * - Aggregate / Distinct: product of the key ndvs, capped by the input;
 * - Limit / Sort with fetch: at most the fetch; Union: the sum.
 * Unknown figures fall back to defaults (a join key of unknown ndv counts as a key of its side).
 * Plans are immutable, so both functions memoize per node object (join ordering calls them often).
 * Estimates are for choosing plans and for EXPLAIN; they never enter a digest.
 */
import type { RelNode, Join } from '../relnode/rel.js';
import type { TableSource } from '../io/source.js';
import type { TableStatistics } from '../io/stats.js';
import { assertNever, conjuncts, type RexNode } from '../relnode/rex.js';
import { sampleRows } from './sample.js';
import { columnOf, selectivity, type ColumnEstimate, type ColumnLookup } from './selectivity.js';
import { notInItems } from './not-in-join.js';

export type { ColumnEstimate } from './selectivity.js';

const UNKNOWN_ROWS = 1_000_000;
const DEFAULT_SEMI = 0.5;

const rowMemo = new WeakMap<RelNode, number>();
const colMemo = new WeakMap<RelNode, (ColumnEstimate | undefined)[]>();

function statsOf(source: TableSource): TableStatistics | undefined {
  return source.statistics?.();
}

/** Estimated output rows of a plan (≥ 1 unless the plan is known empty). */
export function estimateRows(n: RelNode): number {
  let r = rowMemo.get(n);
  if (r === undefined) {
    r = computeRows(n);
    rowMemo.set(n, r);
  }
  return r;
}

/** What is known about output column `i` of a plan (undefined: nothing). */
export function estimateColumn(n: RelNode, i: number): ColumnEstimate | undefined {
  let m = colMemo.get(n);
  if (m === undefined) {
    m = [];
    colMemo.set(n, m);
  }
  if (!(i in m)) m[i] = capped(computeColumn(n, i), estimateRows(n));
  return m[i];
}

/** The lookup of a node's output columns, for selectivity(). */
export function columnLookup(n: RelNode): ColumnLookup {
  return (i) => estimateColumn(n, i);
}

function atLeastOne(x: number, input: number): number {
  return Math.max(x, Math.min(1, input));
}

function computeRows(n: RelNode): number {
  switch (n.kind) {
    case 'Scan': {
      const s = n.table.handle as TableSource;
      return statsOf(s)?.rowCount ?? s.numRows ?? UNKNOWN_ROWS;
    }
    case 'Values': return n.rows.length;
    case 'Filter': {
      const input = estimateRows(n.input);
      return atLeastOne(input * selectivity(n.condition, columnLookup(n.input)), input);
    }
    case 'Project': case 'CacheSink': return estimateRows(n.input);
    case 'Distinct': return groupRows(n.input, n.schema.fields.map((_, i) => i));
    case 'Aggregate': return n.groupKeys.length === 0 ? 1 : groupRows(n.input, n.groupKeys);
    case 'Join': return joinRows(n);
    case 'Sort': return n.fetch !== undefined ? Math.min(n.fetch, estimateRows(n.input)) : estimateRows(n.input);
    case 'Limit': return Math.min(n.fetch, Math.max(0, estimateRows(n.input) - (n.offset ?? 0)));
    case 'GroupLimit': case 'Window': return estimateRows(n.input);
    case 'Union': {
      const sum = n.inputs.reduce((s, i) => s + estimateRows(i), 0);
      return n.all ? sum : groupRowsOf(sum, n.schema.fields.map((_, i) => estimateColumn(n.inputs[0]!, i)?.ndv));
    }
    case 'SetOp': return n.op === 'intersect' ? Math.min(estimateRows(n.left), estimateRows(n.right)) : estimateRows(n.left);
    case 'Correlate': return estimateRows(n.left);
    case 'CacheSource': return estimateRows(n.original);
    // An iteration's result: as large as its initial value (a guess; accumulating loops grow it).
    case 'Iterate': return Math.max(1, estimateRows(n.variables[n.output]!) * (n.mode === 'accumulate' ? 10 : 1));
    case 'FeedbackRef': case 'DataRef': return 1000;
    case 'TableFunction': {
      if (n.inputs.length === 0) return 1000;
      const rows = estimateRows(n.inputs[0]!);
      return sampleRows(n, rows) ?? rows;
    }
    default: return assertNever(n, 'RelNode');
  }
}

/** Rows of a grouping: the product of the keys' distinct counts, capped by the input. */
function groupRows(input: RelNode, keys: readonly number[]): number {
  return groupRowsOf(estimateRows(input), keys.map((k) => estimateColumn(input, k)?.ndv));
}

function groupRowsOf(inputRows: number, ndvs: readonly (number | undefined)[]): number {
  let p = 1;
  for (const d of ndvs) p *= d ?? Math.max(1, inputRows / 10);
  return atLeastOne(Math.min(p, inputRows), inputRows);
}

/**
 * Selectivity of equi-join keys between two inputs: 1 / max(composite ndv of each side), a
 * side's composite ndv being the product of its key columns' ndvs capped at its rows (unknown
 * ndv: the side's rows, i.e. a key). Shared with join ordering so both agree.
 */
export function equiJoinSelectivity(leftRows: number, leftNdvs: readonly (number | undefined)[], rightRows: number, rightNdvs: readonly (number | undefined)[]): number {
  return 1 / Math.max(compositeNdv(leftRows, leftNdvs), compositeNdv(rightRows, rightNdvs));
}

/** Distinct values of a composite key: the product of its columns' ndvs (unknown: the rows), capped at the rows. */
function compositeNdv(rows: number, ndvs: readonly (number | undefined)[]): number {
  return Math.max(1, Math.min(rows, ndvs.reduce<number>((p, d) => p * (d ?? rows), 1)));
}

/** Equi-key pairs (left ordinal, right ordinal) of a join condition and the rest of its conjuncts. */
export function equiPairs(cond: RexNode, leftWidth: number): { pairs: [number, number][]; rest: RexNode[] } {
  const pairs: [number, number][] = [];
  const rest: RexNode[] = [];
  for (const c of conjuncts(cond)) {
    if (c.kind === 'Call' && c.op === 'eq') {
      const a = columnOf(c.args[0]!), z = columnOf(c.args[1]!);
      if (a !== undefined && z !== undefined) {
        if (a < leftWidth && z >= leftWidth) { pairs.push([a, z - leftWidth]); continue; }
        if (z < leftWidth && a >= leftWidth) { pairs.push([z, a - leftWidth]); continue; }
      }
    }
    rest.push(c);
  }
  return { pairs, rest };
}

/**
 * The equi-key pairs of a join and its other conjuncts; NOT IN's NULL-aware anti (or semi) join condition
 * (`a = b OR a IS NULL OR b IS NULL`, not-in-join.ts, per item) counts as its keys `a = b`, as the operators
 * run it: read as an opaque OR it kept half the left side (TPC-H Q16: 55K estimated, 118K real,
 * so the aggregate's DISTINCT table was not sized for its pairs).
 */
function keyPairs(n: Join, lw: number): { pairs: [number, number][]; rest: RexNode[] } {
  const items = n.joinType === 'anti' || n.joinType === 'semi' ? notInItems(n.condition, lw) : undefined;
  return items === undefined ? equiPairs(n.condition, lw) : { pairs: items.map((i) => [i.left, i.right]), rest: [] };
}

function joinRows(n: Join): number {
  const L = estimateRows(n.left), R = estimateRows(n.right);
  const lw = n.left.schema.fields.length;
  const { pairs, rest } = keyPairs(n, lw);
  const both: ColumnLookup = (i) => (i < lw ? estimateColumn(n.left, i) : estimateColumn(n.right, i - lw));
  const restSel = rest.length === 0 ? 1 : rest.reduce((s, c) => s * selectivity(c, both), 1);
  const keySel = pairs.length === 0 ? 1 : equiJoinSelectivity(L, pairs.map(([a]) => estimateColumn(n.left, a)?.ndv), R, pairs.map(([, b]) => estimateColumn(n.right, b)?.ndv));
  const inner = L * R * keySel * restSel;
  switch (n.joinType) {
    case 'inner': case 'cross': return atLeastOne(inner, Math.min(L, R));
    case 'left': return Math.max(inner, L);
    case 'right': return Math.max(inner, R);
    case 'full': return Math.max(inner, L, R);
    case 'semi': case 'anti': {
      let frac = DEFAULT_SEMI;
      if (pairs.length > 0) {
        const nl = compositeNdv(L, pairs.map(([a]) => estimateColumn(n.left, a)?.ndv));
        const nr = compositeNdv(R, pairs.map(([, b]) => estimateColumn(n.right, b)?.ndv));
        frac = Math.min(1, nr / nl) * restSel;
      }
      return atLeastOne(n.joinType === 'semi' ? L * frac : L * Math.max(0.1, 1 - frac), L);
    }
    default: return assertNever(n.joinType, 'join type');
  }
}

/** True when a conjunct of the condition fixes column `i` to one literal (`i = 3`): one distinct value is left. */
function pinned(cond: RexNode, i: number): boolean {
  return conjuncts(cond).some((c) => c.kind === 'Call' && c.op === 'eq' && c.args.some((a) => columnOf(a) === i) && c.args.some((a) => a.kind === 'Literal' || (a.kind === 'Cast' && a.arg.kind === 'Literal')));
}

/**
 * The number of distinct literals when a conjunct of the condition limits column `i` to an IN list
 * (`p_size IN (49, 14, ...)`): at most that many distinct values are left (TPC-H Q16's GROUP BY p_brand,
 * p_type, p_size was estimated with all 50 sizes: 99K groups for 18K real, and its table sized for them).
 */
function inListSize(cond: RexNode, i: number): number | undefined {
  let best: number | undefined;
  for (const c of conjuncts(cond)) {
    if (c.kind !== 'Call' || c.op !== 'in' || columnOf(c.args[0]!) !== i) continue;
    const items = c.args.slice(1);
    if (!items.every((a) => a.kind === 'Literal')) continue;
    const k = new Set(items.map((a) => (a.kind === 'Literal' && a.value !== null ? String(a.value) : null)).filter((v) => v !== null)).size;
    if (best === undefined || k < best) best = k;
  }
  return best;
}

function capped(c: ColumnEstimate | undefined, rows: number): ColumnEstimate | undefined {
  if (c === undefined || c.ndv === undefined || c.ndv <= rows) return c;
  return { ...c, ndv: Math.max(1, rows) };
}

function computeColumn(n: RelNode, i: number): ColumnEstimate | undefined {
  switch (n.kind) {
    case 'Scan': {
      const s = statsOf(n.table.handle as TableSource);
      if (s === undefined) return undefined;
      const c = s.column(n.projection ? n.projection[i]! : i);
      return {
        ...(c.distinct !== undefined ? { ndv: c.distinct } : {}),
        ...(c.min !== undefined ? { min: c.min } : {}),
        ...(c.max !== undefined ? { max: c.max } : {}),
        ...(c.nullCount !== undefined && s.rowCount > 0 ? { nullFrac: c.nullCount / s.rowCount } : {}),
        ...(c.avgBytes !== undefined ? { avgBytes: c.avgBytes } : {}),
      };
    }
    case 'Values': {
      const vs = n.rows.map((r) => r[i]);
      const nonNull = vs.filter((v) => v !== null);
      return { ndv: new Set(nonNull.map((v) => (typeof v === 'bigint' ? Number(v) : v))).size, nullFrac: vs.length ? (vs.length - nonNull.length) / vs.length : 0 };
    }
    case 'Project': {
      const e = n.exprs[i]!;
      if (e.kind === 'Literal') return { ndv: e.value === null ? 0 : 1, nullFrac: e.value === null ? 1 : 0 };
      const c = columnOf(e);
      return c === undefined ? undefined : estimateColumn(n.input, c);
    }
    case 'Aggregate': return i < n.groupKeys.length ? estimateColumn(n.input, n.groupKeys[i]!) : undefined;
    case 'Join': {
      const lw = n.left.schema.fields.length;
      const c = i < lw ? estimateColumn(n.left, i) : estimateColumn(n.right, i - lw);
      const padded = (n.joinType === 'left' && i >= lw) || (n.joinType === 'right' && i < lw) || n.joinType === 'full';
      if (!padded || c === undefined) return c;
      const { nullFrac: _, ...rest } = c;
      return rest;
    }
    case 'Filter': {
      if (pinned(n.condition, i)) return { ndv: 1, nullFrac: 0 };
      const c = estimateColumn(n.input, i);
      const k = inListSize(n.condition, i);
      return k === undefined || (c?.ndv !== undefined && c.ndv <= k) ? c : { ...c, ndv: k, nullFrac: 0 };
    }
    case 'Sort': case 'Limit': case 'GroupLimit': case 'Distinct': case 'CacheSink':
      return estimateColumn(n.input, i);
    case 'CacheSource': return estimateColumn(n.original, n.projection ? n.projection[i]! : i);
    case 'Window': return i < n.input.schema.fields.length ? estimateColumn(n.input, i) : undefined;
    case 'TableFunction': return n.columnsPassThrough === true ? estimateColumn(n.inputs[0]!, i) : undefined;
    case 'Union': case 'SetOp': case 'Correlate': case 'Iterate': case 'FeedbackRef': case 'DataRef': return undefined;
    default: return assertNever(n, 'RelNode');
  }
}

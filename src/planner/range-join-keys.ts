/**
 * The range key of a join condition without equi-keys: a column of the right input compared with
 * expressions over the left input (`l.x BETWEEN r.lo AND r.hi` written the other way round, or
 * `r.t >= l.start AND r.t < l.end`). The nested-loop join then sorts the right side on that column
 * once and binary-searches each left row's bounds, pairing it only with the rows between them
 * (exec/operators/nested-loop-join.ts `range`); the whole condition still decides each candidate
 * pair, so the bounds only have to include every match.
 *
 * Decision: INTEGER and DATE columns and bounds only (compared as numbers, no NaN ordering to
 * mirror); the right input is the side the join buffers, so a condition whose lone column is on the
 * left stays a plain nested loop; the column with both bounds wins over one with one.
 */
import type { Join } from '../relnode/rel.js';
import { conjuncts, type RexNode } from '../relnode/rex.js';
import { FLIPPED } from '../exec/kernels/compare.js';
import { inputSide } from './join-keys.js';
import { compileExpr } from '../exec/kernels/compile.js';
import type { NestedLoopJoinConfig } from '../exec/operators/nested-loop-join.js';

/** A right-input column and the left-input expressions bounding it (inclusive candidates). */
export interface RangeKey {
  /** Column of the right input. */
  readonly column: number;
  /** Lower bound over left columns (the candidates are ≥ it), if any. */
  readonly lo?: RexNode;
  /** Upper bound over left columns (the candidates are ≤ it), if any. */
  readonly hi?: RexNode;
}

const KEY_TYPES = new Set(['INTEGER', 'DATE']);
const INEQUALITIES = new Set(['ge', 'gt', 'le', 'lt']);

/** The range key of `conjuncts` (over left then right columns), or undefined. */
export function rangeKey(conjuncts: readonly RexNode[], leftWidth: number): RangeKey | undefined {
  const found = new Map<number, { lo?: RexNode; hi?: RexNode }>();
  for (const c of conjuncts) {
    if (c.kind !== 'Call' || !INEQUALITIES.has(c.op)) continue;
    const [a, b] = c.args as [RexNode, RexNode];
    // Normalize to `x op bound` with x a right column.
    let op = c.op;
    let x = a;
    let bound = b;
    if (!(x.kind === 'InputRef' && x.index >= leftWidth)) { op = FLIPPED[c.op]!; x = b; bound = a; }
    if (x.kind !== 'InputRef' || x.index < leftWidth || !KEY_TYPES.has(x.type) || inputSide(bound, leftWidth) !== 'left' || bound.type !== x.type) continue;
    const col = x.index - leftWidth;
    const k = found.get(col) ?? {};
    if (op === 'ge' || op === 'gt') k.lo ??= bound;
    else k.hi ??= bound;
    found.set(col, k);
  }
  let best: RangeKey | undefined;
  for (const [column, k] of found) {
    const both = k.lo !== undefined && k.hi !== undefined;
    if (best === undefined || (both && (best.lo === undefined || best.hi === undefined))) best = { column, ...k };
  }
  return best;
}

/** The nested-loop join's `range` (bounds compiled over the left input) and its EXPLAIN text, or undefined. */
export function rangeJoinConfig(n: Join): { range: NonNullable<NestedLoopJoinConfig['range']>; text: string } | undefined {
  const key = rangeKey(conjuncts(n.condition), n.left.schema.fields.length);
  if (key === undefined) return undefined;
  const range = { column: key.column, ...(key.lo ? { lo: compileExpr(key.lo, n.left.schema) } : {}), ...(key.hi ? { hi: compileExpr(key.hi, n.left.schema) } : {}) };
  return { range, text: `, range=${n.right.schema.fields[key.column]!.name}` };
}

/**
 * The columns a join key reads (split from join-keys.ts): join-keys.ts, not-in-join.ts and
 * non-null-columns.ts read keys, and estimate.ts reads the NOT IN items while join-keys.ts reads the
 * estimates, so the key helpers live apart (no import cycle between them).
 */
import { rexInputs, type RexNode } from '../relnode/rex.js';

/** Which join input an expression reads, given the left input's width: none (a constant), one side, or both. */
export function inputSide(e: RexNode, leftWidth: number): 'none' | 'left' | 'right' | 'both' {
  let left = false;
  let right = false;
  for (const c of rexInputs(e)) { if (c < leftWidth) left = true; else right = true; }
  return left ? (right ? 'both' : 'left') : right ? 'right' : 'none';
}

/** The column a join key reads: a column reference, possibly under a numeric widening cast (INTEGER → BIGINT/DOUBLE). */
export function keyColumn(e: RexNode): number | undefined {
  if (e.kind === 'InputRef') return e.index;
  if (e.kind === 'Cast' && e.arg.kind === 'InputRef' && (e.type === 'BIGINT' || e.type === 'DOUBLE') && (e.arg.type === 'INTEGER' || e.arg.type === 'BIGINT')) return e.arg.index;
  return undefined;
}

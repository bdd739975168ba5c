/**
 * How a join condition and its inputs become a hash join's shape (split from lower.ts): the
 * equi-keys and residual of a condition, and which side builds. Pure functions of the plan
 * (no builder state), so they live apart from the recursive lowering.
 */
import type * as rel from '../relnode/rel.js';
import { conjuncts, type RexNode } from '../relnode/rex.js';
import { keyColumn } from './key-column.js';
import { joinKeyKind, type KeyKind } from '../exec/kernels/hash.js';
import { estimateRows } from './estimate.js';

export { inputSide, keyColumn } from './key-column.js';

/**
 * Equi-join keys (left ordinal = right ordinal) and the residual conjuncts of a
 * join condition. Keys of different numeric types (INTEGER = BIGINT) stay keys:
 * the hash table and the hash partitioner compare numbers by value. Each key
 * pair also carries how it compares (`kinds`): the kind of the comparison as
 * written, before widening casts are stripped, so `CAST(a AS DOUBLE) =
 * CAST(b AS DOUBLE)` over two BIGINT columns still compares as DOUBLE (the
 * partitioner hashes every number as its double, so it agrees with any kind).
 */
export function splitJoinCondition(cond: RexNode, leftWidth: number): { leftKeys: number[]; rightKeys: number[]; kinds: KeyKind[]; residual: RexNode[] } {
  const leftKeys: number[] = [];
  const rightKeys: number[] = [];
  const kinds: KeyKind[] = [];
  const residual: RexNode[] = [];
  for (const c of conjuncts(cond)) {
    if (c.kind === 'Call' && c.op === 'eq') {
      const a = keyColumn(c.args[0]!);
      const z = keyColumn(c.args[1]!);
      if (a !== undefined && z !== undefined) {
        const kind = joinKeyKind(c.args[0]!.type, c.args[1]!.type);
        if (a < leftWidth && z >= leftWidth) { leftKeys.push(a); rightKeys.push(z - leftWidth); kinds.push(kind); continue; }
        if (z < leftWidth && a >= leftWidth) { leftKeys.push(z); rightKeys.push(a - leftWidth); kinds.push(kind); continue; }
      }
    }
    residual.push(c);
  }
  return { leftKeys, rightKeys, kinds, residual };
}

/**
 * Inner joins build their smaller estimated side. Semi and anti joins build the left side when it is
 * estimated at under half the right (TPC-H Q21, Q22: a few outer rows against all of lineitem or orders):
 * the join then marks matched left rows while the right side streams past, and the right side's scan
 * takes the runtime filter of the left keys. Outer joins build the right side.
 */
export function chooseBuildSide(n: rel.Join): 'left' | 'right' {
  if (n.joinType === 'inner') return estimateRows(n.left) < estimateRows(n.right) ? 'left' : 'right';
  if (n.joinType === 'semi' || n.joinType === 'anti') return 2 * estimateRows(n.left) < estimateRows(n.right) ? 'left' : 'right';
  return 'right';
}

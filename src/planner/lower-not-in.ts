/**
 * Lowering of NOT IN's anti join over several items (not-in-join.ts `multi`): the NULL-aware anti join
 * (exec/operators/null-aware-anti-join.ts), building the right side; a semi join on such a condition
 * (IN / NOT IN as a value) runs as its semi form.
 *
 * Parallelism: a NULL in a wild item matches rows of any value, so rows cannot be split by the value of
 * such an item; an item wild on neither side (`x = y` alone: both sides NOT NULL) can: rows
 * that differ there never match, and a NULL there matches nothing anywhere. With such items both sides
 * are hash-partitioned on them and each instance joins its share (an instance whose share of the right
 * side is empty keeps its left rows: they differ from every right row in a partitioned item). Without,
 * one instance sees both sides whole, as the one-key NULL-aware hash join does.
 */
import type { JobGraphBuilder } from '../exec/job.js';
import { nullAwareAntiJoin } from '../exec/operators/null-aware-anti-join.js';
import type * as rel from '../relnode/rel.js';
import type { RelNode } from '../relnode/rel.js';
import { unusedDetail } from './lower-columns.js';
import { nonNullColumns } from './non-null-columns.js';
import { planNotIn, type NotInItem, type NotInPlan } from './not-in-join.js';
import { splitJoinCondition } from './join-keys.js';
import type { KeyKind } from '../exec/kernels/hash.js';
import type { RexNode } from '../relnode/rex.js';

/**
 * A join's hash keys and residual (join-keys.ts), NOT IN's anti join read as its items (`na`; `notIn`:
 * the one-key NULL-aware hash join's item; `multi`: the NULL-aware anti join's items).
 */
export function joinShape(n: rel.Join, lw: number): {
  na: NotInPlan | undefined; notIn: NotInItem | undefined; multi: readonly NotInItem[] | undefined;
  leftKeys: number[]; rightKeys: number[]; kinds: KeyKind[]; residual: RexNode[];
} {
  const na = n.joinType === 'anti' || n.joinType === 'semi' ? planNotIn(n.condition, lw, neverNullIn(n.left), neverNullIn(n.right), n.joinType) : undefined;
  const notIn = na?.kind === 'single' ? na.item : undefined;
  const items = na?.kind === 'multi' || na?.kind === 'keys' ? na.items : notIn ? [notIn] : undefined;
  const keys = items ? { leftKeys: items.map((i) => i.left), rightKeys: items.map((i) => i.right), kinds: items.map((i) => i.kind), residual: [] } : splitJoinCondition(n.condition, lw);
  return { na, notIn, multi: na?.kind === 'multi' ? na.items : undefined, ...keys };
}

/** Whether a column of `n` is never NULL (non-null-columns.ts), computed once on first use. */
export function neverNullIn(n: RelNode): (c: number) => boolean {
  let cols: Set<number> | undefined;
  return (c) => (cols ??= nonNullColumns(n)).has(c);
}

/** Adds the NULL-aware anti (or semi) join of `n` over the lowered inputs `l` and `r`; `used`: its output columns read above. */
export function addNullAwareJoin(b: JobGraphBuilder, n: rel.Join, items: readonly NotInItem[], l: number, r: number, p: number, used: boolean[] | undefined, condText: string): number {
  const plain = items.filter((i) => !i.leftWild && !i.rightWild);
  const single = p === 1 && b.parallelismOf(l) === 1 && b.parallelismOf(r) === 1;
  const par = single || plain.length === 0 ? 1 : p;
  const lp = single ? { kind: 'forward' as const } : plain.length === 0 ? { kind: 'global' as const } : { kind: 'hash' as const, keys: plain.map((i) => i.left) };
  const rp = single ? { kind: 'forward' as const } : plain.length === 0 ? { kind: 'global' as const } : { kind: 'hash' as const, keys: plain.map((i) => i.right) };
  const config = {
    joinType: n.joinType === 'semi' ? 'semi' as const : 'anti' as const,
    leftKeys: items.map((i) => i.left), rightKeys: items.map((i) => i.right), keyKinds: items.map((i) => i.kind),
    leftWild: items.map((i) => i.leftWild), rightWild: items.map((i) => i.rightWild), ...(used ? { used } : {}),
  };
  const detail = (): string => `${n.joinType}, ${condText}, build=right, null_aware(${items.length} items)${unusedDetail(n.schema, used)}`;
  return b.addOperator('HashJoin', par, n.schema, () => nullAwareAntiJoin(config), [{ from: l, partitioner: lp }, { from: r, partitioner: rp }], detail);
}

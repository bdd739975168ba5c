/**
 * The order predicate.ts evaluates a WHERE's non-fused conjuncts in: cheap,
 * selective row tests first. Each conjunct runs only on the rows the earlier
 * ones kept, so `p_size IN (…) AND p_brand <> '…' AND p_type NOT LIKE '…'`
 * (TPC-H Q16: the IN keeps 16% of the rows, the other two keep 96% and 99%)
 * tests the strings of 16% of the rows instead of all of them.
 *
 * Decision: only *simple* conjuncts move — a column compared with a literal,
 * IN over literals, LIKE/ILIKE of a column with a literal pattern, and NOT of
 * those. None of them can raise an error, so running one earlier only removes
 * rows from the ones after it, never adds an error. Any other conjunct (a
 * CAST, arithmetic, a function) is a barrier: it keeps its place and nothing
 * moves across it, so `s <> 'x' AND CAST(s AS INTEGER) > 1` still never casts
 * 'x'. Within a run of simple conjuncts the sort is stable, by a static rank:
 * equality and numeric IN (selective, one compare) first, then ranges and
 * string IN, then `<>` (keeps most rows), then LIKE (a byte scan per row).
 */
import type { RexNode } from '../../relnode/rex.js';

const RANGE_OPS: ReadonlySet<string> = new Set(['lt', 'le', 'gt', 'ge']);

const isColumn = (e: RexNode): boolean => e.kind === 'InputRef';
const isLit = (e: RexNode): boolean => e.kind === 'Literal';

/** The rank of a simple conjunct (lower runs earlier), or undefined for any other conjunct (a barrier). */
export function simpleRank(e: RexNode): number | undefined {
  if (e.kind !== 'Call') return undefined;
  const a = e.args;
  if (e.op === 'not') {
    if (a.length !== 1) return undefined;
    const inner = simpleRank(a[0]!);
    // NOT x keeps what x drops: an equality's NOT is as unselective as `<>`.
    return inner === undefined ? undefined : Math.max(inner, 2);
  }
  if (e.op === 'in') {
    if (a.length < 2 || !isColumn(a[0]!) || !a.slice(1).every(isLit)) return undefined;
    return a[0]!.type === 'VARCHAR' ? 1 : 0;
  }
  if (e.op === 'like' || e.op === 'ilike') return a.length === 2 && isColumn(a[0]!) && isLit(a[1]!) ? 3 : undefined;
  if (e.op === 'eq' || e.op === 'ne' || RANGE_OPS.has(e.op)) {
    if (a.length !== 2 || !((isColumn(a[0]!) && isLit(a[1]!)) || (isLit(a[0]!) && isColumn(a[1]!)))) return undefined;
    if (a[0]!.type !== a[1]!.type) return undefined;
    return e.op === 'eq' ? 0 : e.op === 'ne' ? 2 : 1;
  }
  return undefined;
}

/** The conjuncts in evaluation order: each run of simple conjuncts between barriers sorted stably by rank. */
export function orderConjuncts<T extends RexNode>(cs: readonly T[]): T[] {
  const out: T[] = [];
  let run: { c: T; r: number }[] = [];
  const flush = (): void => {
    run.sort((x, y) => x.r - y.r);
    for (const x of run) out.push(x.c);
    run = [];
  };
  for (const c of cs) {
    const r = simpleRank(c);
    if (r === undefined) { flush(); out.push(c); } else run.push({ c, r });
  }
  flush();
  return out;
}

/**
 * NOT IN's anti join as a hash join. remove-subqueries.ts turns
 * `a NOT IN (SELECT b ...)` over nullable columns into an anti join on
 * `a = b OR a IS NULL OR b IS NULL` (SQL's NULL semantics), which has no
 * equi-key conjunct and so lowered to a nested-loop join: TPC-H Q16 over
 * files whose columns are declared nullable compared 118k rows × the
 * subquery's rows one pair at a time. Recognized here, the join hashes on
 * `a = b` and the operator applies the NULL rules itself (hash-join.ts
 * `nullAware`): a NULL build key drops every row, a NULL probe key drops its
 * row, both only when the build side is not empty.
 */
import { disjuncts, type RexNode } from '../relnode/rex.js';
import { joinKeyKind, type KeyKind } from '../exec/kernels/hash.js';

/** The key of a NULL-aware anti join condition (`l = r OR l IS NULL OR r IS NULL`, either order), or undefined. */
export function notInKey(cond: RexNode, leftWidth: number): { left: number; right: number; kind: KeyKind } | undefined {
  if (cond.kind !== 'Call' || cond.op !== 'or') return undefined;
  const parts = disjuncts(cond);
  if (parts.length !== 3) return undefined;
  const eq = parts.find((p) => p.kind === 'Call' && p.op === 'eq');
  if (eq === undefined || eq.kind !== 'Call') return undefined;
  const [x, y] = eq.args;
  if (x?.kind !== 'InputRef' || y?.kind !== 'InputRef') return undefined;
  const l = x.index < leftWidth ? x : y;
  const r = x.index < leftWidth ? y : x;
  if (l.index >= leftWidth || r.index < leftWidth) return undefined;
  const nullTest = (i: number): boolean => parts.some((p) => p.kind === 'Call' && p.op === 'is_null' && p.args[0]?.kind === 'InputRef' && p.args[0].index === i);
  if (!nullTest(l.index) || !nullTest(r.index)) return undefined;
  return { left: l.index, right: r.index - leftWidth, kind: joinKeyKind(l.type, r.type) };
}

/**
 * NOT IN's anti join as a hash join. remove-subqueries.ts and the row IN binder (sql/binder/
 * row-subquery.ts) turn `(a, b) NOT IN (SELECT x, y ...)` over nullable columns into an anti join on
 * `(a = x OR a IS NULL OR x IS NULL) AND (b = y OR ...)` (SQL's NULL semantics), which has no equi-key
 * conjunct and so lowered to a nested-loop join: TPC-H Q16 over files whose columns are declared
 * nullable compared 118k rows × the subquery's rows one pair at a time. Recognized here:
 * - one item NULL-tested on both sides (or on one, the other never NULL): the hash join hashes on
 *   `a = x` and applies the NULL rules itself (hash-join.ts `nullAware`);
 * - up to MAX_NULL_AWARE_KEYS items (plain equalities, (both sides NOT NULL) count as items too):
 *   the NULL-aware anti join (exec/operators/null-aware-anti-join.ts), hash tables per NULL pattern;
 * - a NULL test of a column the plan below shows never NULL (non-null-columns.ts: a NOT NULL
 *   column, a WHERE `x IS NOT NULL`, an inner join's key) is dropped first; with none left the
 *   join is a plain anti hash join on the items.
 * More items, or a conjunct that is not such an item, keep the condition as it is (a nested loop
 * unless some conjunct is a plain equality key); EXPLAIN says why.
 *
 * A semi join on the same condition (EXISTS over NOT IN's "may equal" test: IN / NOT IN as a value,
 * rules/decorrelate-mark-existence.ts) is read the same way and runs as the NULL-aware join's semi
 * form; the one-key hash join mode is anti-only, so a semi join's one item runs there too.
 */
import { conjuncts, disjuncts, type RexNode } from '../relnode/rex.js';
import { joinKeyKind, type KeyKind } from '../exec/kernels/hash.js';
import { MAX_NULL_AWARE_KEYS } from '../exec/operators/null-aware-tables.js';
import { keyColumn } from './key-column.js';

/** One item of a NOT IN condition: `l = r`, with `OR l IS NULL` (leftWild) and/or `OR r IS NULL` (rightWild). */
export interface NotInItem {
  readonly left: number;
  /** A right input ordinal (not shifted by the left width). */
  readonly right: number;
  readonly kind: KeyKind;
  readonly leftWild: boolean;
  readonly rightWild: boolean;
}

/** How lowering runs an anti join whose condition is NOT IN's. */
export type NotInPlan =
  | { readonly kind: 'keys'; readonly items: readonly NotInItem[] }
  | { readonly kind: 'single'; readonly item: NotInItem }
  | { readonly kind: 'multi'; readonly items: readonly NotInItem[] }
  | { readonly kind: 'nested'; readonly reason: string };

/**
 * `nullAware` false plans NOT IN as before the multi-key NULL-aware join: only one item NULL-tested on
 * both sides is hashed, the rest run as the condition says (mutable for tests and benchmarks).
 */
export const notInTuning = { nullAware: true };

/** The items of a NOT IN anti join condition (some item with a NULL test), or undefined. */
export function notInItems(cond: RexNode, leftWidth: number): NotInItem[] | undefined {
  const items: NotInItem[] = [];
  for (const c of conjuncts(cond)) {
    const item = notInItem(c, leftWidth);
    if (item === undefined) return undefined;
    items.push(item);
  }
  return items.some((i) => i.leftWild || i.rightWild) ? items : undefined;
}

function notInItem(c: RexNode, leftWidth: number): NotInItem | undefined {
  if (c.kind !== 'Call') return undefined;
  const parts = c.op === 'or' ? disjuncts(c) : c.op === 'eq' ? [c] : [];
  const eqs = parts.filter((p) => p.kind === 'Call' && p.op === 'eq');
  if (eqs.length !== 1 || parts.length > 3) return undefined;
  const eq = eqs[0]!;
  if (eq.kind !== 'Call') return undefined;
  const x = keyColumn(eq.args[0]!);
  const y = keyColumn(eq.args[1]!);
  if (x === undefined || y === undefined) return undefined;
  const [l, r] = x < leftWidth ? [x, y] : [y, x];
  if (l >= leftWidth || r < leftWidth) return undefined;
  let leftWild = false;
  let rightWild = false;
  for (const p of parts) {
    if (p === eq) continue;
    const col = p.kind === 'Call' && p.op === 'is_null' ? keyColumn(p.args[0]!) : undefined;
    if (col === l && !leftWild) leftWild = true;
    else if (col === r && !rightWild) rightWild = true;
    else return undefined;
  }
  return { left: l, right: r - leftWidth, kind: joinKeyKind(eq.args[0]!.type, eq.args[1]!.type), leftWild, rightWild };
}

/** The key of a NULL-aware anti join condition on one item (`l = r OR l IS NULL OR r IS NULL`, either order), or undefined. */
export function notInKey(cond: RexNode, leftWidth: number): { left: number; right: number; kind: KeyKind } | undefined {
  const items = notInItems(cond, leftWidth);
  return items?.length === 1 && items[0]!.leftWild && items[0]!.rightWild ? items[0] : undefined;
}

/**
 * How to run an anti (or semi) join with condition `cond`, or undefined when it is not NOT IN's.
 * `leftNonNull` / `rightNonNull`: whether an input's column is known never NULL (its NULL test is then dropped).
 */
export function planNotIn(cond: RexNode, leftWidth: number, leftNonNull: (c: number) => boolean, rightNonNull: (c: number) => boolean, joinType: 'anti' | 'semi' = 'anti'): NotInPlan | undefined {
  const found = notInItems(cond, leftWidth);
  if (found === undefined) return undefined;
  if (!notInTuning.nullAware) return joinType === 'anti' && found.length === 1 && found[0]!.leftWild && found[0]!.rightWild ? { kind: 'single', item: found[0]! } : undefined;
  const items = found.map((i) => ({ ...i, leftWild: i.leftWild && !leftNonNull(i.left), rightWild: i.rightWild && !rightNonNull(i.right) }));
  if (!items.some((i) => i.leftWild || i.rightWild)) return { kind: 'keys', items };
  // One item whose sides are each NULL-tested or never NULL: the hash join's one-key mode gives the
  // same rows (a NULL only ever stands on a tested side), with its runtime filter and dictionary output.
  const one = items[0]!;
  if (joinType === 'anti' && items.length === 1 && (one.leftWild || leftNonNull(one.left)) && (one.rightWild || rightNonNull(one.right))) return { kind: 'single', item: one };
  if (items.length <= MAX_NULL_AWARE_KEYS) return { kind: 'multi', items };
  return { kind: 'nested', reason: `NOT IN over ${items.length} items, the NULL-aware hash join takes at most ${MAX_NULL_AWARE_KEYS}` };
}

/**
 * join-key-expressions: an equality between an expression over one join input
 * and an expression over the other (`ON a.x + 1 = b.y`, `ON lower(a.s) =
 * lower(b.s)`, `WHERE CAST(a.d AS VARCHAR) = b.k`) becomes a hash-join key.
 * Each side's expression is computed once per row by a Project below the join
 * (all the input's columns, then the key), the condition compares the two new
 * columns, and a Project above drops them again, so the schema above does not
 * change.
 *
 * Why: the hash join keys on columns only (join-keys.ts `splitJoinCondition`).
 * Without this rule such a condition was a residual, and a join with no other
 * key ran as a nested loop: 200K × 200K rows compared pair by pair (EXPLAIN
 * estimated 42 s) for what a hash join does in milliseconds.
 *
 * Decision: a final phase after the fixpoint of the default rules
 * (optimizer.ts `FINAL_RULES`), not one of them. A Project that computes
 * something ends a join region (join-region.ts), so the rule running between
 * passes would freeze the joins below it out of join ordering; after the
 * fixpoint, the order is settled and the new Projects only add columns.
 *
 * What qualifies: a conjunct `l = r` where l reads only columns of one input
 * and r only columns of the other, at least one of them is not already a
 * key column (a column, or a column under a numeric widening cast), both are
 * deterministic and hold no subquery. The NULL-aware anti join of NOT IN
 * (`l = r OR l IS NULL OR r IS NULL`, or with one NULL test, per item: not-in-join.ts) qualifies the same way:
 * every occurrence of the expression in the condition is replaced. Every join
 * type is rewritten alike (a key is a function of its own row, so computing it
 * below the join changes no match); outer joins pad the key columns with NULLs
 * like any other, and the Project above drops them.
 */
import { canonicalRex } from '../../relnode/digest.js';
import { join, project, projectOrdinals, transformUp, type Join, type RelNode } from '../../relnode/rel.js';
import { conjuncts, disjuncts, hasSubquery, inputRef, rexChildren, rexShift, rexWithChildren, type RexNode } from '../../relnode/rex.js';
import { inputSide, keyColumn } from '../join-keys.js';
import { isDeterministicRex, type Rule } from '../rule.js';

/** A column a hash join already keys on as it is. */
const isKeyColumn = (e: RexNode): boolean => keyColumn(e) !== undefined;

/** Which input `e` reads: 'left', 'right', or undefined (both, neither, or not computable once per row). */
function sideOf(e: RexNode, leftWidth: number): 'left' | 'right' | undefined {
  if (hasSubquery(e) || !isDeterministicRex(e)) return undefined;
  const side = inputSide(e, leftWidth);
  return side === 'left' || side === 'right' ? side : undefined;
}

/** The equalities of a join condition that may carry expression keys: its `eq` conjuncts, and NOT IN's `eq` disjunct. */
function equalities(cond: RexNode): RexNode[] {
  const out: RexNode[] = [];
  for (const c of conjuncts(cond)) {
    if (c.kind !== 'Call') continue;
    if (c.op === 'eq') out.push(c);
    else if (c.op === 'or') {
      const parts = disjuncts(c);
      const eqs = parts.filter((p) => p.kind === 'Call' && p.op === 'eq');
      if ((parts.length === 2 || parts.length === 3) && eqs.length === 1 && parts.every((p) => p.kind === 'Call' && (p.op === 'eq' || p.op === 'is_null'))) out.push(eqs[0]!);
    }
  }
  return out;
}

/** The join with its expression keys computed below it (plus the Project that drops them), or the join itself. */
function rewriteJoin(j: Join): RelNode {
  if (j.joinType === 'cross') return j;
  const lw = j.left.schema.fields.length;
  const rw = j.right.schema.fields.length;
  // Key expressions per side, by canonical text (one column for an expression written twice).
  const leftKeys = new Map<string, RexNode>();
  const rightKeys = new Map<string, RexNode>();
  for (const eq of equalities(j.condition)) {
    if (eq.kind !== 'Call') continue;
    const [a, b] = eq.args as [RexNode, RexNode];
    const sa = sideOf(a, lw);
    const sb = sideOf(b, lw);
    if (sa === undefined || sb === undefined || sa === sb) continue;
    if (isKeyColumn(a) && isKeyColumn(b)) continue;
    for (const [e, s] of [[a, sa], [b, sb]] as const) {
      if (isKeyColumn(e)) continue;
      (s === 'left' ? leftKeys : rightKeys).set(canonicalRex(e), e);
    }
  }
  if (leftKeys.size === 0 && rightKeys.size === 0) return j;
  const lk = [...leftKeys.values()];
  const rk = [...rightKeys.values()];
  // New layout: left columns, left keys, right columns, right keys.
  const shiftRight = (i: number): number => (i < lw ? i : i + lk.length);
  const slot = new Map<string, number>();
  lk.forEach((e, k) => slot.set(canonicalRex(e), lw + k));
  rk.forEach((e, k) => slot.set(canonicalRex(e), lw + lk.length + rw + k));
  const withKeys = (input: RelNode, keys: readonly RexNode[], base: number, side: string): RelNode => {
    if (keys.length === 0) return input;
    const fields = input.schema.fields;
    const exprs = [...fields.map((f, i) => inputRef(i, f.type, f.name)), ...keys.map((e) => rexShift(e, (i) => i - base))];
    const names = [...fields.map((f) => f.name), ...keys.map((_, k) => `__${side}_key${k}`)];
    return project(input, exprs, names);
  };
  const left = withKeys(j.left, lk, 0, 'left');
  const right = withKeys(j.right, rk, lw, 'right');
  // Top-down: a key expression is replaced whole before its columns would be renumbered.
  const replace = (e: RexNode): RexNode => {
    if (e.kind === 'InputRef') return e.index < lw ? e : { ...e, index: shiftRight(e.index) };
    const at = slot.get(canonicalRex(e));
    if (at !== undefined) return inputRef(at, e.type);
    const ch = rexChildren(e);
    if (ch.length === 0) return e;
    const nch = ch.map(replace);
    return nch.some((c, i) => c !== ch[i]) ? rexWithChildren(e, nch) : e;
  };
  const cond = replace(j.condition);
  const out = join(left, right, j.joinType, cond);
  // Drop the key columns: semi and anti joins output the left side only.
  const keep: number[] = [];
  for (let i = 0; i < lw; i++) keep.push(i);
  if (j.joinType !== 'semi' && j.joinType !== 'anti') for (let i = 0; i < rw; i++) keep.push(lw + lk.length + i);
  return projectOrdinals(out, keep, j.schema.fields.map((f) => f.name));
}

/** Computes expression join keys below their join, so the join hashes on them. */
export const joinKeyExpressions: Rule = {
  name: 'join-key-expressions',
  description: 'Join(l, r, f(l) = g(r)) → Project(Join(Project(l, f), Project(r, g), k1 = k2)); a final phase after the default rules.',
  rewrite(root) {
    return transformUp(root, (n) => (n.kind === 'Join' ? rewriteJoin(n) : n));
  },
};

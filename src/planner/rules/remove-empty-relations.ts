/**
 * remove-empty-relations: propagates empty Values upwards — Filter/Project/Sort/Limit/Distinct and
 * grouped Aggregate over empty are empty, inner/cross/semi joins with an empty side are empty, an anti
 * join with an empty right side is its left side, unions drop empty branches, Filter(FALSE or NULL) is
 * empty. A global Aggregate (no group keys) over empty stays: it yields one row. Runs last, after
 * simplify-expressions (which makes the FALSE filters) and push-down-limit (which makes Limit(0) empty);
 * the next pass simplifies and merges whatever it exposes.
 */
import { distinct, project, union, transformUp, type Join, type RelNode, type SetOp, type Union } from '../../relnode/rel.js';
import { assertNever, inputRef, literal } from '../../relnode/rex.js';
import type { Schema } from '../../relnode/types.js';
import { emptyLike, isEmptyRelation, isLiteralValue, sameNamesAndTypes, withType, type Rule } from '../rule.js';

/** Replaces subtrees that cannot yield rows by empty Values, bottom-up. */
export const removeEmptyRelations: Rule = {
  name: 'remove-empty-relations',
  description: 'Propagates empty Values up through filters, projects, joins, unions and grouped aggregates; runs last, after simplify-expressions and push-down-limit produce the empties.',
  rewrite(root) {
    return transformUp(root, removeEmpty);
  },
};

function removeEmpty(n: RelNode): RelNode {
  switch (n.kind) {
    case 'Filter':
      if (isLiteralValue(n.condition, false) || isLiteralValue(n.condition, null)) return emptyLike(n);
      return isEmptyRelation(n.input) ? emptyLike(n) : n;
    case 'Project': case 'Sort': case 'Limit': case 'Distinct': case 'Window':
      return isEmptyRelation(n.input) ? emptyLike(n) : n;
    case 'Aggregate':
      return n.groupKeys.length > 0 && isEmptyRelation(n.input) ? emptyLike(n) : n;
    case 'Join': return removeFromJoin(n);
    case 'Union': return removeFromUnion(n);
    case 'SetOp': return removeFromSetOp(n);
    default: return n;
  }
}

function removeFromJoin(j: Join): RelNode {
  let l = isEmptyRelation(j.left);
  let r = isEmptyRelation(j.right);
  if (!l && !r && (isLiteralValue(j.condition, false) || isLiteralValue(j.condition, null))) {
    // A condition that never holds: no row matches, as if the non-preserved side were empty
    // (a LEFT JOIN ... ON FALSE is its left side padded with NULLs, not a nested-loop join).
    if (j.joinType === 'full') return j;
    if (j.joinType === 'right') l = true; else r = true;
  }
  if (!l && !r) return j;
  switch (j.joinType) {
    case 'inner': case 'cross': case 'semi': return emptyLike(j);
    case 'anti': return l ? emptyLike(j) : j.left;
    case 'left': return l ? emptyLike(j) : padWithNulls(j);
    case 'right': return r ? emptyLike(j) : padWithNulls(j);
    case 'full': return l && r ? emptyLike(j) : padWithNulls(j);
    default: return assertNever(j.joinType, 'join type');
  }
}

/** An outer join whose other side is empty (or never matches): the preserved side's rows with NULLs for the other side's columns. */
function padWithNulls(j: Join): RelNode {
  const keepLeft = j.joinType === 'left' || (j.joinType === 'full' && isEmptyRelation(j.right));
  const L = j.left.schema.fields.length;
  const kept = keepLeft ? j.left : j.right;
  const exprs = j.schema.fields.map((f, i) => {
    const fromKept = keepLeft ? i < L : i >= L;
    const k = keepLeft ? i : i - L;
    return fromKept ? inputRef(k, kept.schema.fields[k]!.type, f.name) : literal(null, f.type);
  });
  return project(kept, exprs, j.schema.fields.map((f) => f.name));
}

/** Drops empty branches; a single remaining branch replaces the union (under Distinct for UNION), renamed and cast to the union's schema. */
function removeFromUnion(u: Union): RelNode {
  const rest = u.inputs.filter((b) => !isEmptyRelation(b));
  if (rest.length === u.inputs.length) return u;
  if (rest.length === 0) return emptyLike(u);
  if (rest.length === 1) {
    const only = conformTo(rest[0]!, u.schema);
    return u.all ? only : distinct(only);
  }
  return conformTo(union(rest, u.all), u.schema);
}

/** INTERSECT with an empty side is empty; EXCEPT from empty is empty; EXCEPT of empty is the left side (made distinct for EXCEPT). */
function removeFromSetOp(s: SetOp): RelNode {
  const l = isEmptyRelation(s.left);
  const r = isEmptyRelation(s.right);
  if (!l && !r) return s;
  if (s.op === 'intersect' || l) return emptyLike(s);
  const left = conformTo(s.left, s.schema);
  return s.all ? left : distinct(left);
}

/**
 * `n` re-exposed with the names and types of `schema` (same field count):
 * `n` itself when they already match, else a Project of (cast) column references.
 */
function conformTo(n: RelNode, schema: Schema): RelNode {
  if (sameNamesAndTypes(n.schema, schema)) return n;
  const fields = n.schema.fields;
  const exprs = schema.fields.map((f, i) => withType(inputRef(i, fields[i]!.type, fields[i]!.name), f.type));
  return project(n, exprs, schema.fields.map((f) => f.name));
}

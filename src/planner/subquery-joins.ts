/**
 * The plain-join forms a Correlate becomes once its right side no longer
 * reads the left one: the right side arrives with `k` key columns (the
 * domain of outer values it was computed for, none when uncorrelated) that
 * must equal the left's columns `leftKeys`, NULL-safely (a NULL outer value
 * is a value of the domain too). Shared by decorrelate-uncorrelated (k = 0)
 * and decorrelate-domain. Each form returns exactly the Correlate's schema.
 */
import { InternalError } from '../relnode/errors.js';
import * as rel from '../relnode/rel.js';
import { andAll, call, caseWhen, inputRef, literal, rexInputs, rexShift, withSpan, type LiteralValue, type RexNode } from '../relnode/rex.js';
import type { SourceSpan } from '../relnode/source-span.js';
import type { SqlType } from '../relnode/types.js';
import { FUNCTIONS } from '../relnode/functions.js';

const refs = (n: rel.RelNode, from = 0, to = n.schema.fields.length): RexNode[] =>
  n.schema.fields.slice(from, to).map((f, i) => inputRef(from + i, f.type, f.name));

const SENTINEL: Readonly<Record<SqlType, LiteralValue>> = { BOOLEAN: false, INTEGER: 0, BIGINT: 0n, DOUBLE: 0, VARCHAR: '', DATE: 0, TIMESTAMP: 0, NULL: null };

/** Hashable stand-ins for NULL-safe equality on `e`: coalesce(e, constant) and e IS NULL. */
function nullSafeParts(e: RexNode): RexNode[] {
  const isNull = call('is_null', [e], 'BOOLEAN');
  if (e.type === 'NULL') return [isNull];
  return [call('coalesce', [e, literal(SENTINEL[e.type], e.type)], e.type), isNull];
}

/**
 * Join(left, right, type, condition AND left[leftKeys] IS NOT DISTINCT FROM
 * right[rightKeys]); `condition` is over left's columns then right's. Keys
 * that may be NULL are compared through computed hashable columns (so the
 * join stays a hash join), projected away again.
 */
export function joinOnKeys(left: rel.RelNode, right: rel.RelNode, type: rel.JoinType, condition: RexNode, leftKeys: readonly number[], rightKeys: readonly number[]): rel.RelNode {
  const lw = left.schema.fields.length;
  const rw = right.schema.fields.length;
  const lf = left.schema.fields;
  const rf = right.schema.fields;
  const direct: RexNode[] = [];
  const lParts: RexNode[] = [];
  const rParts: RexNode[] = [];
  leftKeys.forEach((l, i) => {
    const r = rightKeys[i]!;
    if (!lf[l]!.nullable && !rf[r]!.nullable) { direct.push(call('eq', [inputRef(l, lf[l]!.type), inputRef(lw + r, rf[r]!.type)], 'BOOLEAN')); return; }
    lParts.push(...nullSafeParts(inputRef(l, lf[l]!.type, lf[l]!.name)));
    rParts.push(...nullSafeParts(inputRef(r, rf[r]!.type, rf[r]!.name)));
  });
  if (lParts.length === 0) return rel.join(left, right, type, andAll([...condition.kind === 'Literal' && condition.value === true ? [] : [condition], ...direct]));
  const p = lParts.length;
  const l2 = rel.project(left, [...refs(left), ...lParts], [...lf.map((f) => f.name), ...lParts.map((_, i) => `__lk${i}`)]);
  const r2 = rel.project(right, [...refs(right), ...rParts], [...rf.map((f) => f.name), ...rParts.map((_, i) => `__rk${i}`)]);
  const shift = (e: RexNode): RexNode => rexShift(e, (i) => (i >= lw ? i + p : i));
  const keyEq = lParts.map((x, i) => call('eq', [inputRef(lw + i, x.type), inputRef(lw + p + rw + i, rParts[i]!.type)], 'BOOLEAN'));
  const cond = andAll([...(condition.kind === 'Literal' && condition.value === true ? [] : [shift(condition)]), ...direct.map(shift), ...keyEq]);
  const j = rel.join(l2, r2, type, cond);
  const keep = type === 'semi' || type === 'anti'
    ? [...Array(lw).keys()]
    : [...Array(lw).keys(), ...Array.from({ length: rw }, (_, i) => lw + p + i)];
  const f = j.schema.fields;
  return rel.project(j, keep.map((i) => inputRef(i, f[i]!.type, f[i]!.name)), keep.map((i) => f[i]!.name));
}

/** True when the plan yields exactly one row (an Aggregate without keys, under Projects/Sorts). */
export function exactlyOneRow(p: rel.RelNode): boolean {
  switch (p.kind) {
    case 'Aggregate': return p.groupKeys.length === 0;
    case 'Project': case 'Sort': return exactlyOneRow(p.input);
    case 'Limit': return p.fetch >= 1 && p.offset === 0 && exactlyOneRow(p.input);
    case 'Values': return p.rows.length === 1;
    default: return false;
  }
}

/**
 * One row per value of the `keys` columns of `p`, with p's column 0: an
 * Aggregate counting rows (failing the query, as DuckDB does, when a key has
 * more than one, pointing at the subquery's SQL position `at`) and taking
 * the value. Output: the value, then the keys.
 */
export function singleValue(p: rel.RelNode, keys: readonly number[], at?: SourceSpan): rel.RelNode {
  const vf = p.schema.fields[0]!;
  const t: SqlType = vf.type === 'NULL' ? 'INTEGER' : vf.type;
  const input = vf.type === 'NULL' ? rel.project(p, [literal(null, t), ...refs(p, 1)], p.schema.fields.map((f) => f.name)) : p;
  const agg = rel.aggregate(input, keys, [
    { fn: 'count_star', args: [], distinct: false, type: 'BIGINT', name: '__rows' },
    { fn: 'min', args: [0], distinct: false, type: t, name: vf.name },
  ]);
  const k = keys.length;
  const value = FUNCTIONS.has('assert_single_row')
    ? caseWhen([{ when: located(call('assert_single_row', [inputRef(k, 'BIGINT')], 'BOOLEAN'), at), then: inputRef(k + 1, t, vf.name) }], literal(null, t), t)
    : inputRef(k + 1, t, vf.name);
  const typed = vf.type === 'NULL' ? literal(null, 'NULL') : value;
  const af = agg.schema.fields;
  return rel.project(agg, [typed, ...keys.map((_, i) => inputRef(i, af[i]!.type, af[i]!.name))], [vf.name, ...keys.map((_, i) => af[i]!.name)]);
}

/** What the right side of a join form looks like: `width` columns of the subquery, then one key column per left key. */
export interface KeyedRight {
  readonly node: rel.RelNode;
  readonly width: number;
  /** Known to have at most one row per key value (a scalar subquery then needs no row-count check). */
  readonly unique?: boolean;
}

/** `e` marked with SQL position `at`, if any. */
const located = (e: RexNode, at: SourceSpan | undefined): RexNode => (at === undefined ? e : withSpan(e, at));

/** The left columns followed by `extra` (over the join's columns), as one Project. */
function leftPlus(j: rel.RelNode, lw: number, extra: readonly RexNode[], names: readonly string[]): rel.RelNode {
  return rel.project(j, [...refs(j, 0, lw), ...extra], [...j.schema.fields.slice(0, lw).map((f) => f.name), ...names]);
}

/** A scalar subquery's value appended to each left row (NULL without a row; an error with several, pointing at `at`). */
export function singleJoin(left: rel.RelNode, right: KeyedRight, leftKeys: readonly number[], at?: SourceSpan): rel.RelNode {
  if (right.width !== 1) throw new InternalError(`a scalar subquery has ${right.width} columns`);
  const lw = left.schema.fields.length;
  const k = leftKeys.length;
  const rk = Array.from({ length: k }, (_, i) => right.width + i);
  const vf = right.node.schema.fields[0]!;
  if (k === 0) {
    const one = exactlyOneRow(right.node) ? right.node : singleValue(right.node, [], at);
    const j = rel.join(left, one, 'cross', literal(true, 'BOOLEAN'));
    return leftPlus(j, lw, [inputRef(lw, j.schema.fields[lw]!.type, vf.name)], [vf.name]);
  }
  if (right.unique) {
    const j = joinOnKeys(left, right.node, 'left', literal(true, 'BOOLEAN'), leftKeys, rk);
    return leftPlus(j, lw, [inputRef(lw, j.schema.fields[lw]!.type, vf.name)], [vf.name]);
  }
  const one = singleValue(right.node, rk, at);
  const j = joinOnKeys(left, one, 'left', literal(true, 'BOOLEAN'), leftKeys, rk.map((_, i) => 1 + i));
  return leftPlus(j, lw, [inputRef(lw, j.schema.fields[lw]!.type, vf.name)], [vf.name]);
}

/** Semi / anti join: `condition` over left then the right's subquery columns. */
export function existenceJoin(left: rel.RelNode, right: KeyedRight, type: 'semi' | 'anti', condition: RexNode, leftKeys: readonly number[]): rel.RelNode {
  return joinOnKeys(left, right.node, type, condition, leftKeys, leftKeys.map((_, i) => right.width + i));
}

/**
 * The mark of EXISTS (condition TRUE) or IN (condition `eq(a, b)`, a over
 * left, b over the right's columns) appended to each left row: TRUE on a
 * match; for IN, NULL when there is none but `a` or some value is NULL,
 * else FALSE.
 */
export function markJoin(left: rel.RelNode, right: KeyedRight, condition: RexNode, leftKeys: readonly number[]): rel.RelNode {
  const lw = left.schema.fields.length;
  const k = leftKeys.length;
  const r = right.node;
  const keyRefs = refs(r, right.width, right.width + k);
  const bool = (v: boolean | null): RexNode => literal(v, 'BOOLEAN');
  if (condition.kind === 'Literal' && condition.value === true) {
    if (k === 0) {
      const count = rel.aggregate(rel.limit(r, 1), [], [{ fn: 'count_star', args: [], distinct: false, type: 'BIGINT', name: 'count_star()' }]);
      const flag = rel.project(count, [call('gt', [inputRef(0, 'BIGINT'), literal(0n, 'BIGINT')], 'BOOLEAN')], ['mark']);
      return rel.join(left, flag, 'cross', bool(true));
    }
    const keys = rel.distinct(rel.project(r, [...keyRefs, bool(true)], [...keyRefs.map((_, i) => `__key${i}`), '__match']));
    const j = joinOnKeys(left, keys, 'left', bool(true), leftKeys, keyRefs.map((_, i) => i));
    return leftPlus(j, lw, [call('is_not_null', [inputRef(lw + k, 'BOOLEAN')], 'BOOLEAN')], ['mark']);
  }
  if (condition.kind !== 'Call' || condition.op !== 'eq') throw new InternalError('a mark Correlate needs TRUE or an equality as its condition');
  const [a, b0] = condition.args as [RexNode, RexNode];
  if ([...rexInputs(a)].some((i) => i >= lw) || [...rexInputs(b0)].some((i) => i < lw)) throw new InternalError('a mark Correlate compares a left expression with a right one');
  const b = rexShift(b0, (i) => i - lw);
  const values = rel.project(r, [b, ...keyRefs], ['__value', ...keyRefs.map((_, i) => `__key${i}`)]);
  const vt = b.type;
  const m = rel.distinct(values);
  const matchCond = call('eq', [a, inputRef(lw, vt)], 'BOOLEAN');
  const j1 = joinOnKeys(left, m, 'left', matchCond, leftKeys, keyRefs.map((_, i) => 1 + i));
  const stats = rel.aggregate(values, keyRefs.map((_, i) => 1 + i), [
    { fn: 'count_star', args: [], distinct: false, type: 'BIGINT', name: '__n' },
    { fn: 'count', args: [0], distinct: false, type: 'BIGINT', name: '__nn' },
  ]);
  const w1 = lw + 1 + k;
  const j2 = k === 0 ? rel.join(j1, stats, 'cross', bool(true)) : joinOnKeys(j1, stats, 'left', bool(true), leftKeys, keyRefs.map((_, i) => i));
  const n = call('coalesce', [inputRef(w1 + k, 'BIGINT'), literal(0n, 'BIGINT')], 'BIGINT');
  const nn = call('coalesce', [inputRef(w1 + k + 1, 'BIGINT'), literal(0n, 'BIGINT')], 'BIGINT');
  const value = caseWhen([
    { when: call('is_not_null', [inputRef(lw, vt)], 'BOOLEAN'), then: bool(true) },
    { when: call('eq', [n, literal(0n, 'BIGINT')], 'BOOLEAN'), then: bool(false) },
    { when: call('or', [call('is_null', [a], 'BOOLEAN'), call('lt', [nn, n], 'BOOLEAN')], 'BOOLEAN'), then: bool(null) },
  ], bool(false), 'BOOLEAN');
  return leftPlus(j2, lw, [value], ['mark']);
}

/**
 * A LATERAL join (inner / left Correlate): the left rows joined with the right side's rows of their
 * key values that satisfy `condition` (over left then the right's subquery columns); left keeps an
 * unmatched left row, NULL-extended. Output: the left columns, then the right's `width` columns.
 */
export function lateralJoin(c: rel.Correlate, right: KeyedRight, type: 'inner' | 'left', leftKeys: readonly number[]): rel.RelNode {
  const lw = c.left.schema.fields.length;
  const k = leftKeys.length;
  const always = c.condition.kind === 'Literal' && c.condition.value === true;
  const j = k === 0
    ? rel.join(c.left, right.node, type === 'inner' && always ? 'cross' : type, c.condition)
    : joinOnKeys(c.left, right.node, type, c.condition, leftKeys, Array.from({ length: k }, (_, i) => right.width + i));
  const f = j.schema.fields;
  const keep = [...Array(lw + right.width).keys()];
  return rel.project(j, keep.map((i) => inputRef(i, f[i]!.type, f[i]!.name)), c.schema.fields.map((x) => x.name));
}

/** The join form of a Correlate of any type whose right side carries the keys. */
export function joinForm(c: rel.Correlate, right: KeyedRight, leftKeys: readonly number[]): rel.RelNode {
  switch (c.joinType) {
    case 'semi': case 'anti': return existenceJoin(c.left, right, c.joinType, c.condition, leftKeys);
    case 'single': return singleJoin(c.left, right, leftKeys, c.at);
    case 'mark': return markJoin(c.left, right, c.condition, leftKeys);
    case 'inner': case 'left': return lateralJoin(c, right, c.joinType, leftKeys);
  }
}

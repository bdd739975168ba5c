/**
 * planner/non-null-columns.ts (which columns a plan shows never NULL) and not-in-join.ts's reading of
 * NOT IN conditions: items with NULL tests on either side, the tests of never-NULL columns dropped,
 * the one-item and the multi-item NULL-aware plans, and conditions that are not NOT IN's.
 */
import { describe, expect, it } from 'vitest';
import { filter, join, project, scan } from '../../src/relnode/rel.js';
import { andAll, call, inputRef, literal, type RexNode } from '../../src/relnode/rex.js';
import { field, schemaOf } from '../../src/relnode/types.js';
import { nonNullColumns } from '../../src/planner/non-null-columns.js';
import { notInItems, planNotIn } from '../../src/planner/not-in-join.js';

const table = (id: string, notNull: readonly boolean[]) => scan({ kind: 'Scan', name: id, id, version: 1, handle: {}, schema: schemaOf(notNull.map((nn, i) => field(`${id}${i}`, 'INTEGER', !nn))) } as unknown as Parameters<typeof scan>[0]);
const ref = (i: number): RexNode => inputRef(i, 'INTEGER');
const isNull = (e: RexNode): RexNode => call('is_null', [e], 'BOOLEAN');
const eq = (a: RexNode, b: RexNode): RexNode => call('eq', [a, b], 'BOOLEAN');
const or = (...xs: RexNode[]): RexNode => call('or', xs, 'BOOLEAN');

describe('nonNullColumns', () => {
  const t = table('t', [true, false, false, false]);
  const u = table('u', [false, false]);

  it('NOT NULL columns, and the columns a filter rejects NULLs of', () => {
    expect([...nonNullColumns(t)]).toEqual([0]);
    const f = filter(t, andAll([call('is_not_null', [ref(1)], 'BOOLEAN'), call('gt', [ref(2), literal(3, 'INTEGER')], 'BOOLEAN'), or(isNull(ref(3)), eq(ref(3), ref(0)))]));
    expect([...nonNullColumns(f)].sort()).toEqual([0, 1, 2]);
    // Through strict arithmetic (x + 1 < y rejects NULLs of both), not through coalesce.
    const g = filter(t, andAll([call('lt', [call('plus', [ref(1), literal(1, 'INTEGER')], 'INTEGER'), ref(2)], 'BOOLEAN'), call('gt', [call('coalesce', [ref(3), literal(0, 'INTEGER')], 'INTEGER'), literal(1, 'INTEGER')], 'BOOLEAN')]));
    expect([...nonNullColumns(g)].sort()).toEqual([0, 1, 2]);
  });

  it('through projections, and the equi-keys of an inner join; an outer join pads its other side', () => {
    const p = project(filter(t, call('is_not_null', [ref(2)], 'BOOLEAN')), [ref(2), call('plus', [ref(2), literal(1, 'INTEGER')], 'INTEGER'), ref(1)], ['a', 'b', 'c']);
    expect([...nonNullColumns(p)]).toEqual([0]);
    const inner = join(t, u, 'inner', eq(ref(1), ref(4)));
    expect([...nonNullColumns(inner)].sort()).toEqual([0, 1, 4]);
    expect([...nonNullColumns(join(t, u, 'left', eq(ref(1), ref(4))))]).toEqual([0]);
    expect([...nonNullColumns(join(u, t, 'left', eq(ref(0), ref(3))))]).toEqual([]);
    expect([...nonNullColumns(join(t, u, 'full', eq(ref(1), ref(4))))]).toEqual([]);
  });
});

describe('NOT IN conditions', () => {
  // left: 2 columns, right: 2 columns (ordinals 2, 3)
  const item = (l: number, r: number, lw: boolean, rw: boolean): RexNode => {
    const e = eq(ref(l), ref(r));
    const tests = [...(lw ? [isNull(ref(l))] : []), ...(rw ? [isNull(ref(r))] : [])];
    return tests.length === 0 ? e : or(e, ...tests);
  };
  const no = (): boolean => false;
  const yes = (): boolean => true;

  it('reads items with NULL tests on either side, and plain equalities among them', () => {
    const cond = andAll([item(0, 2, true, true), item(1, 3, false, true)]);
    expect(notInItems(cond, 2)).toEqual([
      { left: 0, right: 0, kind: 'i32', leftWild: true, rightWild: true },
      { left: 1, right: 1, kind: 'i32', leftWild: false, rightWild: true },
    ]);
    expect(notInItems(andAll([item(0, 2, false, false), item(1, 3, false, false)]), 2)).toBeUndefined();
    // A conjunct that is no item (a range) is not NOT IN's condition.
    expect(notInItems(andAll([item(0, 2, true, true), call('lt', [ref(1), ref(3)], 'BOOLEAN')]), 2)).toBeUndefined();
    // A NULL test of a column the equality does not compare.
    expect(notInItems(or(eq(ref(0), ref(2)), isNull(ref(1))), 2)).toBeUndefined();
  });

  it('plans: one item on both sides, several items, never-NULL columns dropping their tests', () => {
    const two = andAll([item(0, 2, true, true), item(1, 3, true, true)]);
    expect(planNotIn(item(0, 2, true, true), 2, no, no)?.kind).toBe('single');
    expect(planNotIn(item(0, 2, true, false), 2, no, no)?.kind).toBe('multi');
    // The untested side never NULL: the one-key mode is exact.
    expect(planNotIn(item(0, 2, true, false), 2, no, yes)?.kind).toBe('single');
    expect(planNotIn(two, 2, no, no)?.kind).toBe('multi');
    expect(planNotIn(two, 2, yes, yes)?.kind).toBe('keys');
    const half = planNotIn(two, 2, (c) => c === 0, yes);
    expect(half?.kind === 'multi' && half.items.map((i) => [i.leftWild, i.rightWild])).toEqual([[false, false], [true, false]]);
    const nine = andAll(Array.from({ length: 9 }, () => item(0, 2, true, true)));
    expect(planNotIn(nine, 2, no, no)).toEqual({ kind: 'nested', reason: 'NOT IN over 9 items, the NULL-aware hash join takes at most 8' });
  });
});

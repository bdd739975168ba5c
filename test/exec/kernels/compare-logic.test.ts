import { describe, expect, it } from 'vitest';
import { cast } from '../../../src/relnode/rex.js';
import { evalExpr, fn, lit, ref, type ColSpec } from './kernel-helpers.js';

const OPS = ['eq', 'ne', 'lt', 'le', 'gt', 'ge'] as const;
/** Expected results of each op for a pair list [a, b] (null if either is null). */
function expected(pairs: [unknown, unknown][], cmp: (a: never, b: never) => number): Record<string, (boolean | null)[]> {
  const r: Record<string, (boolean | null)[]> = {};
  for (const op of OPS) {
    r[op] = pairs.map(([a, b]) => {
      if (a === null || b === null) return null;
      const c = cmp(a as never, b as never);
      return { eq: c === 0, ne: c !== 0, lt: c < 0, le: c <= 0, gt: c > 0, ge: c >= 0 }[op];
    });
  }
  return r;
}

describe('comparisons', () => {
  it.each([0, 3])('numeric column vs column and literal (slice %i)', (slice) => {
    const a = [1, 2, 3, null, -1.5], b = [2, 2, 1, 1, null];
    const cols: ColSpec[] = [{ type: 'DOUBLE', values: a }, { type: 'DOUBLE', values: b }];
    const want = expected(a.map((x, i) => [x, b[i]]), (x: number, y: number) => x - y);
    for (const op of OPS) expect(evalExpr(fn(op, [ref(0, 'DOUBLE'), ref(1, 'DOUBLE')], 'BOOLEAN'), cols, slice)).toEqual(want[op]);
    const wantLit = expected(a.map((x) => [x, 2]), (x: number, y: number) => x - y);
    for (const op of OPS) expect(evalExpr(fn(op, [ref(0, 'DOUBLE'), lit(2, 'DOUBLE')], 'BOOLEAN'), cols, slice)).toEqual(wantLit[op]);
    // Literal on the left is the flipped comparison.
    expect(evalExpr(fn('lt', [lit(2, 'DOUBLE'), ref(0, 'DOUBLE')], 'BOOLEAN'), cols, slice)).toEqual(wantLit.gt);
  });

  it('INTEGER, DATE and TIMESTAMP (incl. DATE cast to TIMESTAMP)', () => {
    expect(evalExpr(fn('ge', [ref(0, 'INTEGER'), lit(5, 'INTEGER')], 'BOOLEAN'), [{ type: 'INTEGER', values: [4, 5, 6, null] }])).toEqual([false, true, true, null]);
    expect(evalExpr(fn('lt', [ref(0, 'DATE'), lit(8766, 'DATE')], 'BOOLEAN'), [{ type: 'DATE', values: [8765, 8766, null] }], 2)).toEqual([true, false, null]);
    const ts: ColSpec = { type: 'TIMESTAMP', values: [86_400_000, 86_400_001, null] };
    expect(evalExpr(fn('eq', [ref(0, 'TIMESTAMP'), cast(lit(1, 'DATE'), 'TIMESTAMP')], 'BOOLEAN'), [ts])).toEqual([true, false, null]);
    expect(evalExpr(fn('gt', [ref(0, 'TIMESTAMP'), lit(86_400_000, 'TIMESTAMP')], 'BOOLEAN'), [ts], 5)).toEqual([false, true, null]);
  });

  it('BIGINT, exact beyond 2^53', () => {
    const big = 2n ** 53n;
    const cols: ColSpec[] = [{ type: 'BIGINT', values: [big, big + 1n, null, -5n] }, { type: 'BIGINT', values: [big + 1n, big + 1n, 1n, -6n] }];
    expect(evalExpr(fn('lt', [ref(0, 'BIGINT'), ref(1, 'BIGINT')], 'BOOLEAN'), cols)).toEqual([true, false, null, false]);
    expect(evalExpr(fn('eq', [ref(0, 'BIGINT'), lit(big + 1n, 'BIGINT')], 'BOOLEAN'), cols)).toEqual([false, true, null, false]);
    expect(evalExpr(fn('gt', [ref(0, 'BIGINT'), lit(-6n, 'BIGINT')], 'BOOLEAN'), [{ type: 'BIGINT', values: [-5n, -6n] }])).toEqual([true, false]);
  });

  it.each([false, true])('VARCHAR byte-wise (UTF-8 code point order), dictionary=%s', (dict) => {
    const a = ['abc', 'a', 'B', null, 'é', '', '😀'];
    const b = ['abd', 'ab', 'a', 'x', 'z', 'a', '\uffff'];
    const cols: ColSpec[] = [{ type: 'VARCHAR', values: a, dict }, { type: 'VARCHAR', values: b, dict }];
    const bytes = (s: string): number[] => [...Buffer.from(s, 'utf8')];
    const cmpBytes = (x: string, y: string): number => { const p = bytes(x), q = bytes(y); for (let i = 0; i < Math.min(p.length, q.length); i++) if (p[i] !== q[i]) return p[i]! - q[i]!; return p.length - q.length; };
    const want = expected(a.map((x, i) => [x, b[i]]), cmpBytes);
    for (const op of OPS) {
      expect(evalExpr(fn(op, [ref(0, 'VARCHAR'), ref(1, 'VARCHAR')], 'BOOLEAN'), cols)).toEqual(want[op]);
      expect(evalExpr(fn(op, [ref(0, 'VARCHAR'), ref(1, 'VARCHAR')], 'BOOLEAN'), cols, 3)).toEqual(want[op]);
    }
    const wantLit = expected(a.map((x) => [x, 'a']), cmpBytes);
    for (const op of OPS) expect(evalExpr(fn(op, [ref(0, 'VARCHAR'), lit('a', 'VARCHAR')], 'BOOLEAN'), cols, 2)).toEqual(wantLit[op]);
    expect(evalExpr(fn('gt', [lit('a', 'VARCHAR'), ref(0, 'VARCHAR')], 'BOOLEAN'), cols)).toEqual(wantLit.lt);
  });

  it('BOOLEAN (FALSE < TRUE)', () => {
    const cols: ColSpec[] = [{ type: 'BOOLEAN', values: [false, false, true, true, null] }, { type: 'BOOLEAN', values: [false, true, false, true, true] }];
    expect(evalExpr(fn('lt', [ref(0, 'BOOLEAN'), ref(1, 'BOOLEAN')], 'BOOLEAN'), cols, 3)).toEqual([false, true, false, false, null]);
    expect(evalExpr(fn('eq', [ref(0, 'BOOLEAN'), lit(true, 'BOOLEAN')], 'BOOLEAN'), cols)).toEqual([false, false, true, true, null]);
  });

  it('a NULL literal operand gives NULL', () => {
    expect(evalExpr(fn('eq', [ref(0, 'INTEGER'), lit(null, 'INTEGER')], 'BOOLEAN'), [{ type: 'INTEGER', values: [1, 2] }])).toEqual([null, null]);
  });
});

describe('three-valued logic', () => {
  // All 9 combinations of TRUE, FALSE, NULL.
  const T = true, F = false, N = null;
  const a = [T, T, T, F, F, F, N, N, N];
  const b = [T, F, N, T, F, N, T, F, N];
  const cols: ColSpec[] = [{ type: 'BOOLEAN', values: a }, { type: 'BOOLEAN', values: b }];
  const x = ref(0, 'BOOLEAN'), y = ref(1, 'BOOLEAN');
  it.each([0, 3, 8])('AND, OR, NOT truth tables (slice %i)', (slice) => {
    expect(evalExpr(fn('and', [x, y], 'BOOLEAN'), cols, slice)).toEqual([T, F, N, F, F, F, N, F, N]);
    expect(evalExpr(fn('or', [x, y], 'BOOLEAN'), cols, slice)).toEqual([T, T, T, T, F, N, T, N, N]);
    expect(evalExpr(fn('not', [x], 'BOOLEAN'), cols, slice)).toEqual([F, F, F, T, T, T, N, N, N]);
  });
  it('n-ary AND / OR with literals', () => {
    expect(evalExpr(fn('and', [x, y, lit(null, 'BOOLEAN')], 'BOOLEAN'), cols)).toEqual([N, F, N, F, F, F, N, F, N]);
    expect(evalExpr(fn('or', [x, y, lit(true, 'BOOLEAN')], 'BOOLEAN'), cols)).toEqual([T, T, T, T, T, T, T, T, T]);
  });
  it('IS NULL / IS NOT NULL', () => {
    expect(evalExpr(fn('is_null', [x], 'BOOLEAN'), cols, 2)).toEqual([F, F, F, F, F, F, T, T, T]);
    expect(evalExpr(fn('is_not_null', [x], 'BOOLEAN'), cols)).toEqual([T, T, T, T, T, T, F, F, F]);
    expect(evalExpr(fn('is_null', [ref(0, 'VARCHAR')], 'BOOLEAN'), [{ type: 'VARCHAR', values: ['a', null], dict: true }])).toEqual([F, T]);
    expect(evalExpr(fn('is_null', [lit(null, 'NULL')], 'BOOLEAN'), cols)).toEqual(a.map(() => T));
    expect(evalExpr(fn('is_not_null', [ref(0, 'INTEGER')], 'BOOLEAN'), [{ type: 'INTEGER', values: [1, 2] }])).toEqual([T, T]);
  });
  it('AND does not raise errors from rows an earlier operand made FALSE', () => {
    // (x > 0) AND (1000000 * x > 0): the overflowing row has x <= 0.
    const i0 = ref(0, 'INTEGER');
    const e = fn('and', [fn('gt', [i0, lit(0, 'INTEGER')], 'BOOLEAN'), fn('gt', [fn('times', [lit(1000000, 'INTEGER'), i0], 'INTEGER'), lit(0, 'INTEGER')], 'BOOLEAN')], 'BOOLEAN');
    expect(evalExpr(e, [{ type: 'INTEGER', values: [5, -100000, null] }])).toEqual([T, F, N]);
    expect(() => evalExpr(e, [{ type: 'INTEGER', values: [100000] }])).toThrow(/integer overflow/);
  });
});

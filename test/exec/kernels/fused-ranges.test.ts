/**
 * Range tests in fused predicate steps (exec/kernels/fused-ranges.ts): which conjuncts become one
 * unsigned comparison, and that predicates with them select exactly the rows a plain evaluation
 * selects — random INTEGER and DATE columns with NULLs, bounds at the int32 extremes, empty and
 * one-value ranges, flipped literals, several bounds on one column, ranges on two columns, with
 * other conjuncts and under a selection (sliced batches).
 */
import { describe, expect, it } from 'vitest';
import { andAll, type Call, type RexNode } from '../../../src/relnode/rex.js';
import type { SqlType } from '../../../src/relnode/types.js';
import { intRanges } from '../../../src/exec/kernels/fused-ranges.js';
import { fn, lit, ref, select, type ColSpec } from './kernel-helpers.js';

const MIN = -2147483648;
const MAX = 2147483647;
const cmp = (op: string, a: RexNode, b: RexNode): Call => fn(op, [a, b], 'BOOLEAN') as Call;

describe('intRanges', () => {
  const x = ref(0, 'INTEGER');
  const d = ref(1, 'DATE');
  it('pairs a lower and an upper literal bound of one INTEGER or DATE column, whichever side the literal is on', () => {
    const lo = cmp('ge', x, lit(5, 'INTEGER'));
    const hi = cmp('gt', lit(9, 'INTEGER'), x); // 9 > x: x < 9
    const other = cmp('lt', d, lit(100, 'DATE'));
    const r = intRanges([lo, other, hi]);
    expect(r.ranges.map(({ lo, hi, from }) => ({ lo, hi, n: from.length }))).toEqual([{ lo: 5, hi: 9, n: 2 }]);
    expect(r.rest).toEqual([other]);
    const dd = intRanges([cmp('gt', d, lit(10, 'DATE')), cmp('le', d, lit(20, 'DATE')), cmp('ge', d, lit(12, 'DATE'))]);
    expect(dd.ranges.map(({ lo, hi }) => [lo, hi])).toEqual([[12, 21]]);
    expect(dd.rest).toEqual([]);
  });
  it('leaves single bounds, DOUBLE columns, column-vs-column and out-of-int32 bounds alone', () => {
    const y = ref(2, 'DOUBLE');
    const cases: Call[][] = [
      [cmp('ge', x, lit(5, 'INTEGER'))],
      [cmp('ge', y, lit(1, 'DOUBLE')), cmp('lt', y, lit(2, 'DOUBLE'))],
      [cmp('ge', x, ref(3, 'INTEGER')), cmp('lt', x, lit(2, 'INTEGER'))],
      [cmp('ge', x, lit(-3e9, 'INTEGER')), cmp('lt', x, lit(2, 'INTEGER'))],
      [cmp('gt', x, lit(1, 'INTEGER')), cmp('le', x, lit(MAX + 1, 'INTEGER'))],
      [cmp('eq', x, lit(1, 'INTEGER')), cmp('ne', x, lit(2, 'INTEGER'))],
    ];
    for (const c of cases) expect(intRanges(c)).toEqual({ ranges: [], rest: c });
    // x <= MAX is x < 2^31: still a range.
    expect(intRanges([cmp('ge', x, lit(MIN, 'INTEGER')), cmp('le', x, lit(MAX, 'INTEGER'))]).ranges.map(({ lo, hi }) => [lo, hi])).toEqual([[MIN, MAX + 1]]);
  });
});

/** A deterministic pseudo-random generator (tests must be reproducible). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s / 4294967296; };
}

describe('predicates with fused ranges', () => {
  const n = 3000;
  const r = rng(7);
  const pick = (): number | null => {
    const u = r();
    if (u < 0.05) return null;
    if (u < 0.08) return [MIN, MAX, MIN + 1, MAX - 1, 0, -1][Math.floor(r() * 6)]!;
    return Math.floor(r() * 2000) - 1000;
  };
  const a = Array.from({ length: n }, pick);
  const b = Array.from({ length: n }, pick);
  const cols = (t: SqlType): ColSpec[] => [{ type: t, values: a }, { type: t, values: b }];
  const ops: Record<string, (u: number, v: number) => boolean> = { ge: (u, v) => u >= v, gt: (u, v) => u > v, le: (u, v) => u <= v, lt: (u, v) => u < v, eq: (u, v) => u === v };
  /** Rows where every (column, op, literal) holds, NULLs failing (a sliced batch has the same rows at an offset). */
  const want = (conds: [number, string, number][]): number[] => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) if (conds.every(([c, op, v]) => { const x = (c === 0 ? a : b)[i]; return x !== null && x !== undefined && ops[op]!(x, v); })) out.push(i);
    return out;
  };
  const bounds = [MIN, MIN + 1, -1000, -1, 0, 1, 7, 999, MAX - 1, MAX];
  for (const t of ['INTEGER', 'DATE'] as const) {
    it(`${t}: every pair of bounds (empty, one-value and full ranges), plain and sliced`, () => {
      const c0 = ref(0, t);
      for (const lo of bounds) for (const hi of bounds) for (const [lop, hop] of [['ge', 'lt'], ['gt', 'le'], ['ge', 'le']] as const) {
        for (const slice of [0, 5]) {
          const e = andAll([cmp(lop, c0, lit(lo, t)), cmp(hop, c0, lit(hi, t))]);
          const got = select(e, cols(t), slice);
          const w = want([[0, lop, lo], [0, hop, hi]]);
          expect(got === null ? Array.from({ length: n }, (_, i) => i) : got).toEqual(w);
        }
      }
    });
  }
  it('two ranges and other conjuncts in one step, flipped literals', () => {
    const c0 = ref(0, 'INTEGER');
    const c1 = ref(1, 'INTEGER');
    const e = andAll([
      cmp('lt', c0, c1), cmp('ge', c0, lit(-500, 'INTEGER')), cmp('gt', lit(600, 'INTEGER'), c1), cmp('ne', c0, lit(3, 'INTEGER')),
      cmp('le', lit(-200, 'INTEGER'), c1), cmp('lt', c0, lit(400, 'INTEGER')),
    ]);
    const got = select(e, cols('INTEGER'), 3)!;
    const w: number[] = [];
    for (let i = 0; i < n; i++) {
      const x = a[i], y = b[i];
      if (x !== null && y !== null && x! < y! && x! >= -500 && 600 > y! && x !== 3 && -200 <= y! && x! < 400) w.push(i);
    }
    expect(w.length).toBeGreaterThan(50);
    expect(got).toEqual(w);
  });
});

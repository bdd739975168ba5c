/**
 * Arrays of one map (exec/packed.ts): what optimized code builds must have the map the interpreter builds.
 * V8's natives syntax (enabled for this process only) checks maps and forces optimization; the control
 * case shows that `Array.prototype.map` itself changes map once optimized, so these tests can fail.
 */
import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { makeData, Int32 } from 'apache-arrow';
import { batchFromColumns } from '../../src/exec/batch.js';
import { packedConcat, packedCopy, packedMap } from '../../src/exec/packed.js';

setFlagsFromString('--allow-natives-syntax');
const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b);') as (a: unknown, b: unknown) => boolean;
const prepare = new Function('f', '%PrepareFunctionForOptimization(f);') as (f: unknown) => void;
const optimizeNext = new Function('f', '%OptimizeFunctionOnNextCall(f);') as (f: unknown) => void;
const PACKED: unknown[] = [{}];

/** What `f` returns from TurboFan code (after feedback from two interpreted calls). */
function optimized<T>(f: (xs: readonly object[]) => T, xs: readonly object[]): T {
  prepare(f);
  f(xs);
  f(xs);
  optimizeNext(f);
  return f(xs);
}

describe('packed arrays', () => {
  const xs = [{ a: 1 }, { a: 2 }, { a: 3 }];

  it('control: Array.prototype.map changes map once its caller is optimized (why packed.ts exists)', () => {
    const viaMap = (ys: readonly object[]): object[] => ys.map((y) => ({ y }));
    expect(sameMap(viaMap(xs), PACKED)).toBe(true);
    expect(sameMap(optimized(viaMap, xs), PACKED)).toBe(false);
  });

  it('packedMap, packedConcat and packedCopy keep one map when optimized', () => {
    const m = (ys: readonly object[]): object[] => packedMap(ys, (y) => ({ y }));
    const c = (ys: readonly object[]): object[] => packedConcat(ys, ys);
    const k = (ys: readonly object[]): object[] => packedCopy(ys);
    for (const f of [m, c, k]) {
      expect(sameMap(f(xs), PACKED)).toBe(true);
      expect(sameMap(optimized(f, xs), PACKED)).toBe(true);
    }
    expect(packedMap(xs, (y, i) => i)).toEqual([0, 1, 2]);
    expect(packedConcat([1], [2, 3])).toEqual([1, 2, 3]);
  });

  it("a batch's children have one map whatever array of columns it was built from", () => {
    const col = makeData({ type: new Int32(), length: 2, nullCount: 0, data: new Int32Array([1, 2]) });
    const holey: typeof col[] = new Array(2);
    holey[0] = col;
    holey[1] = col;
    expect(sameMap(holey, PACKED)).toBe(false);
    const b = batchFromColumns(['x', 'y'], holey, 2);
    expect(sameMap(b.data.children, PACKED)).toBe(true);
    expect(b.getChildAt(1)!.toArray()).toEqual(new Int32Array([1, 2]));
  });
});

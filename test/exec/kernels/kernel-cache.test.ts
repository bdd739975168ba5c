/**
 * The per-isolate cache of generated loops (kernel-cache.ts, fused.ts `generate`): bounded (least
 * recently used out), one compiled loop per text across queries, and keys that differ wherever the
 * code must: leaf types and integer literals change the text, other literal values do not (they are
 * arguments), and a loop shared by two expressions gives each its own answers.
 */
import { describe, expect, it } from 'vitest';
import { call, inputRef, literal, type RexNode } from '../../../src/relnode/rex.js';
import { compileExpr, compilePredicate } from '../../../src/exec/kernels/index.js';
import { GENERATED_LOOP_CAPACITY, GENERATED_LOOPS } from '../../../src/exec/kernels/kernel-cache.js';
import { generate } from '../../../src/exec/kernels/fused.js';
import { makeBatch, valuesOf } from './kernel-helpers.js';

/** The loops `run` generated that were not cached before (the texts, not their order). */
function newLoops(run: () => void): Set<string> {
  const seen = new Set<string>();
  for (const k of GENERATED_LOOPS.keys()) seen.add(k);
  run();
  return new Set([...GENERATED_LOOPS.keys()].filter((k) => !seen.has(k)));
}

describe('the generated-loop cache', () => {
  it('holds at most its capacity, evicting the least recently used loop', () => {
    const loop = (i: number): unknown => generate<() => number>('', `return ${i};`);
    const first = loop(-1);
    for (let i = 0; i < GENERATED_LOOP_CAPACITY; i++) {
      loop(i);
      if (i === GENERATED_LOOP_CAPACITY - 10) expect(loop(-2)).toBe(loop(-2)); // -2 used late: kept
    }
    expect(GENERATED_LOOPS.size).toBe(GENERATED_LOOP_CAPACITY);
    expect(loop(-2)).toBe(loop(-2));
    expect((loop(-2) as () => number)()).toBe(-2);
    // -1 was the least recently used: evicted, so its text compiles a new function.
    expect(loop(-1)).not.toBe(first);
    expect((loop(-1) as () => number)()).toBe(-1);
  });
});

describe('generated loop keys', () => {
  const ints = makeBatch([{ type: 'INTEGER', values: [1, 2, 3, 40] }, { type: 'INTEGER', values: [5, 6, 7, 8] }]);
  const doubles = makeBatch([{ type: 'DOUBLE', values: [1.5, 2, 3, 40] }, { type: 'DOUBLE', values: [5, 6, 7, 8] }]);
  const plusK = (t: 'INTEGER' | 'DOUBLE', k: number): RexNode => call('plus', [call('times', [inputRef(0, t), inputRef(1, t)], t), literal(k, t)], t);

  it('one loop for two queries of the same shape; each keeps its own constants', () => {
    const first = newLoops(() => compileExpr(plusK('DOUBLE', 0.25), doubles.schema)(doubles.batch));
    let a: unknown[] = [];
    let b: unknown[] = [];
    const second = newLoops(() => {
      a = valuesOf(compileExpr(plusK('DOUBLE', 0.25), doubles.schema)(doubles.batch));
      b = valuesOf(compileExpr(plusK('DOUBLE', 100.5), doubles.schema)(doubles.batch));
    });
    expect(second.size).toBe(0); // both reuse the first query's loop (a constant is an argument)
    expect(first.size).toBeLessThanOrEqual(1);
    expect(a).toEqual([7.75, 12.25, 21.25, 320.25]);
    expect(b).toEqual([108, 112.5, 121.5, 420.5]);
  });

  it('different leaf types or integer-ness of a literal make different loops', () => {
    compileExpr(plusK('DOUBLE', 3), doubles.schema)(doubles.batch);
    const ints3 = newLoops(() => {
      expect(valuesOf(compileExpr(plusK('INTEGER', 3), ints.schema)(ints.batch))).toEqual([8, 15, 24, 323]);
    });
    // INTEGER leaves read Int32 arrays and check overflow: never the DOUBLE loop.
    expect([...ints3].length).toBe(1);
    expect([...ints3][0]).toMatch(/I32/);
    const half = newLoops(() => {
      expect(valuesOf(compileExpr(plusK('DOUBLE', 0.5), doubles.schema)(doubles.batch))).toEqual([8, 12.5, 21.5, 320.5]);
    });
    expect(half.size).toBe(0); // 3 as a DOUBLE literal is not hoisted as an int32: the same loop as 0.5
  });

  it('a shared predicate loop filters by each query\'s own bounds', () => {
    const range = (lo: number, hi: number): RexNode => call('and', [
      call('ge', [inputRef(0, 'DOUBLE'), literal(lo, 'DOUBLE')], 'BOOLEAN'),
      call('lt', [inputRef(0, 'DOUBLE'), literal(hi, 'DOUBLE')], 'BOOLEAN'),
    ], 'BOOLEAN');
    const p1 = compilePredicate(range(1.5, 3), doubles.schema);
    const p2 = compilePredicate(range(2, 100), doubles.schema);
    expect([...(p1(doubles.batch) ?? [])]).toEqual([0, 1]);
    expect([...(p2(doubles.batch) ?? [])]).toEqual([1, 2, 3]);
    expect([...(p1(doubles.batch) ?? [])]).toEqual([0, 1]);
  });
});

/**
 * The per-isolate cache of generated loops (kernel-cache.ts, fused.ts `generate`): bounded (least
 * recently used out), one compiled loop per text across queries, and keys that differ wherever the
 * code must: leaf types and integer literals change the text, other literal values do not (they are
 * arguments), and a loop shared by two expressions gives each its own answers.
 */
import { describe, expect, it } from 'vitest';
import { call, inputRef, literal, type RexNode } from '../../../src/relnode/rex.js';
import { compileExpr, compilePredicate } from '../../../src/exec/kernels/index.js';
import { BoundedCache } from '../../../src/exec/kernels/kernel-cache.js';
import { GENERATED_LOOPS } from '../../../src/exec/kernels/fused.js';
import { makeBatch, valuesOf } from './kernel-helpers.js';

/** The loops `run` generated that were not cached before (the texts, not their order). */
function newLoops(run: () => void): Set<string> {
  const seen = new Set<string>();
  const before = (GENERATED_LOOPS as unknown as { entries: Map<string, unknown> }).entries;
  for (const k of before.keys()) seen.add(k);
  run();
  return new Set([...before.keys()].filter((k) => !seen.has(k)));
}

describe('BoundedCache', () => {
  it('holds at most its capacity, evicting the least recently used', () => {
    const c = new BoundedCache<string, number>(3);
    let made = 0;
    const get = (k: string): number => c.getOrCreate(k, () => ++made);
    expect([get('a'), get('b'), get('c')]).toEqual([1, 2, 3]);
    expect(get('a')).toBe(1); // a is now the most recent: b is the oldest
    expect(get('d')).toBe(4);
    expect(c.size).toBe(3);
    expect(c.has('b')).toBe(false);
    expect([c.has('a'), c.has('c'), c.has('d')]).toEqual([true, true, true]);
    expect(get('b')).toBe(5); // made again after eviction
    expect(c.size).toBe(3);
    expect(c.has('c')).toBe(false);
  });

  it('stays bounded over many distinct keys', () => {
    const c = new BoundedCache<number, number>(16);
    for (let i = 0; i < 1000; i++) c.getOrCreate(i, () => i);
    expect(c.size).toBe(16);
    expect(c.has(999) && c.has(984) && !c.has(983)).toBe(true);
  });

  it('rejects a capacity below 1', () => {
    expect(() => new BoundedCache(0)).toThrow(/positive integer/);
  });

  it('the generated-loop cache is bounded', () => {
    expect(GENERATED_LOOPS.capacity).toBeGreaterThan(0);
    expect(GENERATED_LOOPS.size).toBeLessThanOrEqual(GENERATED_LOOPS.capacity);
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

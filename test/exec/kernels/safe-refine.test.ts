/**
 * compileSafeRefine (kernels/predicate.ts): the conjuncts that cannot raise, as one step that
 * narrows a selection in place — what a runtime-filtered scan applies before its one copy.
 */
import { describe, expect, it } from 'vitest';
import { compileSafeRefine } from '../../../src/exec/kernels/index.js';
import { fn, lit, makeBatch, ref, type ColSpec } from './kernel-helpers.js';

const cols = (dict = false): ColSpec[] => [
  { type: 'INTEGER', values: [1, 5, null, 7, 9, 3, 2_000_000_000] },
  { type: 'DATE', values: [10, 20, 30, null, 50, 60, 70] },
  { type: 'VARCHAR', values: ['apple', 'banana', 'cherry', 'apple', null, 'date', 'apple'], dict },
];
const i0 = ref(0, 'INTEGER'), d1 = ref(1, 'DATE'), s2 = ref(2, 'VARCHAR');

function refine(cs: ReturnType<typeof fn>[], sel: number[], dict = false, slice = 0): { out: number[]; inPlace: boolean } {
  const { batch, schema } = makeBatch(cols(dict), slice);
  const step = compileSafeRefine(cs, schema);
  if (step === undefined) throw new Error('no step');
  const s = Int32Array.from(sel);
  const r = step(batch, s);
  return { out: Array.from(r), inPlace: r.buffer === s.buffer };
}

describe('compileSafeRefine', () => {
  it.each([[false, 0], [true, 0], [false, 4], [true, 4]])('narrows the given rows only, dropping NULL and FALSE (dictionary=%s, columns sliced at %i)', (dict, slice) => {
    const all = [0, 1, 2, 3, 4, 5, 6];
    const gt = fn('gt', [i0, lit(2, 'INTEGER')], 'BOOLEAN');
    const before = fn('lt', [d1, lit(55, 'DATE')], 'BOOLEAN');
    const apple = fn('eq', [s2, lit('apple', 'VARCHAR')], 'BOOLEAN');
    expect(refine([gt], all, dict as boolean, slice as number)).toEqual({ out: [1, 3, 4, 5, 6], inPlace: true });
    expect(refine([gt, before], all, dict as boolean, slice as number).out).toEqual([1, 4]);
    expect(refine([gt, apple], [0, 1, 3, 6], dict as boolean, slice as number).out).toEqual([3, 6]);
    expect(refine([fn('like', [s2, lit('%an%', 'VARCHAR')], 'BOOLEAN')], [1, 2, 4], dict as boolean, slice as number).out).toEqual([1]);
    expect(refine([fn('in', [s2, lit('date', 'VARCHAR'), lit('cherry', 'VARCHAR')], 'BOOLEAN')], [2, 4, 5, 6], dict as boolean, slice as number).out).toEqual([2, 5]);
    expect(refine([gt], [0, 2], dict as boolean, slice as number).out).toEqual([]);
  });

  it('leaves out conjuncts that may raise or are not simple, and compiles nothing when none is left', () => {
    const { schema } = makeBatch(cols());
    // INTEGER arithmetic may overflow (row 6): it must stay in the Filter, evaluated guarded.
    const overflow = fn('gt', [fn('times', [i0, lit(10, 'INTEGER')], 'INTEGER'), lit(20, 'INTEGER')], 'BOOLEAN');
    const or = fn('or', [fn('gt', [i0, lit(8, 'INTEGER')], 'BOOLEAN'), fn('eq', [s2, lit('date', 'VARCHAR')], 'BOOLEAN')], 'BOOLEAN');
    expect(compileSafeRefine([overflow, or], schema)).toBeUndefined();
    expect(compileSafeRefine([], schema)).toBeUndefined();
    // With a safe conjunct beside them, only it applies: row 6 (overflowing) is kept, not raised on.
    expect(refine([overflow, fn('ge', [d1, lit(20, 'DATE')], 'BOOLEAN')], [0, 1, 2, 3, 6]).out).toEqual([1, 2, 6]);
  });
});

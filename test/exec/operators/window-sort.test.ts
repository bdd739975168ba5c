import { describe, expect, it } from 'vitest';
import { windowPermutation } from '../../../src/exec/operators/window-sort.js';
import { sortPermutation } from '../../../src/exec/operators/sort-keys.js';
import type { SortKey } from '../../../src/relnode/rel.js';
import { Rng } from '../../diff/random/prng.js';
import { column } from '../helpers/fake-context.js';

/** Packed-key radix sorting gives exactly the comparator sort's permutation (both are stable). */
describe('window sort', () => {
  const r = new Rng(5);
  const n = 3000;
  const a = column('INTEGER', Array.from({ length: n }, () => (r.chance(0.1) ? null : r.int(-50, 50))));
  const b = column('INTEGER', Array.from({ length: n }, () => (r.chance(0.1) ? null : r.int(0, 9))));
  const s = column('VARCHAR', Array.from({ length: n }, () => (r.chance(0.1) ? null : r.pick(['x', 'y', 'zz', '']))));
  const d = column('DOUBLE', Array.from({ length: n }, () => r.int(0, 9) / 2));
  for (const desc of [false, true]) {
    for (const nullsFirst of [false, true]) {
      it(`packs integer and string keys (desc ${desc}, nulls first ${nullsFirst})`, () => {
        const keys: SortKey[] = [{ index: 0, desc: false, nullsFirst: false }, { index: 1, desc, nullsFirst }, { index: 2, desc: !desc, nullsFirst }];
        const cols = [a, b, s];
        expect(Array.from(windowPermutation(keys, cols, n)!)).toEqual(Array.from(sortPermutation(keys, cols, n)));
      });
    }
  }
  it('falls back to the comparator sort for fractional keys', () => {
    const keys: SortKey[] = [{ index: 0, desc: false, nullsFirst: false }, { index: 1, desc: true, nullsFirst: false }];
    expect(Array.from(windowPermutation(keys, [a, d], n)!)).toEqual(Array.from(sortPermutation(keys, [a, d], n)));
  });

  it('finds input already in key order (no permutation)', () => {
    const m = 2000;
    const k1 = column('INTEGER', Array.from({ length: m }, (_, i) => Math.floor(i / 4)));
    const k2 = column('INTEGER', Array.from({ length: m }, (_, i) => i % 4));
    const keys: SortKey[] = [{ index: 0, desc: false, nullsFirst: false }, { index: 1, desc: false, nullsFirst: false }];
    expect(windowPermutation(keys, [k1, k2], m)).toBeNull();
    expect(windowPermutation([keys[0]!, { index: 1, desc: true, nullsFirst: false }], [k1, k2], m)).not.toBeNull();
  });
});

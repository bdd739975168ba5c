import { describe, expect, it } from 'vitest';
import { andAll, cast } from '../../../src/relnode/rex.js';
import { compilePredicate } from '../../../src/exec/kernels/index.js';
import { fn, lit, makeBatch, ref, select, type ColSpec } from './kernel-helpers.js';

const i0 = ref(0, 'INTEGER'), d1 = ref(1, 'DOUBLE'), s2 = ref(2, 'VARCHAR');
const cols = (dict = false): ColSpec[] => [
  { type: 'INTEGER', values: [1, 5, null, 7, 9, 3] },
  { type: 'DOUBLE', values: [0.5, 0.06, 0.07, null, 0.05, 0.08] },
  { type: 'VARCHAR', values: ['apple', 'banana', 'cherry', 'apple', null, 'date'], dict },
];
const cmp = (op: string, a: ReturnType<typeof ref>, v: number, t: 'INTEGER' | 'DOUBLE') => fn(op, [a, lit(v, t)], 'BOOLEAN');

describe('compilePredicate', () => {
  it('returns null when every row passes and an empty selection when none do', () => {
    expect(select(lit(true, 'BOOLEAN'), cols())).toBeNull();
    expect(select(cmp('gt', ref(0, 'DOUBLE'), 0, 'DOUBLE'), [{ type: 'DOUBLE', values: [1, 2] }])).toBeNull();
    expect(select(lit(false, 'BOOLEAN'), cols())).toEqual([]);
    expect(select(lit(null, 'BOOLEAN'), cols())).toEqual([]);
    expect(select(cmp('gt', i0, 100, 'INTEGER'), cols())).toEqual([]);
  });
  it.each([[false, 0], [true, 0], [false, 5], [true, 5]])('drops NULL and FALSE rows (dictionary=%s, slice %i)', (dict, slice) => {
    const c = cols(dict as boolean);
    expect(select(cmp('ge', i0, 5, 'INTEGER'), c, slice as number)).toEqual([1, 3, 4]);
    // A fused range (BETWEEN-like) on one column and a comparison on another.
    const q6 = andAll([cmp('ge', d1, 0.05, 'DOUBLE'), cmp('le', d1, 0.07, 'DOUBLE'), cmp('lt', i0, 9, 'INTEGER')]);
    expect(select(q6, c, slice as number)).toEqual([1]);
    // Mixed: a string conjunct after the fused ones, and LIKE / IN / NOT.
    expect(select(andAll([cmp('gt', i0, 0, 'INTEGER'), fn('eq', [s2, lit('apple', 'VARCHAR')], 'BOOLEAN')]), c, slice as number)).toEqual([0, 3]);
    expect(select(fn('like', [s2, lit('%an%', 'VARCHAR')], 'BOOLEAN'), c, slice as number)).toEqual([1]);
    expect(select(fn('not', [fn('like', [s2, lit('a%', 'VARCHAR')], 'BOOLEAN')], 'BOOLEAN'), c, slice as number)).toEqual([1, 2, 5]);
    expect(select(fn('in', [s2, lit('date', 'VARCHAR'), lit('cherry', 'VARCHAR')], 'BOOLEAN'), c, slice as number)).toEqual([2, 5]);
    expect(select(fn('is_null', [i0], 'BOOLEAN'), c, slice as number)).toEqual([2]);
  });
  it('OR and other general conditions', () => {
    const e = fn('or', [cmp('lt', i0, 3, 'INTEGER'), fn('eq', [s2, lit('date', 'VARCHAR')], 'BOOLEAN')], 'BOOLEAN');
    expect(select(e, cols())).toEqual([0, 5]);
    expect(select(ref(0, 'BOOLEAN'), [{ type: 'BOOLEAN', values: [true, null, false, true] }], 3)).toEqual([0, 3]);
    expect(select(fn('not', [ref(0, 'BOOLEAN')], 'BOOLEAN'), [{ type: 'BOOLEAN', values: [true, null, false] }])).toEqual([2]);
  });
  it('fused comparisons over arithmetic, column vs column, DATE vs TIMESTAMP', () => {
    const c: ColSpec[] = [{ type: 'INTEGER', values: [1, 2, 3, 4] }, { type: 'INTEGER', values: [4, 3, 2, null] }];
    expect(select(fn('gt', [fn('times', [ref(0, 'INTEGER'), lit(2, 'INTEGER')], 'INTEGER'), ref(1, 'INTEGER')], 'BOOLEAN'), c)).toEqual([1, 2]);
    expect(select(fn('ne', [ref(0, 'INTEGER'), ref(1, 'INTEGER')], 'BOOLEAN'), c, 2)).toEqual([0, 1, 2]);
    const t: ColSpec[] = [{ type: 'DATE', values: [0, 1, 2] }, { type: 'TIMESTAMP', values: [0, 86_400_001, 1] }];
    expect(select(fn('lt', [cast(ref(0, 'DATE'), 'TIMESTAMP'), ref(1, 'TIMESTAMP')], 'BOOLEAN'), t)).toEqual([1]);
    expect(select(fn('gt', [fn('divide', [cast(ref(0, 'INTEGER'), 'DOUBLE'), cast(ref(1, 'INTEGER'), 'DOUBLE')], 'DOUBLE'), lit(0.5, 'DOUBLE')], 'BOOLEAN'), [{ type: 'INTEGER', values: [1, 3, 5] }, { type: 'INTEGER', values: [0, 2, 20] }])).toEqual([1]);
  });
  it('BIGINT and string column comparisons', () => {
    const c: ColSpec[] = [{ type: 'BIGINT', values: [1n, 2n ** 60n, null] }, { type: 'VARCHAR', values: ['a', 'b', 'c'] }, { type: 'VARCHAR', values: ['a', 'a', 'c'], dict: true }];
    expect(select(fn('gt', [ref(0, 'BIGINT'), lit(1n, 'BIGINT')], 'BOOLEAN'), c)).toEqual([1]);
    expect(select(fn('eq', [ref(1, 'VARCHAR'), ref(2, 'VARCHAR')], 'BOOLEAN'), c)).toEqual([0, 2]);
  });
  it('a later conjunct raises no error for rows an earlier one removed', () => {
    const s = ref(0, 'VARCHAR');
    // s <> 'x' AND CAST(s AS INTEGER) > 1: 'x' cannot be cast, but its row is already gone.
    const e = andAll([fn('ne', [s, lit('x', 'VARCHAR')], 'BOOLEAN'), fn('gt', [cast(s, 'INTEGER'), lit(1, 'INTEGER')], 'BOOLEAN')]);
    expect(select(e, [{ type: 'VARCHAR', values: ['x', '5', '0', null, 'x'] }])).toEqual([1]);
    expect(() => select(e, [{ type: 'VARCHAR', values: ['y', '5'] }])).toThrow(/could not convert string 'y'/);
    // Same with an overflowing multiplication in a fused conjunct.
    const i = ref(0, 'INTEGER');
    const e2 = andAll([fn('eq', [ref(1, 'VARCHAR'), lit('ok', 'VARCHAR')], 'BOOLEAN'), fn('gt', [fn('times', [i, i], 'INTEGER'), lit(5, 'INTEGER')], 'BOOLEAN')]);
    expect(select(e2, [{ type: 'INTEGER', values: [3, 1000000, 1] }, { type: 'VARCHAR', values: ['ok', 'no', 'ok'] }])).toEqual([0]);
  });
  it('returns a fresh selection per batch', () => {
    const { batch, schema } = makeBatch([{ type: 'INTEGER', values: [1, 2, 3] }]);
    const p = compilePredicate(cmp('gt', ref(0, 'INTEGER'), 1, 'INTEGER'), schema);
    const a = p(batch)!, b = p(batch)!;
    expect(a).not.toBe(b);
    expect(Array.from(a)).toEqual([1, 2]);
  });
});

describe('compilePredicate with a scratch selection', () => {
  // Row tests (string comparison, dictionary lookup, LIKE) and a general kernel (OR) as the first step
  // write into the caller's scratch instead of a fresh array; each batch's answer is its own.
  const conds = [
    fn('eq', [s2, lit('apple', 'VARCHAR')], 'BOOLEAN'),
    fn('like', [s2, lit('%an%', 'VARCHAR')], 'BOOLEAN'),
    fn('or', [cmp('lt', i0, 3, 'INTEGER'), fn('eq', [s2, lit('date', 'VARCHAR')], 'BOOLEAN')], 'BOOLEAN'),
    andAll([fn('ne', [s2, lit('cherry', 'VARCHAR')], 'BOOLEAN'), cmp('gt', i0, 1, 'INTEGER')]),
  ];
  it.each([false, true])('writes into the scratch and reuses it across batches (dictionary=%s)', (dict) => {
    for (const e of conds) {
      const a = makeBatch(cols(dict));
      const b = makeBatch([
        { type: 'INTEGER', values: [2, 8, 1, null] },
        { type: 'DOUBLE', values: [1, 2, 3, 4] },
        { type: 'VARCHAR', values: ['date', 'banana', 'apple', 'apple'], dict },
      ]);
      const p = compilePredicate(e, a.schema);
      const scratch = new Int32Array(16).fill(-7);
      const ra = p(a.batch, scratch);
      const expectA = p(a.batch);
      expect(ra === null ? null : Array.from(ra)).toEqual(expectA === null ? null : Array.from(expectA));
      if (ra !== null) expect(ra.buffer).toBe(scratch.buffer);
      const rb = p(b.batch, scratch);
      const expectB = p(b.batch);
      expect(rb === null ? null : Array.from(rb)).toEqual(expectB === null ? null : Array.from(expectB));
      // A scratch too small for the batch is not used.
      const small = new Int32Array(2);
      const rs = p(a.batch, small);
      if (rs !== null) expect(rs.buffer).not.toBe(small.buffer);
    }
  });
});

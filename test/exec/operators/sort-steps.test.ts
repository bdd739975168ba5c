/**
 * A full sort's sort phase in bounded steps (sort-steps.ts): an input larger
 * than one run is sorted over several pieces, with the same stable
 * permutation as the one-piece sort, and the sort operator hands it out over
 * several pending steps.
 */
import { describe, expect, it } from 'vitest';
import { makeData, type Data } from 'apache-arrow';
import { SORT_STEP_ROWS, sortSteps } from '../../../src/exec/operators/sort-steps.js';
import { sortPermutation } from '../../../src/exec/operators/sort-keys.js';
import { sort } from '../../../src/exec/operators/sort.js';
import { batchFromColumns, utf8FromStrings } from '../../../src/exec/batch.js';
import type { SortKey } from '../../../src/relnode/rel.js';
import { toArrowType } from '../../../src/relnode/types.js';
import { Harness, schema } from '../helpers/fake-context.js';

const N = 2 * SORT_STEP_ROWS + 7_777;
let seed = 7;
const rnd = (): number => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed / 4294967296; };

function ints(nullEvery: number, range: number): Data {
  const v = Int32Array.from({ length: N }, () => Math.floor(rnd() * range) - (range >> 1));
  const bm = new Uint8Array((N + 7) >> 3);
  let nulls = 0;
  for (let i = 0; i < N; i++) if (nullEvery > 0 && i % nullEvery === 0) nulls++; else bm[i >> 3]! |= 1 << (i & 7);
  return makeData({ type: toArrowType('INTEGER') as never, length: N, nullCount: nulls, nullBitmap: nulls > 0 ? bm : undefined, data: v });
}
function doubles(): Data {
  const v = Float64Array.from({ length: N }, (_, i) => (i % 101 === 0 ? NaN : Math.round(rnd() * 1000) / 10));
  return makeData({ type: toArrowType('DOUBLE') as never, length: N, nullCount: 0, data: v });
}
const strs = (): Data => utf8FromStrings(Array.from({ length: N }, () => `s${Math.floor(rnd() * 500)}`));

function stepped(keys: SortKey[], cols: Data[]): { perm: Int32Array; pieces: number } {
  const g = sortSteps(keys, cols, N);
  let pieces = 1;
  for (let r = g.next(); ; r = g.next(), pieces++) if (r.done) return { perm: r.value, pieces };
}

/** The first index where two sequences differ, or -1 (cheaper than toEqual on 270k items). */
function firstDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return Math.min(a.length, b.length);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return i;
  return -1;
}

const k = (index: number, desc = false, nullsFirst = false): SortKey => ({ index, desc, nullsFirst });

describe('sort in bounded steps', () => {
  const cases: [string, () => Data[], SortKey[]][] = [
    ['one INTEGER key with NULLs (radix runs)', () => [ints(13, 1000)], [k(0)]],
    ['one INTEGER key, descending, NULLs first', () => [ints(7, 50)], [k(0, true, true)]],
    ['one DOUBLE key with NaN', () => [doubles()], [k(0, true)]],
    ['VARCHAR then INTEGER keys (comparator runs)', () => [strs(), ints(0, 1 << 20)], [k(0), k(1, true)]],
  ];
  for (const [name, make, keys] of cases) {
    it(`${name}: several pieces, the one-piece permutation`, () => {
      const cols = make();
      const got = stepped(keys, cols);
      expect(got.pieces).toBeGreaterThan(4);
      expect(firstDiff(got.perm, sortPermutation(keys, cols, N))).toBe(-1);
    });
  }

  it('the sort operator sorts a large input over several pending steps', () => {
    const s = schema('x:INTEGER');
    const col = ints(0, 1 << 30);
    const h = new Harness(sort({ keys: [k(0)] }), s, [s], 65536);
    for (let off = 0; off < N; off += 65536) h.push(0, batchFromColumns(s, [col.slice(off, Math.min(65536, N - off))], Math.min(65536, N - off)));
    const before = h.ctx.steps;
    h.finish();
    const outBatches = Math.ceil(N / 65536);
    expect(h.ctx.steps - before).toBeGreaterThan(outBatches + 3);
    const want = Array.from(col.values as Int32Array).sort((a, b) => a - b);
    const got: number[] = [];
    for (const { batch } of h.ctx.emitted) got.push(...(batch.data.children[0]!.values as Int32Array));
    expect(firstDiff(got, want)).toBe(-1);
  });
});

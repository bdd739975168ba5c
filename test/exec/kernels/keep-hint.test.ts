import { afterEach, describe, expect, it } from 'vitest';
import { andAll } from '../../../src/relnode/rex.js';
import { compilePredicate, compileSafeRefine } from '../../../src/exec/kernels/predicate.js';
import { KeepHint, keepHintTuning } from '../../../src/exec/kernels/keep-hint.js';
import { fn, lit, makeBatch, ref, type ColSpec } from './kernel-helpers.js';

// Branch-free selection loops (keep-hint.ts): taken after a batch that kept 20–90% of its rows. Each test
// runs several batches through one compiled predicate so later batches take the branch-free loop, and
// compares every batch's rows with a plain evaluation of the condition.

let seed = 7;
const rnd = (): number => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff; };
const N = 1000;

afterEach(() => { keepHintTuning.flatLoops = true; });

function expected(values: readonly (number | string | null)[], keep: (v: number | string) => boolean, from?: readonly number[]): number[] {
  const rows = from ?? values.map((_, i) => i);
  return rows.filter((i) => values[i] !== null && keep(values[i]!));
}

describe('KeepHint', () => {
  it('takes the branch-free loop only for a mid share of kept rows (20–90%), and not on tiny batches', () => {
    const h = new KeepHint();
    h.note(500, 1000);
    expect(h.flat).toBe(true);
    h.note(10, 1000);
    expect(h.flat).toBe(false);
    h.note(995, 1000);
    expect(h.flat).toBe(false);
    h.note(30, 60); // too few rows: the choice stays
    expect(h.flat).toBe(false);
    keepHintTuning.flatLoops = false;
    h.note(500, 1000);
    expect(h.flat).toBe(false);
  });
});

describe('branch-free and branching selection loops give the same rows', () => {
  const x = ref(0, 'INTEGER'), y = ref(1, 'DOUBLE'), s = ref(2, 'VARCHAR');
  const batchCols = (): ColSpec[] => {
    const xs: (number | null)[] = [], ys: (number | null)[] = [], ss: (string | null)[] = [];
    for (let i = 0; i < N; i++) {
      xs.push(Math.floor(rnd() * 100) - 50);
      ys.push(rnd() < 0.02 ? Number.NaN : rnd());
      ss.push(['a', 'b', 'c', 'd'][Math.floor(rnd() * 4)]!);
    }
    return [{ type: 'INTEGER', values: xs }, { type: 'DOUBLE', values: ys }, { type: 'VARCHAR', values: ss, dict: true }];
  };

  it.each([true, false])('comparisons and a range over whole batches (flat loops %s)', (flat) => {
    keepHintTuning.flatLoops = flat;
    const cond = andAll([fn('ge', [x, lit(-30, 'INTEGER')], 'BOOLEAN'), fn('lt', [x, lit(25, 'INTEGER')], 'BOOLEAN'), fn('lt', [y, lit(0.7, 'DOUBLE')], 'BOOLEAN')]);
    const first = makeBatch(batchCols());
    const p = compilePredicate(cond, first.schema);
    for (let b = 0; b < 6; b++) {
      const cols = b === 0 ? null : batchCols();
      const { batch } = cols === null ? first : makeBatch(cols);
      const xs = batch.getChildAt(0)!.toArray() as Int32Array, ys = batch.getChildAt(1)!.toArray() as Float64Array;
      const want = [...xs.keys()].filter((i) => xs[i]! >= -30 && xs[i]! < 25 && ys[i]! < 0.7); // NaN < 0.7 is false
      const got = p(batch);
      expect(got === null ? [...xs.keys()] : [...got]).toEqual(want);
    }
  });

  it.each([true, false])('through a selection, in place (flat loops %s)', (flat) => {
    keepHintTuning.flatLoops = flat;
    const first = makeBatch(batchCols());
    const refine = compileSafeRefine([fn('gt', [x, lit(0, 'INTEGER')], 'BOOLEAN'), fn('eq', [s, lit('b', 'VARCHAR')], 'BOOLEAN')], first.schema)!;
    for (let b = 0; b < 6; b++) {
      const { batch } = b === 0 ? first : makeBatch(batchCols());
      const xs = [...(batch.getChildAt(0)!.toArray() as Int32Array)];
      const ss = [...batch.getChildAt(2)!].map(String);
      const from = [...xs.keys()].filter((i) => i % 3 !== 1);
      const sel = Int32Array.from(from);
      const got = refine(batch, sel);
      const want = from.filter((i) => xs[i]! > 0 && ss[i] === 'b');
      expect([...got]).toEqual(want);
    }
  });

  it('a dictionary lookup over a whole batch, and conditions that may be NULL keep their rules', () => {
    const cols0 = batchCols();
    const first = makeBatch(cols0);
    const p = compilePredicate(fn('ne', [s, lit('a', 'VARCHAR')], 'BOOLEAN'), first.schema);
    // x / (x - 3) > 0 (a division: DOUBLE): NULL for x = 3 (a condition with NULL rules: always the branching loop).
    const q = compilePredicate(fn('gt', [fn('divide', [x, fn('minus', [x, lit(3, 'INTEGER')], 'INTEGER')], 'INTEGER'), lit(0, 'INTEGER')], 'BOOLEAN'), first.schema);
    for (let b = 0; b < 5; b++) {
      const cols = b === 0 ? cols0 : batchCols();
      const { batch } = makeBatch(cols);
      const got = p(batch);
      expect(got === null ? null : [...got]).toEqual(expected(cols[2]!.values as string[], (v) => v !== 'a'));
      const gotQ = q(batch);
      expect(gotQ === null ? null : [...gotQ]).toEqual(expected(cols[0]!.values as number[], (v) => (v as number) !== 3 && (v as number) / ((v as number) - 3) > 0));
    }
  });
});

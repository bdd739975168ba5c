/**
 * The HAVING emit of the hash aggregate (exec/operators/agg-having.ts) on canned group columns:
 * kept groups in order, batches of at most `size` rows, NULL predicates dropping groups, and a
 * column built for given groups (per run of groups or over their span) equal to the range built
 * and gathered.
 */
import { Float64, makeData, type Data } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { call, inputRef, literal } from '../../../src/relnode/rex.js';
import { field, schemaOf } from '../../../src/relnode/types.js';
import { compilePredicate } from '../../../src/exec/kernels/index.js';
import { takeData } from '../../../src/exec/batch.js';
import { HavingEmit, valueOfGroups, type GroupColumns } from '../../../src/exec/operators/agg-having.js';

/** A DOUBLE column of groups [start, end): value g * 0.5, NULL when g % 10 = 9; counts its calls. */
function doubles(calls: { n: number }): (start: number, end: number) => Data {
  return (start, end) => {
    calls.n++;
    const n = end - start;
    const v = new Float64Array(n);
    const bm = new Uint8Array((n + 7) >> 3);
    let nulls = 0;
    for (let i = 0; i < n; i++) { const g = start + i; v[i] = g * 0.5; if (g % 10 === 9) nulls++; else bm[i >> 3]! |= 1 << (i & 7); }
    return makeData({ type: new Float64(), length: n, nullCount: nulls, nullBitmap: nulls > 0 ? bm : undefined, data: v });
  };
}
const read = (d: Data): (number | null)[] => Array.from({ length: d.length }, (_, i) => (d.getValid(i) ? (d.values as Float64Array)[d.offset + i]! : null));

describe('valueOfGroups', () => {
  const cases: [string, number[]][] = [
    ['one run', [5, 6, 7, 8]],
    ['few groups far apart (one call per run)', [3, 400, 401, 9000]],
    ['many short runs (one call over the span, gathered)', Array.from({ length: 500 }, (_, i) => 2 * i + 1)],
    ['none', []],
  ];
  for (const [name, gs] of cases) {
    it(name, () => {
      const calls = { n: 0 };
      const gids = Int32Array.from(gs);
      const got = valueOfGroups(doubles(calls), gids, gids.length);
      const all = doubles({ n: 0 })(0, 10_000);
      expect(read(got)).toEqual(read(takeData(all, gids, gids.length)));
      if (name.startsWith('few')) expect(calls.n).toBe(3);
      if (name.startsWith('many')) expect(calls.n).toBe(1);
    });
  }
});

describe('HavingEmit', () => {
  // Two columns: 0 = the group id as a DOUBLE (g * 0.5, NULL when g % 10 = 9), 1 = the same; predicate on column 1: x > 100 (NULL drops).
  const cols: GroupColumns = {
    range: (_c, start, end) => doubles({ n: 0 })(start, end),
    at: (_c, gids, n) => valueOfGroups(doubles({ n: 0 }), gids, n),
  };
  const schema = schemaOf([field('x', 'DOUBLE')]);
  const having = (threshold: number) => ({ reads: [1], schema, predicate: compilePredicate(call('gt', [inputRef(0, 'DOUBLE'), literal(threshold, 'DOUBLE')], 'BOOLEAN'), schema) });

  function drain(h: HavingEmit): { rows: number; first: (number | null)[] }[] {
    const out: { rows: number; first: (number | null)[] }[] = [];
    let steps = 0;
    while (!h.done) {
      const r = h.step();
      if (r !== null) { expect(r.columns.length).toBe(2); out.push({ rows: r.rows, first: read(r.columns[0]!) }); }
      if (++steps > 10_000) throw new Error('no end');
    }
    return out;
  }

  it('keeps the groups where the predicate is TRUE, in order, in batches of at most `size` rows', () => {
    const out = drain(new HavingEmit(having(100), cols, 2, 1000, 64));
    const kept = out.flatMap((b) => b.first);
    const want: number[] = [];
    for (let g = 201; g < 1000; g++) if (g % 10 !== 9) want.push(g * 0.5);
    expect(kept).toEqual(want);
    expect(out.every((b) => b.rows <= 64)).toBe(true);
    expect(out.slice(0, -1).every((b) => b.rows === 64)).toBe(true);
  });

  it('emits nothing when no group passes, and every non-NULL group when all pass', () => {
    expect(drain(new HavingEmit(having(1e9), cols, 2, 1000, 64))).toEqual([]);
    const all = drain(new HavingEmit(having(-1), cols, 2, 1000, 128)).flatMap((b) => b.first);
    expect(all.length).toBe(900);
    expect(all.includes(null)).toBe(false);
  });
});

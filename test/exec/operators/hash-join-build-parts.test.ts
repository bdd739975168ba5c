/**
 * A join build hashes its keys from the buffered batches themselves and concatenates only the
 * columns read after the build (hash-join-build.ts): KeyTable.buildSteps over parts gives the
 * gids of a build over the concatenated keys (direct-mapped and hashed, NULL keys, many parts),
 * and a build key nothing above reads is no longer copied.
 */
import { describe, expect, it } from 'vitest';
import { Int32, makeData, type Data } from 'apache-arrow';
import { KeyTable } from '../../../src/exec/kernels/hash.js';
import { concatData } from '../../../src/exec/batch-concat.js';
import { hashJoin } from '../../../src/exec/operators/hash-join.js';
import { buildTuning } from '../../../src/exec/operators/hash-join-build.js';
import { batchFromColumns } from '../../../src/exec/batch.js';
import { Harness, batchOf, schema } from '../helpers/fake-context.js';

const RealInt32Array = globalThis.Int32Array;

/** An INTEGER column; null entries are NULL. */
function ints(xs: (number | null)[]): Data {
  const bm = new Uint8Array((xs.length + 7) >> 3);
  let nulls = 0;
  xs.forEach((x, i) => { if (x === null) nulls++; else bm[i >> 3]! |= 1 << (i & 7); });
  return makeData({ type: new Int32(), length: xs.length, nullCount: nulls, nullBitmap: nulls > 0 ? bm : undefined, data: RealInt32Array.from(xs.map((x) => x ?? 0)) });
}

function drive(t: KeyTable, parts: Data[][], n: number, step: number): { gids: Int32Array; yields: number } {
  const g = t.buildSteps(parts, n, step);
  let yields = 0;
  for (;;) { const r = g.next(); if (r.done) return { gids: r.value, yields }; yields++; }
}

describe('KeyTable.buildSteps over parts', () => {
  const shapes: [string, (i: number) => number | null][] = [
    ['dense keys (direct-mapped)', (i) => (i % 7 === 3 ? null : (i * 13) % 5000)],
    ['sparse keys (hashed)', (i) => (i % 11 === 0 ? null : ((i * 2_654_435_761) % 1_000_003) * 977)],
  ];
  for (const [name, key] of shapes) {
    it(`${name}: the gids of a build over the concatenated keys, in bounded steps`, () => {
      const sizes = [1, 700, 3000, 33, 4096, 2];
      let at = 0;
      const parts = sizes.map((s) => { const p = [ints(Array.from({ length: s }, (_, i) => key(at + i)))]; at += s; return p; });
      const n = at;
      const reference = new KeyTable(['INTEGER']);
      const whole = reference.build([concatData(parts.map((p) => p[0]!))], n);
      const t = new KeyTable(['INTEGER']);
      const { gids, yields } = drive(t, parts, n, 1000);
      expect(Array.from(gids)).toEqual(Array.from(whole));
      expect(yields).toBeGreaterThan(2);
      const probe = ints([key(5), key(7000), -12345, key(3)]);
      expect(Array.from(t.find([probe], 4))).toEqual(Array.from(reference.find([probe], 4)));
    });
  }
});

/** Int32Arrays that count how many of them are made while `counting` (a concatenation makes its copy with its parts' constructor). */
let counting = false;
let made = 0;
class Counting extends RealInt32Array {
  constructor(...args: unknown[]) { super(...(args as [number])); if (counting && typeof args[0] === 'number') made++; }
}
const countingInts = (xs: number[]): Data => makeData({ type: new Int32(), length: xs.length, nullCount: 0, data: Counting.from(xs) });

describe('join build concatenation', () => {
  it('a build key nothing above reads is hashed from the batches, not copied', () => {
    const B = schema('bk:INTEGER', 'bv:INTEGER');
    const P = schema('pk:INTEGER');
    const per = 20_000;
    const batches = [0, 1, 2].map((b) => batchFromColumns(B, [
      countingInts(Array.from({ length: per }, (_, i) => (b * per + i) * 31)),
      countingInts(Array.from({ length: per }, (_, i) => b * per + i)),
    ], per));
    const run = (used?: boolean[]): { rows: number; sum: number; copies: number } => {
      const h = new Harness(hashJoin({ joinType: 'inner', leftKeys: [0], rightKeys: [0], buildSide: 'right', ...(used ? { used } : {}) }), schema('pk:INTEGER', 'bk:INTEGER', 'bv:INTEGER'), [P, B], 4096);
      for (const b of batches) h.push(1, b);
      counting = true;
      made = 0;
      try { h.end(1); } finally { counting = false; }
      const copies = made;
      h.push(0, batchOf(P, Array.from({ length: 500 }, (_, i) => [i * 93]))).finish();
      const rows = h.rows();
      return { rows: rows.length, sum: rows.reduce((a, r) => a + (r[2] as number), 0), copies };
    };
    // The concatenating path (a build side of fixed-width columns is otherwise gathered from its batches: none is copied).
    const parted = run();
    buildTuning.parted = false;
    let all: ReturnType<typeof run>, keyUnused: ReturnType<typeof run>;
    try { all = run(); keyUnused = run([true, false, true]); } finally { buildTuning.parted = true; }
    expect(parted.copies).toBe(0);
    expect(parted.rows).toBe(all.rows);
    expect(parted.sum).toBe(all.sum);
    // Same rows and values; the key column is no longer concatenated.
    expect(all.rows).toBe(500); // every probe key i·93 = 3i·31 is a build key
    expect(keyUnused.rows).toBe(all.rows);
    expect(keyUnused.sum).toBe(all.sum);
    expect(all.copies).toBe(2);
    expect(keyUnused.copies).toBe(1);
  });
});

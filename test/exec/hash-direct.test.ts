/**
 * Direct-mapped group ids for one dense 32-bit key (kernels/hash-direct.ts):
 * the ids match first-seen order whatever mix of in-range keys, keys that
 * widen the range (up and down), keys too sparse for it (they go to the hash
 * slots, and the range stays fixed) and NULLs arrives; lookups (`find`) see
 * both homes; key output is unchanged.
 */
import { describe, expect, it } from 'vitest';
import { KeyTable } from '../../src/exec/kernels/hash.js';
import { column, valueAt } from './helpers/fake-context.js';

/** Group ids by first-seen order (NULL is one group). */
function oracle(batches: (number | null)[][]): number[][] {
  const seen = new Map<number | null, number>();
  return batches.map((b) => b.map((k) => { let g = seen.get(k); if (g === undefined) { g = seen.size; seen.set(k, g); } return g; }));
}

function run(batches: (number | null)[][]): KeyTable {
  const t = new KeyTable(['INTEGER']);
  const want = oracle(batches);
  batches.forEach((b, i) => expect(Array.from(t.groupIds([column('INTEGER', b)], b.length)), `batch ${i}`).toEqual(want[i]));
  const keys = t.keyColumns(0, t.size)[0]!;
  const firstSeen = [...new Set(batches.flat())];
  expect(Array.from({ length: t.size }, (_, g) => valueAt(keys, g))).toEqual(firstSeen);
  return t;
}

describe('KeyTable direct-mapped INTEGER keys', () => {
  it('rising dense keys over many batches (the TPC-H Q18 shape), with repeats and NULLs', () => {
    const batches: (number | null)[][] = [];
    for (let b = 0; b < 40; b++) batches.push(Array.from({ length: 5000 }, (_, i) => (i % 97 === 5 ? null : 1 + 4 * Math.floor((b * 5000 + i) / 3))));
    run(batches);
  });

  it('widens downwards and upwards, then takes a sparse key into the hash slots and keeps the range', () => {
    const t = run([[100, 101, 100], [50, 60, 101], [200_000, 7], [-5, 100_000_000, 55, -2_000_000_000, 2_147_483_647], [56, 100_000_000, 300_000, 50]]);
    // find sees keys in the map and in the slots; absent keys in and out of range miss.
    expect(Array.from(t.find([column('INTEGER', [100, 100_000_000, 99, 123_456_789, -2_000_000_000, null])], 6))).toEqual([0, 7, -1, -1, 9, -1]);
  });

  it('a first batch too sparse for a map: everything hashes, still first-seen ids', () => {
    run([[0, 1_000_000_000, 5, 0], [5, 6, 1_000_000_000, -1_000_000_000]]);
  });

  it('many groups past the incremental-grow threshold, random order inside a dense range', () => {
    const keys = Array.from({ length: 200_000 }, (_, i) => (i * 7919) % 150_001);
    const batches: number[][] = [];
    for (let i = 0; i < keys.length; i += 16_384) batches.push(keys.slice(i, i + 16_384));
    run(batches);
  });
});

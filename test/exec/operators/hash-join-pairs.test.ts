import { describe, expect, it } from 'vitest';
import { groupPairs, identityPairs, uniquePairs, type PairCursor } from '../../../src/exec/operators/hash-join-pairs.js';

/** Every pair, chunk by chunk of at most `cap`, as the join's fill takes them. */
function drain(next: (c: PairCursor, p: Int32Array, b: Int32Array) => number, n: number, cap: number): { pairs: [number, number][]; chunks: number[] } {
  const c: PairCursor = { i: 0, s: -1 };
  const p = new Int32Array(cap);
  const b = new Int32Array(cap);
  const pairs: [number, number][] = [];
  const chunks: number[] = [];
  for (let guard = 0; guard < 1000; guard++) {
    const m = next(c, p, b);
    chunks.push(m);
    for (let k = 0; k < m; k++) pairs.push([p[k]!, b[k]!]);
    if (c.i >= n) return { pairs, chunks };
  }
  throw new Error('the cursor did not advance');
}

describe('hash join pair loops', () => {
  // Probe rows' groups (−1 = no match); groups in CSR form: group g has build rows rows[start[g] .. start[g + 1]).
  const gids = Int32Array.of(2, -1, 0, 1, 2, -1, 3, 0);
  const start = Int32Array.of(0, 3, 3, 4, 9); // group 0: 3 rows, 1: none, 2: 1, 3: 5
  const rows = Int32Array.of(10, 11, 12, 20, 30, 31, 32, 33, 34);
  const n = gids.length;
  const expected: [number, number][] = [];
  for (let i = 0; i < n; i++) { const g = gids[i]!; if (g >= 0) for (let s = start[g]!; s < start[g + 1]!; s++) expected.push([i, rows[s]!]); }

  it('groupPairs emits every (probe, build) pair in order, in chunks of at most cap, resuming inside a group', () => {
    for (const cap of [1, 2, 3, 4, 7, 100]) {
      const { pairs, chunks } = drain((c, p, b) => groupPairs(gids, n, cap, start, rows, c, p, b), n, cap);
      expect(pairs).toEqual(expected);
      expect(Math.max(...chunks)).toBeLessThanOrEqual(cap);
      // Only the last chunk may be short while pairs remain to emit.
      expect(chunks.slice(0, -1).every((m) => m === cap)).toBe(true);
    }
  });

  it('uniquePairs takes each group\'s first build row; identityPairs takes the group id as the build row', () => {
    const uStart = Int32Array.of(0, 1, 2, 3, 4);
    const uRows = Int32Array.of(10, 20, 30, 40);
    for (const cap of [1, 3, 100]) {
      const want = [...gids].flatMap((g, i) => (g >= 0 ? [[i, uRows[uStart[g]!]!] as [number, number]] : []));
      expect(drain((c, p, b) => uniquePairs(gids, n, cap, uStart, uRows, c, p, b), n, cap).pairs).toEqual(want);
      const ident = [...gids].flatMap((g, i) => (g >= 0 ? [[i, g] as [number, number]] : []));
      expect(drain((c, p, b) => identityPairs(gids, n, cap, c, p, b), n, cap).pairs).toEqual(ident);
    }
  });
});

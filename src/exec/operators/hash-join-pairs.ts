/**
 * The hash join's pair loops: from a probe batch's group ids, the next chunk
 * of (probe row, build row) pairs, resumable where a full chunk stopped.
 *
 * Why apart from HashJoin.fill (issue #10, the JIT tail at parallelism 2): a
 * function with a long loop is compiled twice by V8 (on-stack replacement in
 * its first hot call, then for its next call), each compile taking in all it
 * inlines. In `fill` the loops sat beside the call that gathers the output
 * columns and builds the batch (join-output.ts, apache-arrow's Data and
 * RecordBatch construction), so each compile was big (18-26 ms on a helper
 * thread in timed TPC-H Q18 runs) and apache-arrow's shape changes threw
 * the code away ("code dependencies"). These leaves read and write typed
 * arrays only: they compile in about a millisecond and stay valid.
 */

/** A probe batch's position: the next probe row `i`, and inside its group the next build row `s` (−1 = from the group's start). */
export interface PairCursor { i: number; s: number }

/** Group id = build row (each build row its own group): pairs for rows c.i.. with a match, at most `cap`; returns their count, advances c.i. */
export function identityPairs(gids: Int32Array, n: number, cap: number, c: PairCursor, pIdx: Int32Array, bIdx: Int32Array): number {
  let m = 0;
  let i = c.i;
  for (; i < n && m < cap; i++) {
    const g = gids[i]!;
    if (g < 0) continue;
    pIdx[m] = i;
    bIdx[m++] = g;
  }
  c.i = i;
  return m;
}

/** One build row per group (`rows[start[g]]`): as identityPairs. */
export function uniquePairs(gids: Int32Array, n: number, cap: number, start: Int32Array, rows: Int32Array, c: PairCursor, pIdx: Int32Array, bIdx: Int32Array): number {
  let m = 0;
  let i = c.i;
  for (; i < n && m < cap; i++) {
    const g = gids[i]!;
    if (g < 0) continue;
    pIdx[m] = i;
    bIdx[m++] = rows[start[g]!]!;
  }
  c.i = i;
  return m;
}

/**
 * Groups of any size (group g's build rows are rows[start[g] .. start[g + 1])): pairs of every
 * matched probe row with each row of its group, at most `cap`; a chunk that fills up inside a
 * group resumes there (c.s). Returns the count; advances c.i and c.s.
 */
export function groupPairs(gids: Int32Array, n: number, cap: number, start: Int32Array, rows: Int32Array, c: PairCursor, pIdx: Int32Array, bIdx: Int32Array): number {
  let m = 0;
  let i = c.i;
  let s = c.s;
  for (; i < n; i++) {
    const g = gids[i]!;
    if (g < 0) continue;
    const e = start[g + 1]!;
    if (s < 0) s = start[g]!;
    for (; s < e && m < cap; s++) { pIdx[m] = i; bIdx[m++] = rows[s]!; }
    if (s < e) break; // chunk full inside this group: resume here
    s = -1;
  }
  c.i = i;
  c.s = s;
  return m;
}

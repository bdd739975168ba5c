/**
 * Orders ids by an unsigned 32-bit key: an LSD radix sort in two 16-bit passes (stable, linear). Used to send a
 * label propagation's rows smallest label first (pipeline-groups.ts `sortByValue`, keyed-operators.ts initial
 * rows): with in-place label updates the order of a round's rows is free, and small labels first prune the most.
 *
 * Decision: radix, not a comparison sort — a round has up to every key of the graph (a comparator sort of 250k
 * ids measured ~10× slower), and the keys are 32-bit integers.
 */

/** The 32-bit sort key of an INTEGER value (or of NULL: after every value but equal to INTEGER's largest). */
export function intSortKey(value: number, valid: boolean): number {
  return valid ? (value ^ 0x80000000) >>> 0 : 0xffffffff;
}

/** `ids[0 .. n)` sorted by `keys` (one unsigned 32-bit key per id, indexed by id); stable. Returns `ids` itself. */
export function sortIdsByKey(ids: Int32Array, n: number, keys: Uint32Array): Int32Array {
  if (n < 2) return ids;
  const counts = new Int32Array(65536);
  let src: Int32Array = ids;
  let dst: Int32Array = new Int32Array(n);
  for (let shift = 0; shift < 32; shift += 16) {
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[(keys[src[i]!]! >>> shift) & 0xffff]!++;
    let sum = 0;
    for (let b = 0; b < 65536; b++) { const c = counts[b]!; counts[b] = sum; sum += c; }
    for (let i = 0; i < n; i++) { const g = src[i]!; dst[counts[(keys[g]! >>> shift) & 0xffff]!++] = g; }
    [src, dst] = [dst, src];
  }
  return src; // two passes: back in `ids`
}

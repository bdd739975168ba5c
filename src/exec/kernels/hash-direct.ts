/**
 * The direct-mapped lookup of a frozen KeyTable (hash.ts) over one 32-bit key: an array indexed by
 * key − min holding gid + 1 (0: absent), a "perfect hash" as in DuckDB's perfect hash join. A
 * probe row then costs one array read instead of a hash and a probe sequence.
 *
 * Decision: only when the keys span a small range — at most 4 × keys + 1024 (the array stays
 * within a few words per key), or up to 2^18 entries (1 MB) at most 16 per key, and at most 2^26
 * entries (256 MB) — else the slots stay in use. The second rule takes TPC-H Q3's 30K customers of
 * one segment over 150K keys (600 KB; the hashed table of 2^16 slots is 512 KB): no slots to fill
 * and no hash per probe (in-process A/B, p1 CPU: Q3 52.9 → 51.6 ms, load ~3).
 */

/** key − min → gid + 1 (0 = absent). */
export interface DirectMap {
  readonly direct: Int32Array;
  readonly min: number;
}

/** Whether keys spanning `range` values (max − min + 1) for `keys` distinct keys get a direct map. */
export function directRangeFits(range: number, keys: number): boolean {
  return range > 0 && (range <= 4 * keys + 1024 || (range <= SMALL_RANGE && range <= 16 * keys)) && range <= 1 << 26;
}

/** A range this small (1 MB of array) may be 16 keys' worth per key: about a hashed table's size at these counts. */
const SMALL_RANGE = 1 << 18;

/** The direct map of groups 0 … size − 1 whose one key word is `groupWords[g]`, or null when the range does not fit. */
export function directFromGroups(groupWords: Int32Array, size: number): DirectMap | null {
  let min = groupWords[0]!;
  let max = min;
  for (let g = 1; g < size; g++) { const k = groupWords[g]!; if (k < min) min = k; else if (k > max) max = k; }
  if (!directRangeFits(max - min + 1, size)) return null;
  const direct = new Int32Array(max - min + 1);
  for (let g = 0; g < size; g++) direct[groupWords[g]! - min] = g + 1;
  return { direct, min };
}

/** Group id per encoded row through `map`, -1 when absent or when the row's key has a NULL (`flags`). */
export function findDirect(map: DirectMap, words: Int32Array, flags: Uint8Array | null, n: number, out: Int32Array): void {
  const { direct, min } = map;
  const range = direct.length;
  for (let i = 0; i < n; i++) {
    const k = words[i]! - min;
    out[i] = k >= 0 && k < range ? direct[k]! - 1 : -1;
  }
  if (flags !== null) for (let i = 0; i < n; i++) if (flags[i] !== 0) out[i] = -1;
}

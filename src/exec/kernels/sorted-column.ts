/**
 * Whether a column chunk is sorted ascending: the flag a few-key runtime filter needs before it
 * binary-searches a batch instead of testing every row (kernels/key-search.ts).
 *
 * Decision: the flag is computed lazily, on the first request, in one pass over the chunk, and
 * kept per Arrow `Data` object in a WeakMap. A table version's stored batches are the same Data
 * objects on every scan (io/memory.ts hands out its stored columns; a new version or the
 * shared-memory copy is new Data), so a table pays one pass per column and version, and only for
 * the columns a few-key filter is tested on; the flag goes with the Data when it is collected.
 * A scan that slices its batches (a stored batch over 4× the batch size) or reads a file makes
 * new Data per scan and pays the pass each time: still a fraction of the per-row filter test it
 * replaces (~0.3 vs ~2 ns a row), and an unsorted chunk stops at its first descent. The pass is
 * not folded into the table statistics (io/stats.ts): those are per column over the whole table,
 * and the filter sees one batch at a time, below the io layer.
 */
import type { Data } from 'apache-arrow';

const ascending = new WeakMap<Data, boolean>();

/**
 * True when rows 0 … length − 1 of `d` are non-decreasing and none is NULL, for integer columns
 * stored as Int32Array (INTEGER, DATE) or BigInt64Array (BIGINT); false for any other column.
 */
export function sortedAscending(d: Data): boolean {
  let s = ascending.get(d);
  if (s === undefined) {
    s = compute(d);
    ascending.set(d, s);
  }
  return s;
}

function compute(d: Data): boolean {
  if (d.nullCount !== 0) return false;
  const v = d.values as unknown;
  const n = d.length;
  // apache-arrow's Data.slice cuts `values` to the slice: rows are values[0 … length − 1].
  if (v instanceof Int32Array) {
    for (let i = 1; i < n; i++) if (v[i]! < v[i - 1]!) return false;
    return true;
  }
  if (v instanceof BigInt64Array) {
    for (let i = 1; i < n; i++) if (v[i]! < v[i - 1]!) return false;
    return true;
  }
  return false;
}

/**
 * Contiguous ranges for a partitioned stage over a sorted key (docs/multi-core.md).
 *
 * A partitioned stage gives every group to one worker. With a hash of the key, every worker
 * reads and hashes every row and gathers its half: TPC-H Q18's GROUP BY l_orderkey spent ~10%
 * of each worker's CPU on that (hashing 6M keys twice, gathering 3M rows per worker). When the
 * key column is sorted in table order (a table clustered by its key, as lineitem is by
 * l_orderkey), cutting the table into W contiguous row ranges at key changes gives every group to
 * one worker as well, and each worker reads only its own rows.
 *
 * Decision: the cut points are the equal-rows points moved forward to the next change of key, so
 * they depend on the data and W only (reproducible), and each group's rows are still added in
 * table order on one worker (DOUBLE sums keep the bits of parallelism 1). Only integer columns
 * (INTEGER, DATE, BIGINT, TIMESTAMP) without NULLs qualify; the sortedness test is one pass over
 * the column, done once per table version and column (SharedTables caches it).
 */
import { Type, type Data } from 'apache-arrow';

type IntValues = Int32Array | BigInt64Array;

/** The column's values per batch when it is an integer column without NULLs, else undefined. */
function intValues(cols: readonly Data[]): IntValues[] | undefined {
  const out: IntValues[] = [];
  for (const d of cols) {
    if (d.nullCount !== 0) return undefined;
    if (d.typeId !== Type.Int && d.typeId !== Type.Date && d.typeId !== Type.Timestamp) return undefined;
    const v = d.values as unknown;
    if (v instanceof Int32Array) out.push(v.subarray(d.offset, d.offset + d.length));
    else if (v instanceof BigInt64Array) out.push(v.subarray(d.offset, d.offset + d.length));
    else return undefined;
  }
  return out;
}

/** Whether the column (its Data per batch, in table order) is non-decreasing, without NULLs. */
export function isSortedColumn(cols: readonly Data[]): boolean {
  const vs = intValues(cols);
  if (vs === undefined) return false;
  let prev: number | bigint | undefined;
  for (const v of vs) {
    if (v.length === 0) continue;
    if (prev !== undefined && v[0]! < prev) return false;
    if (v instanceof Int32Array) { for (let i = 1; i < v.length; i++) if (v[i]! < v[i - 1]!) return false; }
    else for (let i = 1; i < v.length; i++) if (v[i]! < v[i - 1]!) return false;
    prev = v[v.length - 1]!;
  }
  return true;
}

/**
 * Per worker, its [batch, start, end] triples: W contiguous row ranges of a sorted column (see
 * `isSortedColumn`), cut where the key changes, each range in pieces of at most `rows` rows (so a
 * worker checks the cancel flag between pieces). A worker's ranges may be empty (one key
 * spanning most of the table).
 */
export function rangesAtKeyChanges(cols: readonly Data[], workers: number, rows: number): Int32Array[] {
  const vs = intValues(cols);
  if (vs === undefined) throw new Error('internal error: rangesAtKeyChanges over a non-integer or nullable column');
  const starts: number[] = [];
  let total = 0;
  for (const v of vs) { starts.push(total); total += v.length; }
  /** The first row at or after `row` whose key differs from row − 1's (walking batch by batch). */
  const nextChange = (row: number): number => {
    let b = 0;
    while (row - 1 >= starts[b]! + vs[b]!.length) b++;
    const before = vs[b]![row - 1 - starts[b]!]!;
    let r = row;
    for (; b < vs.length; b++) {
      const v = vs[b]!;
      for (let i = r - starts[b]!; i < v.length; i++, r++) if (v[i] !== before) return r;
    }
    return total;
  };
  const cuts = [0];
  for (let w = 1; w < workers; w++) {
    const c = Math.max(cuts[w - 1]!, Math.floor((w * total) / workers));
    cuts.push(c > 0 && c < total ? nextChange(c) : c);
  }
  cuts.push(total);
  return Array.from({ length: workers }, (_, w) => {
    const out: number[] = [];
    const lo = cuts[w]!;
    const hi = cuts[w + 1]!;
    vs.forEach((v, b) => {
      const s = Math.max(lo, starts[b]!) - starts[b]!;
      const e = Math.min(hi, starts[b]! + v.length) - starts[b]!;
      for (let p = s; p < e; p += rows) out.push(b, p, Math.min(e, p + rows));
    });
    return Int32Array.from(out);
  });
}

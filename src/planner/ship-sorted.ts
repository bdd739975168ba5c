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
 *
 * Co-partitioned joins (ship-copartition.ts) use the same cuts over a *clustered* column (each
 * batch sorted, batches in any order but not overlapping: `clusteredOrder`), read in key order,
 * and cut a second table at the same keys (`rangesForKeys`).
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
    // apache-arrow's Data.slice already cuts `values` to the slice (its `offset` then counts
    // only for the validity bitmap): read rows 0 … length − 1.
    if (v instanceof Int32Array) out.push(v.subarray(0, d.length));
    else if (v instanceof BigInt64Array) out.push(v.subarray(0, d.length));
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
  return cutAtKeyChanges(cols, workers, rows).ranges;
}

/**
 * `rangesAtKeyChanges` with the key where each worker's range begins: `bounds[w - 1]` is the
 * first key of worker w (w ≥ 1), undefined when its range (and every later one) is empty at the
 * table's end. Worker w holds exactly the keys in [bounds[w - 1], bounds[w]) (−∞ and +∞ at the
 * ends), so another table sorted by the same key splits at the same keys (`rangesForKeys`).
 * With `order` (`clusteredOrder`) the batches are read in that order.
 */
export function cutAtKeyChanges(cols: readonly Data[], workers: number, rows: number, order?: readonly number[]): { ranges: Int32Array[]; bounds: (bigint | undefined)[] } {
  const { vs, ids } = inOrder(cols, order);
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
  const keyAt = (row: number): bigint | undefined => {
    if (row >= total) return undefined;
    let b = 0;
    while (row >= starts[b]! + vs[b]!.length) b++;
    return BigInt(vs[b]![row - starts[b]!]!);
  };
  return { ranges: Array.from({ length: workers }, (_, w) => piecesOf(vs, ids, starts, cuts[w]!, cuts[w + 1]!, rows)), bounds: cuts.slice(1, workers).map(keyAt) };
}

/** The column's values per batch in `order` (default: table order), and each one's batch number. */
function inOrder(cols: readonly Data[], order?: readonly number[]): { vs: IntValues[]; ids: readonly number[] } {
  const all = intValues(cols);
  if (all === undefined) throw new Error('internal error: key ranges over a non-integer or nullable column');
  const ids = order ?? all.map((_, i) => i);
  return { vs: ids.map((i) => all[i]!), ids };
}

/**
 * The batches of a *clustered* column in key order, or undefined when it is not clustered: every
 * batch non-decreasing and the batches' key intervals not overlapping, in whatever order the
 * batches come (a table written in sorted chunks by parallel writers: the SF 1 TPC-H files' lineitem
 * and orders). Read in this order the column is sorted; integer columns without NULLs only.
 */
export function clusteredOrder(cols: readonly Data[]): number[] | undefined {
  const vs = intValues(cols);
  if (vs === undefined) return undefined;
  for (const v of vs) {
    if (v instanceof Int32Array) { for (let i = 1; i < v.length; i++) if (v[i]! < v[i - 1]!) return undefined; }
    else for (let i = 1; i < v.length; i++) if (v[i]! < v[i - 1]!) return undefined;
  }
  const order = vs.map((_, i) => i).filter((i) => vs[i]!.length > 0);
  // By first key, then last (a batch of one repeated key before a longer batch starting with it).
  order.sort((a, b) => { const x = vs[a]!, y = vs[b]!; return x[0]! < y[0]! ? -1 : x[0]! > y[0]! ? 1 : x[x.length - 1]! < y[y.length - 1]! ? -1 : x[x.length - 1]! > y[y.length - 1]! ? 1 : a - b; });
  for (let j = 1; j < order.length; j++) {
    const prev = vs[order[j - 1]!]!, next = vs[order[j]!]!;
    if (next[0]! < prev[prev.length - 1]!) return undefined;
  }
  return [...order, ...vs.map((_, i) => i).filter((i) => vs[i]!.length === 0)];
}

/** The rows [lo, hi) of the column read in order (global row numbers) as [batch, start, end] triples of at most `rows` rows. */
function piecesOf(vs: readonly IntValues[], ids: readonly number[], starts: readonly number[], lo: number, hi: number, rows: number): Int32Array {
  const out: number[] = [];
  vs.forEach((v, b) => {
    const s = Math.max(lo, starts[b]!) - starts[b]!;
    const e = Math.min(hi, starts[b]! + v.length) - starts[b]!;
    for (let p = s; p < e; p += rows) out.push(ids[b]!, p, Math.min(e, p + rows));
  });
  return Int32Array.from(out);
}

/**
 * Per worker, the rows of a sorted column (`isSortedColumn`, or clustered and read in `order`) whose keys lie in that worker's key
 * range of `bounds` (from `cutAtKeyChanges` over another table): worker w gets the keys in
 * [bounds[w − 1], bounds[w]), the first worker everything below bounds[0], the last everything
 * from its bound up (an undefined bound is +∞). Every row goes to exactly one worker, in key
 * order, as [batch, start, end] triples of at most `rows` rows.
 */
export function rangesForKeys(cols: readonly Data[], bounds: readonly (bigint | undefined)[], rows: number, order?: readonly number[]): Int32Array[] {
  const { vs, ids } = inOrder(cols, order);
  const starts: number[] = [];
  let total = 0;
  for (const v of vs) { starts.push(total); total += v.length; }
  /** The first row whose key is ≥ k (binary search: first the batch, then inside it). */
  const lowerBound = (k: bigint | undefined): number => {
    if (k === undefined) return total;
    for (let b = 0; b < vs.length; b++) {
      const v = vs[b]!;
      if (v.length === 0 || BigInt(v[v.length - 1]!) < k) continue;
      let lo = 0, hi = v.length - 1;
      while (lo < hi) { const mid = (lo + hi) >>> 1; if (BigInt(v[mid]!) < k) lo = mid + 1; else hi = mid; }
      return starts[b]! + lo;
    }
    return total;
  };
  const cuts = [0, ...bounds.map(lowerBound), total];
  return Array.from({ length: bounds.length + 1 }, (_, w) => piecesOf(vs, ids, starts, cuts[w]!, Math.max(cuts[w]!, cuts[w + 1]!), rows));
}

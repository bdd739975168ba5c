/**
 * The floor for queries over a cached `b`: the same five actions as
 * hand-written loops over the typed arrays of `b`'s Arrow columns (collected
 * once, as the cache holds them), no engine at all. `b` has no NULLs (an
 * inner join of NOT NULL columns); the loops check that and fail otherwise.
 */
import { Type, type Data, type RecordBatch } from 'apache-arrow';
import type { BData, BQuery } from './flip36.js';
import { plainFromObjects, type PlainResult } from './verify.js';

const L_ORDERKEY = 0;
const O_ORDERDATE = 1;
const L_SHIPMODE = 2;
const REVENUE = 3;

function column(batch: RecordBatch, i: number): Data {
  const d = batch.data.children[i]!;
  if (d.nullCount > 0) throw new Error(`hand loop: column ${i} of b has NULLs; the loops assume none`);
  return d;
}

function numbers(d: Data): Float64Array | Int32Array {
  return d.values as Float64Array | Int32Array; // values are narrowed to the slice in apache-arrow 21
}

/** max(revenue). */
export function handMax(b: BData): PlainResult {
  let m = -Infinity;
  for (const batch of b.batches) {
    const v = numbers(column(batch, REVENUE));
    for (let i = 0, n = batch.numRows; i < n; i++) { const x = v[i]!; if (x > m) m = x; }
  }
  return plainFromObjects([{ max: b.numRows > 0 ? m : null }], ['max'], []);
}

/** min(revenue). */
export function handMin(b: BData): PlainResult {
  let m = Infinity;
  for (const batch of b.batches) {
    const v = numbers(column(batch, REVENUE));
    for (let i = 0, n = batch.numRows; i < n; i++) { const x = v[i]!; if (x < m) m = x; }
  }
  return plainFromObjects([{ min: b.numRows > 0 ? m : null }], ['min'], []);
}

/** count(*): the batches' row counts. */
export function handCount(b: BData): PlainResult {
  let n = 0;
  for (const batch of b.batches) n += batch.numRows;
  return plainFromObjects([{ count: n }], ['count'], []);
}

/** Ship mode → (sum of revenue, lines), over dictionary codes (one lookup per batch and code) or plain strings. */
export function handGroupBy(b: BData): PlainResult {
  const sums = new Map<string, { revenue: number; lines: number }>();
  const slot = (k: string): { revenue: number; lines: number } => {
    let s = sums.get(k);
    if (s === undefined) { s = { revenue: 0, lines: 0 }; sums.set(k, s); }
    return s;
  };
  for (const batch of b.batches) {
    const mode = column(batch, L_SHIPMODE);
    const rev = numbers(column(batch, REVENUE));
    const n = batch.numRows;
    if (mode.typeId === Type.Dictionary) {
      // Per-code accumulators in typed arrays, merged into the named groups once per batch.
      const dict = mode.dictionary!;
      const codes = mode.values as Int32Array;
      const rs = new Float64Array(dict.length);
      const cs = new Float64Array(dict.length);
      for (let i = 0; i < n; i++) { const c = codes[i]!; rs[c]! += rev[i]!; cs[c]!++; }
      for (let c = 0; c < dict.length; c++) {
        if (cs[c] === 0) continue;
        const s = slot(String(dict.get(c)));
        s.revenue += rs[c]!; s.lines += cs[c]!;
      }
    } else {
      const offsets = mode.valueOffsets as Int32Array;
      const bytes = mode.values as Uint8Array;
      const dec = new TextDecoder();
      for (let i = 0; i < n; i++) {
        const s = slot(dec.decode(bytes.subarray(offsets[i]!, offsets[i + 1]!)));
        s.revenue += rev[i]!; s.lines++;
      }
    }
  }
  const keys = [...sums.keys()].sort();
  return plainFromObjects(keys.map((k) => ({ l_shipmode: k, ...sums.get(k)! })), ['l_shipmode', 'revenue', 'lines'], []);
}

/** The ten rows with the highest revenue (ties by order key): a sorted buffer of ten, replaced from the bottom. */
export function handTopK(b: BData, k = 10): PlainResult {
  const rev = new Float64Array(k);
  const key = new Float64Array(k);
  const date = new Float64Array(k);
  let size = 0;
  // a ranks before b: higher revenue, then lower order key.
  const before = (ra: number, ka: number, rb: number, kb: number): boolean => ra > rb || (ra === rb && ka < kb);
  for (const batch of b.batches) {
    const r = numbers(column(batch, REVENUE));
    const o = numbers(column(batch, L_ORDERKEY));
    const d = numbers(column(batch, O_ORDERDATE));
    for (let i = 0, n = batch.numRows; i < n; i++) {
      const x = r[i]!;
      const ok = o[i]!;
      if (size === k && !before(x, ok, rev[k - 1]!, key[k - 1]!)) continue;
      let j = size < k ? size++ : k - 1;
      while (j > 0 && before(x, ok, rev[j - 1]!, key[j - 1]!)) { rev[j] = rev[j - 1]!; key[j] = key[j - 1]!; date[j] = date[j - 1]!; j--; }
      rev[j] = x; key[j] = ok; date[j] = d[i]!;
    }
  }
  const rows = Array.from({ length: size }, (_, j) => ({ l_orderkey: key[j]!, o_orderdate: date[j]!, revenue: rev[j]! }));
  return plainFromObjects(rows, ['l_orderkey', 'o_orderdate', 'revenue'], ['o_orderdate']);
}

/** The hand-written loop of each action. */
export const HAND_LOOPS: Readonly<Record<BQuery['id'], (b: BData) => PlainResult>> = {
  max: handMax, min: handMin, count: handCount, 'group-by': handGroupBy, 'top-k': handTopK,
};

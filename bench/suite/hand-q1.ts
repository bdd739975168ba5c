/**
 * The single-thread floor for TPC-H Q1: one hand-written loop over
 * lineitem's Arrow columns (Float64Array values, Int32Array dates and
 * dictionary codes), six accumulators per (returnflag, linestatus) group.
 * No engine; the output rows are Q1's, ordered by the two flags.
 */
import type { Data, Table as ArrowTable } from 'apache-arrow';
import type { PlainResult } from '../lib/verify.js';

const DAY_MS = 86_400_000;
const CUT = Date.parse('1998-09-02T00:00:00Z') / DAY_MS; // 1998-12-01 - 90 days

interface Group { flag: string; status: string; qty: number; base: number; disc: number; charge: number; discount: number; n: number }

function col(t: ArrowTable, name: string): number {
  const i = t.schema.fields.findIndex((f) => f.name === name);
  if (i < 0) throw new Error(`hand loop: lineitem has no column ${name}`);
  return i;
}

/**
 * The codes of a flag column chunk, as one Int32Array, and the strings they stand for: dictionary
 * codes, or — for plain Utf8 chunks (the Arrow file stores the flags that way when its batches'
 * dictionaries differ) — the single byte of each one-character value.
 */
function codesOf(d: Data, n: number): { codes: Int32Array; dict: readonly string[] } {
  const codes = new Int32Array(n);
  const o = d.offset;
  if (d.dictionary) {
    const v = d.values as Int32Array;
    for (let i = 0; i < n; i++) codes[i] = v[o + i]!;
    return { codes, dict: d.dictionary.toArray() as string[] };
  }
  const offsets = d.valueOffsets as Int32Array;
  const bytes = d.values as Uint8Array;
  for (let i = 0; i < n; i++) {
    const at = offsets[o + i]!;
    if (offsets[o + i + 1]! - at !== 1) throw new Error('hand loop: Q1 expects one-character flags');
    codes[i] = bytes[at]!;
  }
  return { codes, dict: Array.from({ length: 256 }, (_, b) => String.fromCharCode(b)) };
}

/** Q1 over lineitem. */
export function q1HandLoop(lineitem: ArrowTable): PlainResult {
  const [iQ, iP, iD, iT, iF, iS, iShip] = ['l_quantity', 'l_extendedprice', 'l_discount', 'l_tax', 'l_returnflag', 'l_linestatus', 'l_shipdate'].map((n) => col(lineitem, n));
  const groups = new Map<string, Group>();
  for (const batch of lineitem.batches) {
    const ch = batch.data.children as Data[];
    const q = ch[iQ!]!.values as Float64Array; const qo = ch[iQ!]!.offset;
    const p = ch[iP!]!.values as Float64Array; const po = ch[iP!]!.offset;
    const d = ch[iD!]!.values as Float64Array; const dof = ch[iD!]!.offset;
    const t = ch[iT!]!.values as Float64Array; const to = ch[iT!]!.offset;
    const ship = ch[iShip!]!.values as Int32Array; const so = ch[iShip!]!.offset;
    const f = codesOf(ch[iF!]!, batch.numRows);
    const s = codesOf(ch[iS!]!, batch.numRows);
    const fc = f.codes;
    const sc = s.codes;
    // Per batch: group slot by (flag code, status code), so the inner loop does no string work.
    const slots: (Group | undefined)[] = new Array(f.dict.length * s.dict.length);
    const ns = s.dict.length;
    for (let i = 0; i < batch.numRows; i++) {
      if (ship[so + i]! > CUT) continue;
      const k = fc[i]! * ns + sc[i]!;
      let g = slots[k];
      if (g === undefined) {
        const flag = f.dict[fc[i]!]!;
        const status = s.dict[sc[i]!]!;
        const key = `${flag}\u0000${status}`;
        g = groups.get(key);
        if (g === undefined) { g = { flag, status, qty: 0, base: 0, disc: 0, charge: 0, discount: 0, n: 0 }; groups.set(key, g); }
        slots[k] = g;
      }
      const price = p[po + i]!;
      const disc = d[dof + i]!;
      const dp = price * (1 - disc);
      g.qty += q[qo + i]!; g.base += price; g.disc += dp; g.charge += dp * (1 + t[to + i]!); g.discount += disc; g.n++;
    }
  }
  const rows = [...groups.values()]
    .sort((a, b) => (a.flag < b.flag ? -1 : a.flag > b.flag ? 1 : a.status < b.status ? -1 : a.status > b.status ? 1 : 0))
    .map((g) => [g.flag, g.status, g.qty, g.base, g.disc, g.charge, g.qty / g.n, g.base / g.n, g.discount / g.n, g.n]);
  return {
    columns: ['l_returnflag', 'l_linestatus', 'sum_qty', 'sum_base_price', 'sum_disc_price', 'sum_charge', 'avg_qty', 'avg_price', 'avg_disc', 'count_order'],
    rows,
  };
}

/**
 * The single-thread floor: TPC-H Q6 as one hand-written loop over the Arrow
 * columns' typed arrays (DateDay Int32Array, Float64Array), no engine at all.
 */
import type { Data, Table as ArrowTable } from 'apache-arrow';

const DAY_MS = 86_400_000;
const day = (iso: string): number => Date.parse(`${iso}T00:00:00Z`) / DAY_MS;

function column(t: ArrowTable, name: string): number {
  const i = t.schema.fields.findIndex((f) => f.name === name);
  if (i < 0) throw new Error(`hand loop: lineitem has no column ${name}`);
  return i;
}

/** Q6 over lineitem: sum(l_extendedprice * l_discount) under the Q6 predicate. */
export function q6HandLoop(lineitem: ArrowTable): { revenue: number } {
  const iShip = column(lineitem, 'l_shipdate');
  const iDisc = column(lineitem, 'l_discount');
  const iQty = column(lineitem, 'l_quantity');
  const iPrice = column(lineitem, 'l_extendedprice');
  const lo = day('1994-01-01');
  const hi = day('1995-01-01');
  let revenue = 0;
  for (const batch of lineitem.batches) {
    const ch = batch.data.children as Data[];
    revenue += q6Batch(
      ch[iShip]!.values as Int32Array, ch[iShip]!.offset,
      ch[iDisc]!.values as Float64Array, ch[iDisc]!.offset,
      ch[iQty]!.values as Float64Array, ch[iQty]!.offset,
      ch[iPrice]!.values as Float64Array, ch[iPrice]!.offset,
      batch.numRows, lo, hi,
    );
  }
  return { revenue };
}

function q6Batch(
  ship: Int32Array, so: number, disc: Float64Array, dso: number, qty: Float64Array, qo: number,
  price: Float64Array, po: number, n: number, lo: number, hi: number,
): number {
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const s = ship[so + i]!;
    if (s < lo || s >= hi) continue;
    const d = disc[dso + i]!;
    if (d < 0.05 || d > 0.07 || qty[qo + i]! >= 24) continue;
    sum += price[po + i]! * d;
  }
  return sum;
}

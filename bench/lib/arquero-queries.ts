/**
 * TPC-H Q1, Q3 and Q6 in Arquero's verbs over the tables of arquero-data.ts
 * (DATE values are epoch milliseconds in both of its layouts). Same
 * semantics and output columns as test/diff/tpch-queries.ts.
 */
import * as aq from 'arquero';
import type { AqTable } from './arquero-data.js';

const op = aq.op;
const ms = (iso: string): number => Date.parse(`${iso}T00:00:00Z`);

/* eslint-disable @typescript-eslint/no-explicit-any -- Arquero parses these functions' source; `d` and `$` are untyped rows/params. */

/** Q1: pricing summary report. */
export function q1Arquero(t: Record<string, AqTable>): AqTable {
  return t['lineitem']!
    .params({ cut: ms('1998-09-02') })
    .filter((d: any, $: any) => d.l_shipdate <= $.cut)
    .derive({
      disc_price: (d: any) => d.l_extendedprice * (1 - d.l_discount),
      charge: (d: any) => d.l_extendedprice * (1 - d.l_discount) * (1 + d.l_tax),
    })
    .groupby('l_returnflag', 'l_linestatus')
    .rollup({
      sum_qty: (d: any) => op.sum(d.l_quantity),
      sum_base_price: (d: any) => op.sum(d.l_extendedprice),
      sum_disc_price: (d: any) => op.sum(d.disc_price),
      sum_charge: (d: any) => op.sum(d.charge),
      avg_qty: (d: any) => op.mean(d.l_quantity),
      avg_price: (d: any) => op.mean(d.l_extendedprice),
      avg_disc: (d: any) => op.mean(d.l_discount),
      count_order: () => op.count(),
    })
    .orderby('l_returnflag', 'l_linestatus');
}

/** Q3: shipping priority (ORDER BY revenue DESC, o_orderdate, l_orderkey; LIMIT 10). */
export function q3Arquero(t: Record<string, AqTable>): AqTable {
  const day = ms('1995-03-15');
  const c = t['customer']!.filter((d: any) => d.c_mktsegment === 'BUILDING').select('c_custkey');
  const o = t['orders']!.params({ day })
    .filter((d: any, $: any) => d.o_orderdate < $.day)
    .select('o_orderkey', 'o_custkey', 'o_orderdate', 'o_shippriority');
  const l = t['lineitem']!.params({ day })
    .filter((d: any, $: any) => d.l_shipdate > $.day)
    .select('l_orderkey', 'l_extendedprice', 'l_discount');
  return c.join(o, [['c_custkey'], ['o_custkey']])
    .join(l, [['o_orderkey'], ['l_orderkey']])
    .groupby('l_orderkey', 'o_orderdate', 'o_shippriority')
    .rollup({ revenue: (d: any) => op.sum(d.l_extendedprice * (1 - d.l_discount)) })
    .orderby(aq.desc('revenue'), 'o_orderdate', 'l_orderkey')
    .slice(0, 10)
    .select('l_orderkey', 'revenue', 'o_orderdate', 'o_shippriority');
}

/** Q6: forecasting revenue change. */
export function q6Arquero(t: Record<string, AqTable>): AqTable {
  return t['lineitem']!
    .params({ lo: ms('1994-01-01'), hi: ms('1995-01-01') })
    .filter((d: any, $: any) => d.l_shipdate >= $.lo && d.l_shipdate < $.hi
      && d.l_discount >= 0.05 && d.l_discount <= 0.07 && d.l_quantity < 24)
    .rollup({ revenue: (d: any) => op.sum(d.l_extendedprice * d.l_discount) });
}

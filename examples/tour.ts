/**
 * A short tour of the Table API on the built-in TPC-H data: `npm run demo`
 * (or `npx tsx examples/tour.ts [--sf 0.1]`).
 */
import { avg, col, countStar, date, desc, sum, TableEnvironment } from '../src/index.js';
import { formatTable } from '../src/cli/format.js';

async function main(): Promise<void> {
  const sfArg = process.argv.indexOf('--sf');
  const sf = sfArg > 0 ? Number(process.argv[sfArg + 1]) : 0.05;
  const env = TableEnvironment.create();
  let t0 = performance.now();
  env.registerTpch(sf);
  console.log(`eddy demo — TPC-H tables generated at scale factor ${sf} in ${(performance.now() - t0).toFixed(0)} ms: ${env.listTables().join(', ')}\n`);

  const show = async (title: string, code: string, run: () => Promise<import('apache-arrow').Table>): Promise<void> => {
    console.log(`-- ${title}\n${code}`);
    t0 = performance.now();
    const result = await run();
    console.log(`${formatTable(result)}  (${(performance.now() - t0).toFixed(0)} ms)\n`);
  };

  const lineitem = env.from('lineitem');
  await show('TPC-H Q1: pricing summary', `lineitem.filter(col('l_shipdate').le(date('1998-09-02')))
  .groupBy('l_returnflag', 'l_linestatus')
  .select(..., sum('l_quantity'), avg('l_discount'), countStar()).orderBy(...)`, () =>
    lineitem
      .filter(col('l_shipdate').le(date('1998-09-02')))
      .groupBy('l_returnflag', 'l_linestatus')
      .select(
        'l_returnflag', 'l_linestatus',
        sum('l_quantity').as('sum_qty'),
        sum(col('l_extendedprice').times(col('l_discount').neg().plus(1))).as('sum_disc_price'),
        avg('l_discount').as('avg_disc'),
        countStar().as('count_order'),
      )
      .orderBy('l_returnflag', 'l_linestatus')
      .collect());

  await show('Top customers by revenue (join + aggregate + top-k)', `customer.join(orders, ...).groupBy('c_name').select(...).orderBy(desc('revenue')).limit(5)`, () =>
    env.from('customer')
      .join(env.from('orders'), col('c_custkey').eq(col('o_custkey')))
      .groupBy('c_name')
      .select('c_name', sum('o_totalprice').as('revenue'), countStar().as('orders'))
      .orderBy(desc('revenue'))
      .limit(5)
      .collect());

  // FLIP-36's motivating example: one derived table, several actions.
  const b = lineitem.select('l_orderkey', 'l_quantity', 'l_extendedprice').filter(col('l_quantity').gt(45));
  console.log("-- FLIP-36's example: b = lineitem.select(...).filter(l_quantity > 45); b.max(), b.min(), b.count()");
  t0 = performance.now();
  const [mx, mn, n] = [await b.max('l_extendedprice'), await b.min('l_extendedprice'), await b.count()];
  console.log(`max=${String(mx)} min=${String(mn)} count=${n}  (${(performance.now() - t0).toFixed(0)} ms)\n`);

  console.log('-- explain()');
  console.log(await b.explain());
  await env.close();
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? `${e.name}: ${e.message}` : String(e));
  process.exitCode = 1;
});

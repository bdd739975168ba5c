// Child of map-anchors.test.ts (run with --expose-gc --trace-deopt): a join and an aggregate, warmed,
// then runs each after a major GC; prints a marker before the measured runs.
import { TableEnvironment } from '../../src/index.js';

const env = TableEnvironment.create({ parallelism: 1 });
env.registerTpch(0.05);
const sql = `SELECT l_orderkey, sum(l_extendedprice * (1 - l_discount)) AS revenue, o_orderdate
  FROM customer, orders, lineitem
  WHERE c_mktsegment = 'BUILDING' AND c_custkey = o_custkey AND l_orderkey = o_orderkey
  GROUP BY l_orderkey, o_orderdate ORDER BY revenue DESC LIMIT 5`;
const gc = (globalThis as { gc?: (o: { type: string; execution: string }) => Promise<void> }).gc!;
for (let i = 0; i < 12; i++) await env.sql(sql).collect();
console.log('=== MEASURED');
for (let i = 0; i < 4; i++) {
  await gc({ type: 'major', execution: 'async' });
  await env.sql(sql).collect();
}
await env.close();

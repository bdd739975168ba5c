import { TableEnvironment } from '../src/api/index.js';
import '../src/sql/index.js';
import { TPCH_SQL } from '../test/sql/tpch-sql.js';
const env = TableEnvironment.create();
env.registerTpch(0.1);
for (const n of [2, 5, 7, 8, 9]) {
  const q = TPCH_SQL.find((x) => x.n === n)!;
  const ts: number[] = [];
  for (let r = 0; r < 4; r++) { const t0 = performance.now(); await env.sql(q.sql).explain(); ts.push(performance.now() - t0); }
  console.log(`Q${n} plan ms: ${ts.map((t) => t.toFixed(1)).join(' ')}`);
}
await env.close();

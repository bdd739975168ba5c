import { TableEnvironment } from '../src/api/index.js';
import '../src/sql/index.js';
import { TPCH_SQL } from '../test/sql/tpch-sql.js';
import { optimize } from '../src/planner/optimizer.js';
const env = TableEnvironment.create();
env.registerTpch(0.01);
const q = TPCH_SQL.find((x) => x.n === Number(process.argv[2]))!;
const t = env.sql(q.sql) as unknown as { plan: import('../src/relnode/rel.js').RelNode };
const counts = new Map<string, number>();
const t0 = performance.now();
optimize(t.plan, undefined, { trace: (r) => counts.set(r, (counts.get(r) ?? 0) + 1) });
console.log((performance.now() - t0).toFixed(1), 'ms', [...counts]);
for (let i = 0; i < 5; i++) { const t1 = performance.now(); optimize(t.plan); console.log('again', (performance.now() - t1).toFixed(1)); }
const { DEFAULT_RULES } = await import('../src/planner/optimizer.js');
for (const r of DEFAULT_RULES) { const t1 = performance.now(); for (let i = 0; i < 20; i++) r.rewrite(t.plan); console.log(r.name, ((performance.now() - t1) / 20).toFixed(2)); }
await env.close();

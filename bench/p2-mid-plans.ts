/**
 * Plans below the worker-stage threshold (150,000 in-memory rows) at parallelism 1 and 2: CPU per
 * query (process.cpuUsage over 10 runs after 3 warm-ups, median of 9 rounds, environments
 * alternating). Such a plan runs no stage; at parallelism 2 it used to run its parallelism-2 graph
 * on the calling thread (subtasks taking turns, hash exchanges between them): 1.4–2.7× p1's CPU.
 * It now runs lowered at parallelism 1 (api/run-graphs.ts).
 *
 *   node --import tsx bench/p2-mid-plans.ts
 */
import { loadavg } from 'node:os';
import { tableFromArrays } from 'apache-arrow';
import { TableEnvironment } from '../src/api/environment.js';

const N = 150_000;
const t = tableFromArrays({ k: Int32Array.from({ length: N }, (_, i) => i % 1000), v: Float64Array.from({ length: N }, (_, i) => i % 97), j: Int32Array.from({ length: N }, (_, i) => i % 5000) });
const d = tableFromArrays({ id: Int32Array.from({ length: 5000 }, (_, i) => i), w: Float64Array.from({ length: 5000 }, (_, i) => i) });
const queries = ['SELECT k, sum(v) AS s, count(*) AS c FROM t GROUP BY k', 'SELECT sum(v * w) AS s FROM t JOIN d ON t.j = d.id WHERE v > 10', 'SELECT k, v FROM t WHERE v > 90 ORDER BY k LIMIT 10'];
const envs = [1, 2].map((p) => { const e = TableEnvironment.create({ parallelism: p }); e.registerTable('t', t); e.registerTable('d', d); return e; });
const load0 = loadavg()[0]!;
console.log('| query | p1 CPU ms | p2 CPU ms |\n| --- | ---: | ---: |');
for (const q of queries) {
  const res: number[][] = [[], []];
  for (let round = 0; round < 9; round++) {
    for (const [i, e] of envs.entries()) {
      for (let k = 0; k < 3; k++) await e.sql(q).collect();
      const c0 = process.cpuUsage();
      for (let k = 0; k < 10; k++) await e.sql(q).collect();
      const c = process.cpuUsage(c0);
      res[i]!.push((c.user + c.system) / 1000 / 10);
    }
  }
  const med = (x: number[]): string => [...x].sort((a, b) => a - b)[4]!.toFixed(2);
  console.log(`| ${q} | ${med(res[0]!)} | ${med(res[1]!)} |`);
}
console.log(`\nload average 1 min: ${load0.toFixed(2)} at start, ${loadavg()[0]!.toFixed(2)} at end`);
for (const e of envs) await e.close();

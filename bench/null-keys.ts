/**
 * GROUP BY over key columns with NULLs (kernels/hash-null-keys.ts): CPU per query at TPC-H SF 0.1
 * (600K lineitem rows), no NULLs vs a VARCHAR key that is all NULL vs one that is NULL for about half
 * the rows. Before the allocation-free lookup, the NULL cases took ~6× the CPU of the first.
 *
 *   node --import tsx bench/null-keys.ts [--runs 7]
 */
import { parseArgs } from 'node:util';
import { TableEnvironment } from '../src/index.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' } } });
const env = TableEnvironment.create({ parallelism: 1 });
env.registerTpch(0.1);
const QUERIES: Record<string, string> = {
  'no NULLs': 'SELECT l_returnflag, l_linestatus, g, sum(l_quantity) FROM (SELECT l_returnflag, l_linestatus, 1 g, l_quantity FROM lineitem) GROUP BY 1, 2, 3',
  'all NULL': 'SELECT l_returnflag, l_linestatus, g, sum(l_quantity) FROM (SELECT l_returnflag, CAST(NULL AS VARCHAR) l_linestatus, 1 g, l_quantity FROM lineitem) GROUP BY 1, 2, 3',
  'half NULL': 'SELECT l_returnflag, l_linestatus, sum(l_quantity) FROM (SELECT l_returnflag, CASE WHEN l_quantity > 25 THEN l_linestatus END l_linestatus, l_quantity FROM lineitem) GROUP BY 1, 2',
};
const samples = new Map<string, number[]>(Object.keys(QUERIES).map((k) => [k, []]));
const runs = Number(values.runs);
for (let r = 0; r < runs + 2; r++) {
  for (const [name, q] of Object.entries(QUERIES)) {
    const c0 = process.cpuUsage();
    await env.sql(q).collect();
    const c = process.cpuUsage(c0);
    if (r >= 2) samples.get(name)!.push((c.user + c.system) / 1000);
  }
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
console.log('| keys | CPU ms (median) |\n| --- | ---: |');
for (const [name, xs] of samples) console.log(`| ${name} | ${median(xs).toFixed(1)} |`);
console.log(`\n${runs} runs after 2 warm-ups, SF 0.1, parallelism 1; load average ${(await import('node:os')).loadavg()[0]!.toFixed(2)}`);
await env.close();

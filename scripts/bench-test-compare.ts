/**
 * Micro-benchmark of the differential tests' result comparison (test/helpers/compare.ts) on TPC-H
 * lineitem at SF 0.01 (60k rows × 16 columns): normalising eddy's Arrow result, DuckDB's rows, and
 * comparing them as multisets. CPU milliseconds per step, three rounds. Kept because the comparison
 * ran in every differential test: the sort-and-pair fast path took diffResults from ~600 to ~40 ms.
 *
 *   node --import tsx scripts/bench-test-compare.ts
 */
import { TableEnvironment } from '../src/api/environment.js';
import { generateTpch } from '../src/io/tpch/index.js';
import { diffResults, fromArrow, type ResultSet } from '../test/helpers/compare.js';
import { loadArrow, openDuck } from '../test/helpers/duckdb.js';

const cpuMs = (since: NodeJS.CpuUsage): number => { const u = process.cpuUsage(since); return (u.user + u.system) / 1000; };

const env = TableEnvironment.create({ parallelism: 1 }); // one thread, whatever the cores
env.registerTpch(0.01);
const duck = await openDuck();
await loadArrow(duck, 'lineitem', generateTpch(0.01).lineitem);
const arrow = await env.from('lineitem').collect();
for (let round = 0; round < 3; round++) {
  let c = process.cpuUsage();
  const actual: ResultSet = fromArrow(arrow);
  const a = cpuMs(c);
  c = process.cpuUsage();
  const expected = await duck.query('SELECT * FROM lineitem');
  const q = cpuMs(c);
  c = process.cpuUsage();
  const diff = diffResults(actual, expected);
  const d = cpuMs(c);
  if (diff !== undefined) throw new Error(diff);
  console.log(`fromArrow ${a.toFixed(0)} ms, DuckDB query + normalise ${q.toFixed(0)} ms, diffResults ${d.toFixed(0)} ms (CPU)`);
}
duck.close();
await env.close();

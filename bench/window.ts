/**
 * The window-function benchmark (issue 12): at a TPC-H scale factor (default
 * SF 1), `row_number() OVER (PARTITION BY l_orderkey ORDER BY l_linenumber)`
 * over lineitem on eddy (parallelism 1) and on DuckDB with one thread. Both
 * engines sum the row numbers, so the whole window is computed and no 6M-row
 * result crosses into JavaScript; the sums are checked equal. Medians of
 * `--runs` runs after one warm-up, with a full GC before each run.
 *
 * lineitem is generated in (l_orderkey, l_linenumber) order, and eddy notices
 * input already in window order and skips the sort; the second query orders
 * by l_linenumber DESC, so both engines must sort (eddy: the packed-key radix
 * sort).
 *
 *   npm run bench:window -- [--sf 1] [--runs 3]
 */
import { TableEnvironment } from '../src/api/environment.js';
import { generateTpch } from '../src/io/tpch/index.js';
import { openDuckDb } from './lib/duckdb-load.js';
import { timeRuns } from './lib/timing.js';

const arg = (name: string, dflt: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const SF = arg('sf', 1);
const RUNS = arg('runs', 3);

const QUERIES: readonly [string, string][] = [
  ['ORDER BY l_linenumber (the issue\'s query)', 'SELECT sum(rn) AS s FROM (SELECT row_number() OVER (PARTITION BY l_orderkey ORDER BY l_linenumber) AS rn FROM lineitem) t'],
  ['ORDER BY l_linenumber DESC (needs a sort)', 'SELECT sum(rn * l_linenumber) AS s FROM (SELECT l_linenumber, row_number() OVER (PARTITION BY l_orderkey ORDER BY l_linenumber DESC) AS rn FROM lineitem) t'],
];

async function main(): Promise<void> {
  const t0 = performance.now();
  const { lineitem } = generateTpch(SF);
  console.log(`lineitem SF ${SF}: ${lineitem.numRows} rows, generated in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const env = TableEnvironment.create({ parallelism: 1 });
  env.registerTable('lineitem', lineitem);
  const duck = await openDuckDb({ lineitem });
  await duck.connection.run('SET threads = 1');

  for (const [label, sql] of QUERIES) {
    const eddyRun = async (): Promise<bigint> => {
      const rows = await env.sql(sql).toArray();
      return BigInt(rows[0]!['s'] as bigint | number);
    };
    const duckRun = async (): Promise<bigint> => {
      const r = await duck.connection.runAndReadAll(sql);
      return BigInt(r.getRowsJS()[0]![0] as bigint | number);
    };
    const [a, b] = [await eddyRun(), await duckRun()];
    if (a !== b) throw new Error(`${label}: results differ: eddy ${a}, DuckDB ${b}`);
    const eddy = await timeRuns(eddyRun, RUNS);
    const ddb = await timeRuns(duckRun, RUNS);
    console.log(`\n${label}`);
    console.log(`  eddy (parallelism 1)   median ${eddy.medianMs.toFixed(0)} ms  runs ${eddy.samplesMs.map((x) => x.toFixed(0)).join(', ')}`);
    console.log(`  DuckDB (1 thread)      median ${ddb.medianMs.toFixed(0)} ms  runs ${ddb.samplesMs.map((x) => x.toFixed(0)).join(', ')}`);
    console.log(`  ratio eddy / DuckDB: ${(eddy.medianMs / ddb.medianMs).toFixed(2)}x (checksum ${a})`);
  }
  await env.close();
  duck.connection.closeSync?.();
}

await main();

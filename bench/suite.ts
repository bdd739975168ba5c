/**
 * `npm run bench`: the benchmark suite — all 22 TPC-H queries in SQL on eddy
 * (parallelism 1 and 2, without and with cache()), DuckDB (1 and 2 threads),
 * Arquero and hand-written loops where they exist, every answer verified
 * against DuckDB before it is timed; plus the cached-vs-recomputed workload.
 * See bench/README.md for how to read and reproduce the results.
 *
 *   npm run bench -- --quick            # SF 0.01, 1 run, eddy p1 vs DuckDB 1 thread, < 1 minute
 *   npm run bench -- --sf 0.1 --runs 5
 *   npm run bench -- --sf 1 --only q1,q6,q9 --engines duckdb-1t,eddy-p1
 */
import { parseSuiteArgs } from './suite/args.js';
import { runSuite } from './suite/main.js';

runSuite(parseSuiteArgs()).then(({ report }) => {
  const wrong = report.queries.flatMap((q) => Object.entries(q.engines).filter(([, o]) => o.status === 'wrong').map(([e]) => `${q.id} ${e}`));
  process.stderr.write(`${report.geomeans.map((g) => `geomean ${g.num}/${g.den}: ${g.value.toFixed(2)}× over ${g.queries} queries`).join('\n')}\n`);
  if (wrong.length > 0) process.stderr.write(`WRONG answers: ${wrong.join(', ')}\n`);
}).catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});

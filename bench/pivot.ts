/**
 * PIVOT and UNPIVOT over TPC-H lineitem (sql/binder/pivot.ts, unpivot.ts): process CPU and wall time per
 * query at parallelism 1 and 2, each next to the hand-written SQL it replaces, and DuckDB (1 thread) with
 * `--duckdb` (it reads the suite's Parquet files into memory first):
 *
 * - unpivot4: UNPIVOT of four columns (planned as a UNION ALL of one filtered projection per column:
 *   sql/binder/unpivot.ts), summed per name; `unpivot4-union` is the hand-written UNION ALL of one projection per
 *   column, which reads lineitem four times.
 * - pivot3: PIVOT ON l_returnflag IN (3 values) USING sum, count GROUP BY l_shipmode (planned as two
 *   GROUP BYs, DuckDB's shape: sql/binder/pivot.ts); `pivot3-long` is the plain GROUP BY l_shipmode, l_returnflag, the
 *   same numbers as rows.
 *
 *   node --expose-gc --import tsx bench/pivot.ts [--sf 0.1] [--data /work/bench-data] [--runs 5] [--warmup 2] [--only pivot3,unpivot4] [--duckdb]
 *
 * SF 0.1 is generated in process; another SF reads the suite's Arrow files (`--data`, bench/suite/data.ts).
 * The last line is JSON ({query: {p1, p2, p1Wall, p2Wall, duck?}}).
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import { tpchEnvironments } from './lib/p1-p2.js';
import { collectGarbage } from './lib/timing.js';
import { DEFAULT_DATA_DIR, ensureData } from './suite/data.js';

const { values } = parseArgs({ options: { sf: { type: 'string', default: '0.1' }, data: { type: 'string' }, runs: { type: 'string', default: '5' }, warmup: { type: 'string', default: '2' }, only: { type: 'string' }, duckdb: { type: 'boolean', default: false } } });
const sf = Number(values.sf);
const runs = Number(values.runs);
const warmup = Number(values.warmup);

const COLS = ['l_quantity', 'l_extendedprice', 'l_discount', 'l_tax'];
const union = COLS.map((c) => `SELECT '${c}' AS n, ${c} AS v FROM lineitem WHERE ${c} IS NOT NULL`).join(' UNION ALL ');
const QUERIES: Record<string, string> = {
  unpivot4: `SELECT n, count(*) AS c, sum(v) AS s FROM (UNPIVOT lineitem ON ${COLS.join(', ')} INTO NAME n VALUE v) GROUP BY n`,
  'unpivot4-union': `SELECT n, count(*) AS c, sum(v) AS s FROM (${union}) GROUP BY n`,
  pivot3: "PIVOT lineitem ON l_returnflag IN ('A', 'N', 'R') USING sum(l_quantity) AS q, count(*) AS c GROUP BY l_shipmode",
  'pivot3-long': 'SELECT l_shipmode, l_returnflag, sum(l_quantity) AS q, count(*) AS c FROM lineitem GROUP BY l_shipmode, l_returnflag',
};
const only = values.only?.split(',');
const chosen = Object.entries(QUERIES).filter(([k]) => only === undefined || only.includes(k));

const { p1, p2 } = await tpchEnvironments(sf, values.data);

let duck: Awaited<ReturnType<DuckDBInstance['connect']>> | undefined;
if (values.duckdb) {
  const data = await ensureData(sf, values.data ?? DEFAULT_DATA_DIR, (m) => console.error(m));
  const inst = await DuckDBInstance.create(':memory:', { threads: '1' });
  duck = await inst.connect();
  await duck.run(`CREATE TABLE lineitem AS FROM read_parquet('${join(data.dir, 'lineitem.parquet')}')`);
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
type Engine = 'p1' | 'p2' | 'duck';
const cpu: Record<string, Record<Engine, number[]>> = {};
const wall: Record<string, Record<Engine, number[]>> = {};
for (const [name] of chosen) { cpu[name] = { p1: [], p2: [], duck: [] }; wall[name] = { p1: [], p2: [], duck: [] }; }
const engines: [Engine, (q: string) => Promise<unknown>][] = [
  ['p1', async (q) => (await p1.executeSql(q))],
  ['p2', async (q) => (await p2.executeSql(q))],
  ...(duck ? [['duck', async (q: string) => duck!.runAndReadAll(q)] as [Engine, (q: string) => Promise<unknown>]] : []),
];
for (let r = 0; r < warmup + runs; r++) {
  for (const [name, q] of chosen) {
    for (const [e, run] of engines) {
      collectGarbage();
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await run(q);
      const t = performance.now() - t0;
      const c = process.cpuUsage(c0);
      if (r >= warmup) { cpu[name]![e].push((c.user + c.system) / 1000); wall[name]![e].push(t); }
    }
  }
}
console.log(`| query | p1 CPU ms | p1 wall ms | p2 CPU ms | p2 wall ms |${duck ? ' DuckDB 1t wall ms |' : ''}\n| --- | ---: | ---: | ---: | ---: |${duck ? ' ---: |' : ''}`);
const out: Record<string, { p1: number; p2: number; p1Wall: number; p2Wall: number; duck?: number }> = {};
for (const [name] of chosen) {
  const o = { p1: median(cpu[name]!.p1), p2: median(cpu[name]!.p2), p1Wall: median(wall[name]!.p1), p2Wall: median(wall[name]!.p2), ...(duck ? { duck: median(wall[name]!.duck) } : {}) };
  out[name] = o;
  console.log(`| ${name} | ${o.p1.toFixed(1)} | ${o.p1Wall.toFixed(1)} | ${o.p2.toFixed(1)} | ${o.p2Wall.toFixed(1)} |${o.duck === undefined ? '' : ` ${o.duck.toFixed(1)} |`}`);
}
console.log(`\nSF ${sf}, medians of ${runs} runs after ${warmup} warm-ups (engines interleaved); load average ${loadavg()[0]!.toFixed(2)}`);
console.log(JSON.stringify(out));
duck?.closeSync();
await p1.close();
await p2.close();

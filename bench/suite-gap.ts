/**
 * Diagnostic: bisects the gap between the suite's eddy times and bench/multi-core.ts's by running
 * the same queries on eddy p1 and p2 under either harness in one process, so the two can be A/B'd in
 * alternating processes: `--harness suite` times through the suite's runQuery (reference run,
 * warm-up + answer check, rotated rounds, runWithTimeout), `--harness mc` through multi-core.ts's
 * plain alternating loop; `--duck` also loads DuckDB's tables from the Parquet files and runs the
 * reference in DuckDB, as the suite does (in DuckDB's own process, as the suite does, unless
 * `--duckdb-in-process`). Prints wall, process CPU and critical-path CPU medians
 * (mc also every run's critical-path CPU, warm-ups included, to see when the JIT settles).
 *
 *   node --expose-gc --import tsx bench/suite-gap.ts --data /work/bench-data --harness suite|mc [--duck [--duckdb-in-process]] [--only q1,q6] [--runs 7] [--warmup 1]
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import '../src/sql/index.js';
import { TableEnvironment } from '../src/api/environment.js';
import { TPCH_TABLES } from '../src/io/tpch/index.js';
import { DEFAULT_DATA_DIR, ensureData, loadArrowTables } from './suite/data.js';
import { openDuckProcess } from './suite/duck-process.js';
import { openDuckInProcess, type DuckSession } from './suite/duck-session.js';
import { engineDef, type EngineContext, type Runner } from './suite/engines.js';
import { loadQueries } from './suite/queries.js';
import { runQuery, runWithTimeout } from './suite/run.js';
import { collectGarbage, median } from './lib/timing.js';

const { values } = parseArgs({ options: { harness: { type: 'string', default: 'suite' }, duck: { type: 'boolean', default: false }, only: { type: 'string', default: 'q1' }, runs: { type: 'string', default: '7' }, data: { type: 'string' }, warmup: { type: 'string', default: '1' }, p2: { type: 'boolean', default: true }, 'duckdb-in-process': { type: 'boolean', default: false } } });
const data = await ensureData(1, values.data ?? DEFAULT_DATA_DIR);
const loader = TableEnvironment.create({ parallelism: 1 });
const tables = await loadArrowTables(data, loader);
await loader.close();
const p1 = TableEnvironment.create({ parallelism: 1 });
const p2 = TableEnvironment.create({ parallelism: 2 });
for (const n of TPCH_TABLES) { p1.registerTable(n, tables[n]); p2.registerTable(n, tables[n]); }
const duck: DuckSession | undefined = values.duck ? await (values['duckdb-in-process'] ? openDuckInProcess(data) : openDuckProcess(data)) : undefined;
const runs = Number(values.runs);
const out: string[] = [];
const l0 = loadavg()[0]!;
for (const q of loadQueries(values.only!.split(','))) {
  if (values.harness === 'suite') {
    const ctx = { tables, envs: { 'eddy-p1': p1, 'eddy-p2': p2 }, duck } as unknown as EngineContext;
    const reference = duck ? engineDef('duckdb-1t', ctx) : { ...engineDef('eddy-p1', ctx), id: 'ref' };
    const defs = [engineDef('eddy-p1', ctx), ...(values.p2 ? [engineDef('eddy-p2', ctx)] : [])];
    const r = await runQuery(q, reference, defs, { runs, timeoutMs: 600_000 });
    for (const [e, o] of Object.entries(r.engines)) out.push(`${q.id} ${e} wall ${o.medianMs?.toFixed(0)} cpu ${o.cpuMedianMs?.toFixed(0)} crit ${o.criticalCpuMedianMs?.toFixed(0)}`);
  } else {
    if (duck) { await duck.exec('SET threads = 1'); await duck.query(q.sql); }
    const ctx = { tables, envs: { 'eddy-p1': p1, 'eddy-p2': p2 }, duck } as unknown as EngineContext;
    const runners = (values.p2 ? ['eddy-p1', 'eddy-p2'] as const : ['eddy-p1'] as const).map((id) => engineDef(id, ctx).runner(q)!);
    const once = async (r: Runner): Promise<{ wall: number; cpu: number; crit: number }> => {
      collectGarbage();
      const t = await runWithTimeout(r, 600_000);
      return { wall: t.ms, cpu: t.cpuMs, crit: t.criticalCpuMs ?? NaN };
    };
    const all: { wall: number; cpu: number; crit: number }[][] = runners.map(() => []);
    for (let i = 0; i < Number(values.warmup) + runs; i++) for (const [k, r] of runners.entries()) all[k]!.push(await once(r));
    for (const [k, rs0] of all.entries()) {
      const rs = rs0.slice(Number(values.warmup));
      out.push(`${q.id} eddy-p${k + 1} wall ${median(rs.map((x) => x.wall)).toFixed(0)} cpu ${median(rs.map((x) => x.cpu)).toFixed(0)} crit ${median(rs.map((x) => x.crit)).toFixed(0)} (every run incl. warm-ups: crit ${rs0.map((x) => x.crit.toFixed(0)).join(' ')})`);
    }
  }
}
console.log(`${values.harness}${values.duck ? '+duck' : ''} load ${l0.toFixed(1)}-${loadavg()[0]!.toFixed(1)} :: ${out.join(' | ')}`);
await p1.close(); await p2.close();
await duck?.close();

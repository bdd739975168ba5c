/**
 * The cached-vs-recomputed workload (FLIP-36's motivating example at the
 * SQL level): one derived table `j` — customer ⋈ orders ⋈ lineitem, filtered
 * and projected — and a sequence of six queries over it. Configurations,
 * interleaved by runQuery and each checked against DuckDB's view:
 *
 * - DuckDB, `j` a view (recomputed by every query; the reference) and a
 *   TEMP TABLE (computed once);
 * - eddy p1, `j` a view (recomputed), `j` cached (`env.cacheTable`), and `j`
 *   cached under a memory budget of a quarter of its size (so most of it is
 *   spilled and read back from disk).
 *
 * Building the cache / temp table is timed once (cold) and reported with
 * the sequence's total, so the break-even point is visible.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Table as ArrowTable } from 'apache-arrow';
import { TableEnvironment } from '../../src/api/environment.js';
import { TPCH_TABLES, type TpchTableName } from '../../src/io/tpch/index.js';
import { plainFromArrow } from '../lib/verify.js';
import type { DuckSession } from './duck-session.js';
import { duckRunner, type EngineDef, type Runner } from './engines.js';
import type { SuiteQuery } from './queries.js';
import type { QueryOutcome } from './results.js';
import { runQuery, type RunOptions } from './run.js';

/** The shared join, `j`. */
export const J_SQL = `select c_custkey, c_mktsegment, c_nationkey, o_orderkey, o_orderdate, o_orderpriority,
  l_shipmode, l_returnflag, l_quantity, l_extendedprice * (1 - l_discount) as revenue
from customer, orders, lineitem
where c_custkey = o_custkey and o_orderkey = l_orderkey and o_orderdate >= date '1995-01-01'`;

/** The sequence run on `j` (`{j}` is the table's name in each configuration). */
export const J_QUERIES: readonly { readonly id: string; readonly sql: string; readonly orderKeys: readonly string[] }[] = [
  { id: 'segments', orderKeys: ['c_mktsegment'], sql: 'select c_mktsegment, sum(revenue) as revenue, count(*) as lines from {j} group by c_mktsegment order by c_mktsegment' },
  { id: 'years', orderKeys: ['o_year'], sql: 'select o_year, sum(revenue) as revenue from (select extract(year from o_orderdate) as o_year, revenue from {j}) as y group by o_year order by o_year' },
  { id: 'top-customers', orderKeys: ['revenue', 'c_custkey'], sql: 'select c_custkey, sum(revenue) as revenue from {j} group by c_custkey order by revenue desc, c_custkey limit 10' },
  { id: 'modes', orderKeys: ['l_shipmode', 'o_orderpriority'], sql: 'select l_shipmode, o_orderpriority, count(*) as lines, avg(l_quantity) as avg_qty from {j} group by l_shipmode, o_orderpriority order by l_shipmode, o_orderpriority' },
  { id: 'returns', orderKeys: ['c_nationkey'], sql: "select c_nationkey, sum(revenue) as revenue from {j} where l_returnflag = 'R' group by c_nationkey order by c_nationkey" },
  { id: 'count', orderKeys: [], sql: 'select count(*) as lines, max(revenue) as max_revenue from {j}' },
];

/** The workload's configurations. */
export const CACHE_CONFIGS = ['duckdb-view', 'duckdb-temp', 'eddy-recomputed', 'eddy-cached', 'eddy-cached-over-budget'] as const;

/** What the workload reports. */
export interface CacheWorkloadResult {
  readonly join: string;
  readonly configs: Readonly<Record<string, string>>;
  readonly queries: readonly (QueryOutcome & { readonly sql: string })[];
  /** Cold build of the cache entry / temp table, ms. */
  readonly buildMs: Readonly<Record<string, number>>;
  readonly entry: { readonly rows: number; readonly bytes: number; readonly budgetBytes: number; readonly overBudgetMemoryBytes: number; readonly overBudgetDiskBytes: number };
  readonly cacheStats: Readonly<Record<string, string>>;
}

const LABELS: Record<(typeof CACHE_CONFIGS)[number], string> = {
  'duckdb-view': 'DuckDB 1 thread, j a view (recomputed)',
  'duckdb-temp': 'DuckDB 1 thread, j a TEMP TABLE',
  'eddy-recomputed': 'eddy p1, j a view (recomputed)',
  'eddy-cached': 'eddy p1, j cached',
  'eddy-cached-over-budget': 'eddy p1, j cached, memory budget 1/4 of its size',
};

function eddyDef(id: string, env: TableEnvironment, sql: (q: SuiteQuery) => string): EngineDef {
  return {
    id, label: LABELS[id as keyof typeof LABELS],
    runner: (q): Runner => ({ run: (signal) => env.sql(sql(q)).collect({ signal }), normalize: (raw, d) => plainFromArrow(raw as ArrowTable, d) }),
  };
}

function duckDef(id: string, duck: DuckSession, name: string, sql: (q: SuiteQuery) => string): EngineDef {
  return { id, label: LABELS[id as keyof typeof LABELS], runner: (q): Runner => duckRunner(duck, 1, sql(q).replaceAll('{j}', name)) };
}

/** Runs the workload over the loaded tables (`configs` selects; DuckDB's view is always the reference). */
export async function runCacheWorkload(
  tables: Readonly<Record<TpchTableName, ArrowTable>>, duck: DuckSession, opts: RunOptions,
  configs: readonly string[] = CACHE_CONFIGS,
): Promise<CacheWorkloadResult> {
  const log = opts.log ?? (() => {});
  const spill = mkdtempSync(join(tmpdir(), 'eddy-bench-spill-'));
  const envs: TableEnvironment[] = [];
  const make = (budget?: number): TableEnvironment => {
    const env = TableEnvironment.create({ parallelism: 1, cache: { spillDir: spill, ...(budget === undefined ? {} : { memoryBudgetBytes: budget }) } });
    for (const n of TPCH_TABLES) env.registerTable(n, tables[n]);
    envs.push(env);
    return env;
  };
  try {
    const buildMs: Record<string, number> = {};
    await duck.exec('SET threads = 1');
    await duck.exec(`CREATE OR REPLACE VIEW j AS ${J_SQL}`);
    buildMs['duckdb-temp'] = await duck.exec(`CREATE OR REPLACE TEMP TABLE j_temp AS ${J_SQL}`);

    const plain = make();
    plain.registerTable('j', plain.sql(J_SQL));
    const cachedEnv = make();
    let t0 = performance.now();
    await cachedEnv.cacheTable('j', cachedEnv.sql(J_SQL));
    buildMs['eddy-cached'] = performance.now() - t0;
    const info = cachedEnv.cacheManager.list().find((x) => x.state === 'materialized');
    const bytes = info?.bytes ?? 0;
    const budgetBytes = Math.max(1, Math.floor(bytes / 4));
    const overEnv = make(budgetBytes);
    t0 = performance.now();
    await overEnv.cacheTable('j', overEnv.sql(J_SQL));
    buildMs['eddy-cached-over-budget'] = performance.now() - t0;
    log(`cache workload: j has ${info?.rows ?? '?'} rows, ${(bytes / 1e6).toFixed(1)} MB cached; built in ${buildMs['eddy-cached']!.toFixed(0)} ms (eddy), ${buildMs['duckdb-temp']!.toFixed(0)} ms (DuckDB temp table)`);

    const text = (q: SuiteQuery): string => q.sql;
    const all: Record<string, EngineDef> = {
      'duckdb-view': duckDef('duckdb-view', duck, 'j', text),
      'duckdb-temp': duckDef('duckdb-temp', duck, 'j_temp', text),
      'eddy-recomputed': eddyDef('eddy-recomputed', plain, (q) => q.sql.replaceAll('{j}', 'j')),
      'eddy-cached': eddyDef('eddy-cached', cachedEnv, (q) => q.sql.replaceAll('{j}', 'j')),
      'eddy-cached-over-budget': eddyDef('eddy-cached-over-budget', overEnv, (q) => q.sql.replaceAll('{j}', 'j')),
    };
    const defs = CACHE_CONFIGS.filter((c) => configs.includes(c)).map((c) => all[c]!);
    const queries: (QueryOutcome & { sql: string })[] = [];
    for (const [i, jq] of J_QUERIES.entries()) {
      log(`cache workload ${jq.id}:`);
      const q: SuiteQuery = { id: jq.id, n: i + 1, title: jq.id, sql: jq.sql, orderKeys: jq.orderKeys };
      queries.push({ ...(await runQuery(q, all['duckdb-view']!, defs, opts)), sql: jq.sql });
    }
    const s1 = cachedEnv.cacheManager.stats();
    const s2 = overEnv.cacheManager.stats();
    const fmt = (s: typeof s1): string => `${s.entries} entries, ${s.hits} hits, ${s.misses} misses, ${s.lost} lost, ${s.evictions} evictions, memory ${s.memoryBytes} B, disk ${s.diskBytes} B`;
    return {
      join: J_SQL, configs: Object.fromEntries(defs.map((d) => [d.id, d.label])), queries, buildMs,
      entry: { rows: info?.rows ?? 0, bytes, budgetBytes, overBudgetMemoryBytes: s2.memoryBytes, overBudgetDiskBytes: s2.diskBytes },
      cacheStats: { 'eddy-cached': fmt(s1), 'eddy-cached-over-budget': fmt(s2) },
    };
  } finally {
    for (const e of envs) await e.close();
    await duck.exec('DROP TABLE IF EXISTS j_temp');
    await duck.exec('DROP VIEW IF EXISTS j');
    rmSync(spill, { recursive: true, force: true });
  }
}

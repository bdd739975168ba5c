/**
 * The suite's driver: prepares the data folder, loads the same files into
 * every engine (eddy environments over one set of Arrow tables; DuckDB from
 * the Parquet files), runs the selected TPC-H queries and the cache
 * workload, measures eddy's memory per query in child processes, and writes
 * bench/results/suite-sf<sf>.{json,md} and the two SVG charts.
 */
import { readFileSync } from 'node:fs';
import { arch, availableParallelism, cpus, loadavg, platform, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import '../../src/sql/index.js';
import { TableEnvironment } from '../../src/api/environment.js';
import { TPCH_TABLES } from '../../src/io/tpch/index.js';
import { arqueroTables } from '../lib/arquero-data.js';
import { probeBandwidth } from '../lib/memory-bandwidth.js';
import { gcExposed } from '../lib/timing.js';
import type { SuiteEngine, SuiteOptions } from './args.js';
import { runCacheWorkload, type CacheWorkloadResult } from './cache-workload.js';
import { DEFAULT_DATA_DIR, ensureData, loadArrowTables } from './data.js';
import { openDuckProcess } from './duck-process.js';
import { openDuckInProcess } from './duck-session.js';
import { engineDef, type EngineContext, type EngineDef } from './engines.js';
import { measureQueryMemory } from './memory.js';
import { loadQueries } from './queries.js';
import { writeSuiteFiles } from './report-files.js';
import { geomeans, type QueryOutcome, type SuiteReport } from './results.js';
import { runQuery } from './run.js';
import { cpuTicks, stealPercent } from '../lib/cpu-steal.js';

/** The default output folder, bench/results. */
export const DEFAULT_OUT_DIR = fileURLToPath(new URL('../results/', import.meta.url));

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));
const load3 = (): number[] => loadavg().map((x) => Number(x.toFixed(2)));

function pkgVersion(name: string): string {
  try {
    return (JSON.parse(readFileSync(new URL(`../../node_modules/${name}/package.json`, import.meta.url), 'utf8')) as { version: string }).version;
  } catch { return 'unknown'; }
}

/** Extra engine definitions (tests inject a deliberately wrong one). */
export interface SuiteHooks {
  readonly log?: (m: string) => void;
  readonly extraEngines?: (ctx: EngineContext) => readonly EngineDef[];
}

/** Runs the suite; returns the report and the files written. */
export async function runSuite(opts: SuiteOptions, hooks: SuiteHooks = {}): Promise<{ report: SuiteReport; files: string[] }> {
  const log = hooks.log ?? ((m: string) => { process.stderr.write(`${m}\n`); });
  const startedAt = new Date().toISOString();
  const before = load3();
  const ticks0 = cpuTicks();
  // Before anything is loaded (the probe allocates 64 MB per thread); --quick skips it.
  const bandwidth0 = opts.quick ? undefined : await probeBandwidth();
  log(`eddy bench suite: TPC-H SF ${opts.sf}, ${opts.runs} timed runs after ${opts.warmup}+ warm-up${opts.warmup === 1 ? '' : 's'}${opts.warmupMs > 0 ? ` (at least ${opts.warmupMs / 1000} s each)` : ''}, queries ${opts.queries.join(',') || 'none'}${opts.cacheWorkload ? ' + cache workload' : ''}, engines ${opts.engines.join(',')}`);
  if (!gcExposed()) log('note: run with node --expose-gc for a full GC between timed runs');

  const data = await ensureData(opts.sf, opts.dataDir ?? DEFAULT_DATA_DIR, log);
  let t0 = performance.now();
  const loader = TableEnvironment.create({ parallelism: 1 });
  const tables = await loadArrowTables(data, loader);
  await loader.close();
  const eddyLoadMs = performance.now() - t0;
  const envs: Partial<Record<SuiteEngine, TableEnvironment>> = {};
  for (const id of opts.engines) {
    if (!id.startsWith('eddy')) continue;
    const env = TableEnvironment.create({ parallelism: id.endsWith('p2') ? 2 : 1 });
    for (const n of TPCH_TABLES) env.registerTable(n, tables[n]);
    envs[id] = env;
  }
  t0 = performance.now();
  const duck = await (opts.duckdbInProcess ? openDuckInProcess(data) : openDuckProcess(data));
  const duckLoadMs = performance.now() - t0;
  const duckThreads = Number((await duck.rows(`SELECT current_setting('threads')`))[0]![0]);
  const duckVersion = String((await duck.rows('SELECT version()'))[0]![0]);
  log(`loaded: eddy ${(eddyLoadMs / 1000).toFixed(1)} s from Arrow IPC, DuckDB ${(duckLoadMs / 1000).toFixed(1)} s from Parquet in the ${duck.where} (data ${data.reused ? 'reused' : 'generated'} in ${data.dir})`);
  const ctx: EngineContext = {
    tables, envs, duck,
    ...(opts.engines.includes('arquero') ? { aq: arqueroTables(tables, [...TPCH_TABLES]) } : {}),
  };
  const reference = engineDef('duckdb-1t', ctx);
  const defs = [...opts.engines.map((e) => engineDef(e, ctx)), ...(hooks.extraEngines?.(ctx) ?? [])];

  const queries: QueryOutcome[] = [];
  let cache: CacheWorkloadResult | { error: string } | undefined;
  try {
    for (const q of loadQueries(opts.queries)) {
      log(`${q.id.toUpperCase()} (${q.title}):`);
      queries.push(await runQuery(q, reference, defs, { runs: opts.runs, warmup: opts.warmup, warmupMs: opts.warmupMs, timeoutMs: opts.timeoutMs, gc: opts.gc, log }));
    }
    if (opts.cacheWorkload) {
      try {
        cache = await runCacheWorkload(tables, duck, { runs: opts.runs, timeoutMs: opts.timeoutMs, log });
      } catch (e) {
        log(`cache workload FAILED: ${message(e)}`);
        cache = { error: message(e) };
      }
    }
  } finally {
    for (const env of Object.values(envs)) await env?.close();
    await duck.close();
  }
  if (opts.memory) {
    for (const [i, q] of queries.entries()) {
      log(`${q.id.toUpperCase()}: eddy p1 peak memory in a child process`);
      try {
        const m = await measureQueryMemory(data.dir, q.id, opts.timeoutMs + 60_000);
        log(`  +${m.deltaMb.toFixed(0)} MB over ${m.baselineMb.toFixed(0)} MB${m.error ? ` (query failed: ${m.error})` : ''}`);
        queries[i] = { ...q, memory: m };
      } catch (e) {
        queries[i] = { ...q, memory: { error: message(e).slice(0, 500) } };
      }
    }
  }

  const steal = stealPercent(ticks0, cpuTicks());
  const bandwidth1 = bandwidth0 === undefined ? undefined : await probeBandwidth();
  const report: SuiteReport = {
    benchmark: 'suite', schemaVersion: 1, sf: opts.sf, runs: opts.runs, warmupRuns: opts.warmup, warmupMs: opts.warmupMs, timeoutMs: opts.timeoutMs,
    startedAt, finishedAt: new Date().toISOString(),
    machine: {
      cpu: cpus()[0]?.model ?? 'unknown', 'logical cores': availableParallelism(), 'memory GB': Number((totalmem() / 1e9).toFixed(1)),
      os: `${platform()} ${release()} ${arch()}`, node: process.version, 'GC between runs': String(gcExposed()),
    },
    versions: {
      eddy: (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version,
      duckdb: duckVersion, '@duckdb/node-api': pkgVersion('@duckdb/node-api'), arquero: pkgVersion('arquero'), 'apache-arrow': pkgVersion('apache-arrow'), node: process.version,
    },
    load: { before, after: load3() },
    ...(steal === undefined ? {} : { stealPct: Number(steal.toFixed(1)) }),
    ...(bandwidth0 === undefined || bandwidth1 === undefined ? {} : { memoryBandwidth: { before: bandwidth0, after: bandwidth1 } }),
    data: {
      dir: data.dir, reused: data.reused, 'lineitem rows': data.manifest.rows.lineitem,
      'eddy input': 'Arrow IPC files read with env.fromArrowFile(...).collect(), registered in memory (not timed)',
      'DuckDB input': 'CREATE TABLE ... AS SELECT * FROM read_parquet(...) (not timed)',
      'eddy load s': Number((eddyLoadMs / 1000).toFixed(2)), 'DuckDB load s': Number((duckLoadMs / 1000).toFixed(2)),
      'DuckDB default threads': duckThreads,
      'DuckDB process': duck.where === 'own process' ? 'its own (bench/suite/duck-session.ts says why)' : 'the suite\'s (--duckdb-in-process)',
    },
    engines: defs.map((d) => d.id),
    engineLabels: Object.fromEntries(defs.map((d) => [d.id, d.label])),
    queries,
    geomeans: geomeans(queries),
    cpuGeomeans: geomeans(queries, 'cpu'),
    workloads: cache ? { cache } : {},
  };
  const files = writeSuiteFiles(report, opts.outDir ?? DEFAULT_OUT_DIR);
  for (const f of files) log(`wrote ${f}`);
  return { report, files: files.map((f) => join(f)) };
}

/**
 * `npm run bench:core`: TPC-H Q1, Q3 and Q6 on eddy, DuckDB (in-process, all
 * threads and one thread), Arquero and — for Q6 — a hand-written typed-array
 * loop, all on the same generated Arrow data. Each (query, engine) runs once
 * to warm up and to check its result against DuckDB's, then `--runs` timed
 * runs; the report gives medians and eddy's ratios, plus eddy's peak memory
 * per query measured in fresh child processes (see lib/memory.ts).
 *
 *   npm run bench:core -- --sf 1 --runs 5
 *   node --expose-gc --import tsx bench/core.ts --only q6 --engines eddy --no-memory --profile /tmp/q6.cpuprofile
 *
 * Writes bench/results/core.md and core.json on full runs (`--write` forces,
 * `--no-write` suppresses); the Markdown also goes to stdout.
 */
import { availableParallelism, cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Table as ArrowTable } from 'apache-arrow';
import type { TableEnvironment } from '../src/api/environment.js';
import { generateTpch, TPCH_TABLES, type TpchTableName } from '../src/io/tpch/index.js';
import { parseBenchArgs, type BenchOptions, type Engine } from './lib/args.js';
import { arqueroFlatTables, arqueroTables, type AqTable } from './lib/arquero-data.js';
import { openDuckDb, type DuckDb } from './lib/duckdb-load.js';
import { measureMemory, runMemoryChild } from './lib/memory.js';
import { selectQueries, type BenchQuery } from './lib/queries.js';
import { toMarkdown, writeReport, type CoreReport, type EngineResult, type QueryResult } from './lib/report.js';
import { startProfiler, saveProfile } from './lib/profile.js';
import { gcExposed, timeRuns } from './lib/timing.js';
import { compareResults, plainFromArrow, plainFromObjects, type PlainResult } from './lib/verify.js';

const log = (msg: string): void => { process.stderr.write(`${msg}\n`); };
const message = (e: unknown): string => (e instanceof Error ? (e.name === 'Error' ? e.message : `${e.name}: ${e.message}`) : String(e));

/** How one engine runs one query and normalises its output. */
interface Runner {
  readonly run: () => Promise<unknown>;
  readonly normalize: (out: unknown) => PlainResult;
  readonly before?: () => Promise<void>;
  readonly after?: () => Promise<void>;
}

interface Context {
  readonly tables: Record<TpchTableName, ArrowTable>;
  readonly env?: TableEnvironment;
  readonly duck?: DuckDb;
  readonly aq?: Record<string, AqTable>;
  readonly aqFlat?: Record<string, AqTable>;
  readonly eddyLoadError?: string;
}

function runnerFor(engine: Engine, q: BenchQuery, ctx: Context): Runner | undefined {
  switch (engine) {
    case 'eddy': {
      const env = ctx.env;
      if (!env) return { run: () => Promise.reject(new Error(ctx.eddyLoadError ?? 'eddy not loaded')), normalize: () => ({ columns: [], rows: [] }) };
      return { run: () => q.tpch.build(env).collect(), normalize: (t) => plainFromArrow(t as ArrowTable, q.dateColumns) };
    }
    case 'duckdb':
    case 'duckdb-1t': {
      const con = ctx.duck!.connection;
      const threads = ctx.duck!.threads;
      return {
        run: () => con.runAndReadAll(q.tpch.sql),
        normalize: (r) => {
          const reader = r as Awaited<ReturnType<typeof con.runAndReadAll>>;
          return plainFromObjects(reader.getRowObjectsJS(), reader.columnNames(), q.dateColumns);
        },
        ...(engine === 'duckdb-1t' ? {
          before: async () => { await con.run('SET threads = 1'); },
          after: async () => { await con.run(`SET threads = ${threads}`); },
        } : {}),
      };
    }
    case 'arquero':
    case 'arquero-flat': {
      const t = engine === 'arquero' ? ctx.aq! : ctx.aqFlat!;
      return {
        run: async () => { const r = q.arquero(t); return { names: r.columnNames(), rows: r.objects() }; },
        normalize: (o) => {
          const { names, rows } = o as { names: string[]; rows: Record<string, unknown>[] };
          return plainFromObjects(rows, names, q.dateColumns);
        },
      };
    }
    case 'hand-loop': {
      const loop = q.handLoop;
      if (!loop) return undefined;
      return {
        run: async () => loop(ctx.tables),
        normalize: (o) => plainFromObjects([o as Record<string, number>], Object.keys(o as object), q.dateColumns),
      };
    }
  }
}

async function runEngine(engine: Engine, r: Runner, q: BenchQuery, runs: number, reference: PlainResult | undefined, profilePath?: string): Promise<{ result: EngineResult; plain?: PlainResult }> {
  try {
    await r.before?.();
    const plain = r.normalize(await r.run());
    const problems = reference ? compareResults(plain, reference) : [];
    const check = reference ? (problems.length === 0 ? 'ok' : 'mismatch') : 'reference';
    if (check === 'mismatch') log(`  ${engine}: result differs from the reference: ${problems.join('; ')}`);
    const profiler = profilePath ? await startProfiler() : undefined;
    const timing = await timeRuns(r.run, runs, !profiler);
    if (profiler && profilePath) log(`  ${engine} profile of the timed runs (${profilePath}):\n${saveProfile(await profiler.stop(), profilePath)}`);
    log(`  ${engine}: median ${timing.medianMs.toFixed(1)} ms (${timing.samplesMs.map((x) => x.toFixed(0)).join(', ')})`);
    return { result: { timing, check, rows: plain.rows.length, ...(problems.length ? { problems } : {}) }, plain };
  } catch (e) {
    log(`  ${engine}: FAILED ${message(e)}`);
    return { result: { check: 'not-run', error: message(e).slice(0, 500) } };
  } finally {
    await r.after?.();
  }
}

async function main(opts: BenchOptions): Promise<void> {
  if (opts.memChild) {
    await runMemoryChild(selectQueries([opts.memChild])[0]!, opts.sf, opts.parallelism);
    return;
  }
  const queries = selectQueries(opts.only);
  const loadStart = loadavg()[0] ?? 0;
  const has = (e: Engine): boolean => opts.engines.includes(e);
  log(`eddy bench:core — TPC-H SF ${opts.sf}, ${opts.runs} runs, queries ${queries.map((q) => q.id).join(',')}, engines ${opts.engines.join(',')}`);
  if (!gcExposed()) log('note: run with node --expose-gc for a full GC between timed runs');

  let t0 = performance.now();
  const tables = generateTpch(opts.sf);
  const genMs = performance.now() - t0;
  log(`generated TPC-H SF ${opts.sf} in ${(genMs / 1000).toFixed(1)} s (lineitem ${tables.lineitem.numRows} rows)`);
  const needed = [...new Set(queries.flatMap((q) => q.tables))];

  let env: TableEnvironment | undefined;
  let eddyLoadError: string | undefined;
  if (has('eddy')) {
    // Loaded lazily: the peers still run when the engine does not load.
    try {
      const { TableEnvironment } = await import('../src/api/environment.js');
      env = TableEnvironment.create({ parallelism: opts.parallelism });
      for (const name of TPCH_TABLES) env.registerTable(name, tables[name]);
    } catch (e) {
      eddyLoadError = message(e);
      log(`eddy failed to load: ${eddyLoadError}`);
    }
  }
  let duck: (DuckDb & { loadMs: number }) | undefined;
  if (has('duckdb') || has('duckdb-1t')) {
    duck = await openDuckDb(Object.fromEntries(needed.map((n) => [n, tables[n]])));
    log(`loaded ${needed.join(', ')} into DuckDB in ${(duck.loadMs / 1000).toFixed(1)} s (${duck.threads} threads)`);
  }
  t0 = performance.now();
  const aq = has('arquero') ? arqueroTables(tables, needed) : undefined;
  const aqMs = performance.now() - t0;
  t0 = performance.now();
  const aqFlat = has('arquero-flat') ? arqueroFlatTables(tables, needed) : undefined;
  const aqFlatMs = performance.now() - t0;

  const ctx: Context = { tables, ...(env ? { env } : {}), ...(duck ? { duck } : {}), ...(aq ? { aq } : {}), ...(aqFlat ? { aqFlat } : {}), ...(eddyLoadError ? { eddyLoadError } : {}) };
  const results: QueryResult[] = [];
  for (const q of queries) {
    log(`${q.id.toUpperCase()}:`);
    const engines: Partial<Record<Engine, EngineResult>> = {};
    // DuckDB first: it is the reference every other engine is checked against.
    const order = [...opts.engines].sort((a, b) => Number(b === 'duckdb') - Number(a === 'duckdb'));
    let reference: PlainResult | undefined;
    for (const e of order) {
      const r = runnerFor(e, q, ctx);
      if (!r) continue;
      const single = queries.length === 1 && opts.engines.length === 1;
      const prof = opts.profile && (single ? opts.profile : opts.profile.replace(/(\.cpuprofile)?$/, `-${q.id}-${e}.cpuprofile`));
      const { result, plain } = await runEngine(e, r, q, opts.runs, reference, prof);
      engines[e] = result;
      if (!reference && plain && !result.error) reference = plain;
    }
    results.push({ id: q.id, engines });
  }
  duck?.connection.closeSync();
  duck?.instance.closeSync();

  if (opts.memory && env) {
    for (const [i, q] of queries.entries()) {
      log(`${q.id.toUpperCase()}: measuring eddy peak memory in a child process`);
      try {
        const m = await measureMemory(q.id, opts.sf, opts.parallelism);
        log(`  +${m.deltaMb.toFixed(0)} MB over ${m.baselineMb.toFixed(0)} MB${m.error ? ` (query failed: ${m.error})` : ''}`);
        results[i] = { ...results[i]!, memory: m };
      } catch (e) {
        log(`  FAILED ${message(e)}`);
        results[i] = { ...results[i]!, memory: { error: message(e).slice(0, 500) } };
      }
    }
  }

  const report: CoreReport = {
    benchmark: 'core', sf: opts.sf, runs: opts.runs,
    environment: {
      node: process.version,
      cpu: cpus()[0]?.model ?? 'unknown',
      'logical cores': availableParallelism(),
      'load average at start (1 min)': Number(loadStart.toFixed(2)),
      'load average at end (1 min)': Number((loadavg()[0] ?? 0).toFixed(2)),
      'eddy parallelism': opts.parallelism,
      'eddy batch size': env?.options.batchSize ?? 65536,
      'DuckDB threads': duck?.threads ?? 'not run',
      'DuckDB load': 'appender data chunks from the generated Arrow tables (not timed)',
      'Arquero input': 'aq.fromArrow(apache-arrow Table), zero-copy over the same batches',
      'GC between runs': gcExposed(),
      'TPC-H generation s': Number((genMs / 1000).toFixed(1)),
      'DuckDB load s': duck ? Number((duck.loadMs / 1000).toFixed(1)) : 'not run',
      'Arquero flat input': 'aq.table of flat typed arrays / string arrays copied from the same data (Arquero\'s native layout)',
      'Arquero wrap ms': Number(aqMs.toFixed(1)),
      'Arquero flat build s': Number((aqFlatMs / 1000).toFixed(1)),
      memory: 'fresh child process per query: peak RSS while the query runs once, cold (VmHWM, reset via /proc/self/clear_refs after loading) minus RSS with all 8 tables generated and registered, after full GC',
    },
    queries: results,
  };
  const md = toMarkdown(report);
  process.stdout.write(md);
  if (opts.write) {
    const dir = fileURLToPath(new URL('./results/', import.meta.url));
    writeReport(report, `${dir}core.md`, `${dir}core.json`);
    log(`wrote ${dir}core.md and core.json`);
  }
}

main(parseBenchArgs()).catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});

/**
 * Peak memory of one TPC-H query on eddy, measured as in bench/lib/memory.ts but for the
 * suite's SQL: a fresh child process loads the Arrow files of the data folder, registers
 * them, collects garbage, reads its resident size (baseline), resets the peak counter, runs
 * `env.sql(text).collect()` once cold and prints peak − baseline as JSON.
 *
 * The suite calls `measureQueryMemory` (parallelism 1, one run). From the command line it
 * also measures parallelism 2 and later runs, so the one-time costs of a first shipped query
 * (the worker threads, a table's copy into SharedArrayBuffers) show apart from a warm run's:
 *
 *   node --expose-gc --import tsx bench/suite/memory.ts /work/bench-data/sf-1 q18 [--parallelism 2] [--runs 2]
 *
 * prints one JSON line per run: its time, its peak over the baseline, and what it left
 * behind after a full GC (RSS, `external` and `arrayBuffers` of process.memoryUsage(), which
 * count SharedArrayBuffers too).
 *
 * The loaded Arrow tables are registered and then dropped by the harness, as an application
 * that loads data into eddy and keeps only the environment would: a table the caller still
 * holds keeps its own buffers alive whatever eddy does with its copy. They are read by the
 * measured environment itself (`fromArrowFile` + `collect`), as a user with one environment
 * would: at parallelism 2 their columns are then read into SharedArrayBuffers at load
 * (io/column-memory.ts), and the first shipped query copies only what collect() rebuilt (the
 * dictionary columns it decodes). Until 2026-12-06 a parallelism-1 loader read them, and the
 * first shipped query copied every shipped column into shared memory.
 */
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { TPCH_TABLES } from '../../src/io/tpch/index.js';
import type { TableEnvironment } from '../../src/api/environment.js';
import { measureAndPrint, resetPeak, statusKb, type MemoryResult } from '../lib/memory.js';
import { collectGarbage } from '../lib/timing.js';
import { loadQueries } from './queries.js';

const SELF = fileURLToPath(import.meta.url);

/** An environment at `parallelism` with the data folder's tables, read by it, registered (the loaded Arrow tables are not kept). */
async function loadedEnvironment(dir: string, parallelism: number): Promise<TableEnvironment> {
  await import('../../src/sql/index.js');
  const { TableEnvironment } = await import('../../src/api/environment.js');
  const { loadArrowTables } = await import('./data.js');
  const { readFileSync } = await import('node:fs');
  const manifest = JSON.parse(readFileSync(`${dir}/manifest.json`, 'utf8'));
  const env = TableEnvironment.create({ parallelism });
  const tables = await loadArrowTables({ dir, manifest, reused: true }, env);
  for (const name of TPCH_TABLES) env.registerTable(name, tables[name]);
  return env;
}

/** The suite's child: one cold run at parallelism 1, printed as MemoryResult. */
async function child(dir: string, queryId: string): Promise<void> {
  const env = await loadedEnvironment(dir, 1);
  const q = loadQueries([queryId])[0]!;
  await measureAndPrint(() => env.sql(q.sql).collect());
}

/** One run of the command-line measurement (MB = 1e6 bytes; deltas against the baseline after loading). */
interface RunMemory {
  readonly query: string;
  readonly parallelism: number;
  readonly run: number;
  readonly ms: number;
  /** Peak RSS during the run over the baseline RSS. */
  readonly peakMb: number;
  /** After the run and a full GC: RSS, external and arrayBuffers over the baseline's. */
  readonly rssMb: number;
  readonly externalMb: number;
  readonly arrayBuffersMb: number;
  readonly baselineRssMb: number;
  readonly baselineArrayBuffersMb: number;
}

const settle = async (): Promise<void> => { collectGarbage(); await new Promise((r) => setTimeout(r, 50)); collectGarbage(); };

/** `runs` runs of one query at `parallelism`, one JSON line each (RunMemory). */
async function runsChild(dir: string, queryId: string, parallelism: number, runs: number): Promise<void> {
  let env: TableEnvironment | undefined = await loadedEnvironment(dir, parallelism);
  const q = loadQueries([queryId])[0]!;
  await settle();
  const base = process.memoryUsage();
  const mb = (n: number): number => Math.round(n / 1e4) / 100;
  for (let run = 1; run <= runs; run++) {
    resetPeak();
    const t0 = performance.now();
    await env.sql(q.sql).collect();
    const ms = performance.now() - t0;
    const peakKb = statusKb('VmHWM') ?? process.resourceUsage().maxRSS;
    await settle();
    const m = process.memoryUsage();
    const out: RunMemory = {
      query: queryId, parallelism, run, ms: Math.round(ms * 10) / 10,
      peakMb: mb(peakKb * 1024 - base.rss), rssMb: mb(m.rss - base.rss), externalMb: mb(m.external - base.external),
      arrayBuffersMb: mb(m.arrayBuffers - base.arrayBuffers), baselineRssMb: mb(base.rss), baselineArrayBuffersMb: mb(base.arrayBuffers),
    };
    process.stdout.write(`${JSON.stringify(out)}\n`);
  }
  await env.close();
  env = undefined;
}

/** Measures `queryId` over the data folder `dir` in a child process; rejects after `timeoutMs`. */
export function measureQueryMemory(dir: string, queryId: string, timeoutMs: number): Promise<MemoryResult> {
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', SELF, dir, queryId, '--suite-child'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const timer = setTimeout(() => { c.kill('SIGKILL'); reject(new Error(`memory child for ${queryId} timed out after ${timeoutMs / 1000} s`)); }, timeoutMs);
    c.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    c.stderr.on('data', (d: Buffer) => { err += d.toString(); });
    c.on('error', (e) => { clearTimeout(timer); reject(e); });
    c.on('close', (code) => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(out.trim().split('\n').pop() ?? '') as MemoryResult);
      } catch {
        reject(new Error(`memory child for ${queryId} exited with ${code}: ${(err.trim() || out.trim()).slice(-1000)}`));
      }
    });
  });
}

if (process.argv[1] === SELF) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { parallelism: { type: 'string', default: '1' }, runs: { type: 'string', default: '2' }, 'suite-child': { type: 'boolean', default: false } },
  });
  const [dir, queryId] = positionals as [string, string];
  const work = values['suite-child'] ? child(dir, queryId) : runsChild(dir, queryId, Number(values.parallelism), Number(values.runs));
  work.catch((e: unknown) => { console.error(e); process.exit(1); });
}

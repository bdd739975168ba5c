/**
 * Command-line options of the suite (`npm run bench -- --sf 0.1 --only q1,q6 --engines eddy-p1,duckdb-1t`).
 * `--quick` is a preset (SF 0.01, 1 timed run, 1 warm-up, eddy p1 and DuckDB 1 thread, no memory
 * children, a short cache workload); explicit flags given with it still win.
 *
 * Warm-up by default: at least three runs and at least one second per (query, engine) (run.ts). eddy's
 * code reaches its steady tier only after a number of runs of a query, its worker threads' later than
 * the calling thread (each worker is a V8 isolate of its own that sees part of the rows): with one
 * warm-up two of five timed p2 runs were still warming, and with three a ~50 ms query (TPC-H Q3 at p2)
 * still compiled two or three functions with TurboFan in each timed run, in each isolate.
 */
import { parseArgs } from 'node:util';

/** Every engine configuration the suite knows. */
export const SUITE_ENGINES = [
  'duckdb-1t', 'duckdb-2t', 'eddy-p1', 'eddy-p2', 'eddy-cached-p1', 'eddy-cached-p2', 'arquero', 'hand-loop',
] as const;
/** One engine configuration. */
export type SuiteEngine = (typeof SUITE_ENGINES)[number];

/** The workloads: the 22 TPC-H queries (q1..q22) and the cached-vs-recomputed sequence. */
export const WORKLOADS = ['tpch', 'cache'] as const;

/** Parsed options. */
export interface SuiteOptions {
  readonly sf: number;
  /** Timed runs per (query, engine), after `warmup` untimed runs. */
  readonly runs: number;
  /** Untimed runs per (query, engine) before the timed ones, at least (the first checks the answer). */
  readonly warmup: number;
  /** Wall ms of untimed runs per (query, engine) after the answer check, at least: more warm-up runs until then (run.ts MAX_WARMUP_RUNS at most). */
  readonly warmupMs: number;
  /** TPC-H query ids (`q1`..`q22`) to run. */
  readonly queries: readonly string[];
  /** Whether the cached-vs-recomputed workload runs. */
  readonly cacheWorkload: boolean;
  readonly engines: readonly SuiteEngine[];
  /** Per (query, engine) run limit, ms. */
  readonly timeoutMs: number;
  /** Measure eddy p1's peak memory per query in child processes. */
  readonly memory: boolean;
  /** Where results go (bench/results by default). */
  readonly outDir: string | undefined;
  /** Where the generated data is cached (bench/.data by default). */
  readonly dataDir: string | undefined;
  readonly quick: boolean;
  /** Run DuckDB in the suite's process instead of its own (./duck-session.ts: DuckDB's malloc_trim then discards eddy's free heap pages; for reproducing that). */
  readonly duckdbInProcess?: boolean;
  /** The GC between runs: 'young' (a scavenge, ../lib/timing.ts collectGarbage) or 'major' (a mark-compact, collectGarbageMajor). */
  readonly gc?: 'young' | 'major';
}

const ALL_QUERIES = Array.from({ length: 22 }, (_, i) => `q${i + 1}`);

const USAGE = `usage: npm run bench -- [--quick] [--sf 1] [--runs 5] [--warmup 3] [--warmup-s 1] [--only q1,q6,cache]
                      [--engines ${SUITE_ENGINES.join(',')}]
                      [--timeout-s 120] [--no-memory] [--out dir] [--data dir] [--duckdb-in-process] [--gc young|major]
  --only takes query ids q1..q22 (or 1..22) and the workload name "cache" (default: all 22 and cache)`;

/** Parses argv; exits with the usage on bad input. */
export function parseSuiteArgs(argv: readonly string[] = process.argv.slice(2)): SuiteOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      quick: { type: 'boolean', default: false },
      sf: { type: 'string' },
      runs: { type: 'string' },
      warmup: { type: 'string' },
      'warmup-s': { type: 'string' },
      only: { type: 'string' },
      engines: { type: 'string' },
      'timeout-s': { type: 'string', default: '120' },
      'no-memory': { type: 'boolean', default: false },
      out: { type: 'string' },
      data: { type: 'string' },
      'duckdb-in-process': { type: 'boolean', default: false },
      gc: { type: 'string', default: 'young' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) { console.log(USAGE); process.exit(0); }
  const fail = (msg: string): never => { console.error(`${msg}\n${USAGE}`); process.exit(2); };
  const quick = values.quick === true;
  const sf = Number(values.sf ?? (quick ? '0.01' : '1'));
  const runs = Number(values.runs ?? (quick ? '1' : '5'));
  const warmup = Number(values.warmup ?? (quick ? '1' : '3'));
  const warmupS = Number(values['warmup-s'] ?? (quick ? '0' : '1'));
  const timeoutS = Number(values['timeout-s']);
  if (!(sf > 0 && sf <= 100)) fail(`--sf must be a number in (0, 100], got ${values.sf}`);
  if (!Number.isInteger(runs) || runs < 1) fail(`--runs must be a positive integer, got ${values.runs}`);
  if (!Number.isInteger(warmup) || warmup < 1) fail(`--warmup must be a positive integer (the first run checks the answer), got ${values.warmup}`);
  if (!(warmupS >= 0 && warmupS <= 60)) fail(`--warmup-s must be a number of seconds in [0, 60], got ${values['warmup-s']}`);
  if (!(timeoutS > 0)) fail(`--timeout-s must be positive, got ${values['timeout-s']}`);
  if (values.gc !== 'young' && values.gc !== 'major') fail(`--gc must be young or major, got ${values.gc}`);
  const only = values.only ? values.only.toLowerCase().split(',').map((s) => s.trim()).filter(Boolean).map((s) => (/^\d+$/.test(s) ? `q${Number(s)}` : s)) : [...ALL_QUERIES, 'cache'];
  for (const o of only) if (o !== 'cache' && !ALL_QUERIES.includes(o)) fail(`unknown query or workload "${o}"`);
  const defaultEngines: readonly SuiteEngine[] = quick ? ['duckdb-1t', 'eddy-p1', 'hand-loop'] : SUITE_ENGINES;
  const engines = values.engines ? values.engines.split(',').map((s) => s.trim()) : [...defaultEngines];
  for (const e of engines) if (!(SUITE_ENGINES as readonly string[]).includes(e)) fail(`unknown engine "${e}"`);
  return {
    sf, runs, warmup, warmupMs: warmupS * 1000, quick,
    queries: ALL_QUERIES.filter((q) => only.includes(q)),
    cacheWorkload: only.includes('cache'),
    engines: SUITE_ENGINES.filter((e) => engines.includes(e)),
    timeoutMs: timeoutS * 1000,
    memory: !values['no-memory'] && !quick && engines.some((e) => e.startsWith('eddy')),
    outDir: values.out,
    dataDir: values.data,
    duckdbInProcess: values['duckdb-in-process'] === true,
    gc: values.gc as 'young' | 'major',
  };
}

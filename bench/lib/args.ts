/**
 * Command-line options of the benchmark (`tsx bench/core.ts --sf 1 --runs 5`).
 */
import { parseArgs } from 'node:util';

/** The engines the core benchmark can run. */
export const ENGINES = ['eddy', 'duckdb', 'duckdb-1t', 'arquero', 'arquero-flat', 'hand-loop'] as const;
/** One engine. */
export type Engine = (typeof ENGINES)[number];

/** Parsed options. */
export interface BenchOptions {
  /** TPC-H scale factor. */
  readonly sf: number;
  /** Timed runs per (query, engine), after one warm-up run. */
  readonly runs: number;
  /** Query ids to run, lower case (`q1`, `q3`, `q6`). */
  readonly only: readonly string[];
  /** Engines to run. */
  readonly engines: readonly Engine[];
  /** eddy's parallelism (subtasks per parallel operator). */
  readonly parallelism: number;
  /** Measure eddy's peak memory per query in child processes. */
  readonly memory: boolean;
  /** Write bench/results/core.{md,json} (off for partial runs unless forced). */
  readonly write: boolean;
  /** Profile the timed runs; write the .cpuprofile here (suffixed -<query>-<engine> unless one of each) and print hot spots. */
  readonly profile: string | undefined;
  /** Internal: run as a memory-measuring child for this query id. */
  readonly memChild: string | undefined;
}

const USAGE = `usage: tsx bench/core.ts [--sf 1] [--runs 5] [--only q1,q3,q6] [--engines ${ENGINES.join(',')}]
                          [--parallelism 1] [--no-memory] [--no-write | --write]
                          [--profile out.cpuprofile]   (profiles the timed runs, prints hot spots)`;

/** Parses process.argv. Exits with usage on bad input. */
export function parseBenchArgs(argv: readonly string[] = process.argv.slice(2)): BenchOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      sf: { type: 'string', default: '1' },
      runs: { type: 'string', default: '5' },
      only: { type: 'string' },
      engines: { type: 'string' },
      parallelism: { type: 'string', default: '1' },
      'no-memory': { type: 'boolean', default: false },
      write: { type: 'boolean' },
      'no-write': { type: 'boolean', default: false },
      'mem-child': { type: 'string' },
      profile: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) { console.log(USAGE); process.exit(0); }
  const sf = Number(values.sf);
  const runs = Number(values.runs);
  const parallelism = Number(values.parallelism);
  const fail = (msg: string): never => { console.error(`${msg}\n${USAGE}`); process.exit(2); };
  if (!(sf > 0 && sf <= 100)) fail(`--sf must be a number in (0, 100], got ${values.sf}`);
  if (!Number.isInteger(runs) || runs < 1) fail(`--runs must be a positive integer, got ${values.runs}`);
  if (!Number.isInteger(parallelism) || parallelism < 1) fail(`--parallelism must be a positive integer, got ${values.parallelism}`);
  const only = values.only ? values.only.toLowerCase().split(',').map((s) => s.trim()).filter(Boolean) : ['q1', 'q3', 'q6'];
  const engines = values.engines ? values.engines.split(',').map((s) => s.trim()) : [...ENGINES];
  for (const e of engines) if (!(ENGINES as readonly string[]).includes(e)) fail(`unknown engine "${e}"`);
  const partial = values.only !== undefined || values.engines !== undefined;
  return {
    sf, runs, only, parallelism,
    engines: engines as Engine[],
    memory: !values['no-memory'] && engines.includes('eddy'),
    write: values['no-write'] ? false : values.write ?? !partial,
    memChild: values['mem-child'],
    profile: values.profile,
  };
}

/**
 * Command-line options of the cache benchmark (`tsx bench/cache.ts --sf 1 --runs 5`).
 */
import { parseArgs } from 'node:util';

/** Parsed options of `bench:cache`. */
export interface CacheBenchOptions {
  /** TPC-H scale factor. */
  readonly sf: number;
  /** Timed runs per measurement, after one warm-up run. */
  readonly runs: number;
  /** eddy's parallelism (also the number of cache service instances). */
  readonly parallelism: number;
  /** Total cache memory budget in bytes (undefined: the engine's default). */
  readonly budgetBytes: number | undefined;
  /** Write bench/results/cache.{md,json}. */
  readonly write: boolean;
  /** Profile the timed first runs and cached reads; `<prefix>-first.cpuprofile` and `<prefix>-cached.cpuprofile`, hot spots on stderr. */
  readonly profile: string | undefined;
}

const USAGE = `usage: tsx bench/cache.ts [--sf 1] [--runs 5] [--parallelism 1] [--budget-mb N]
                           [--no-write | --write] [--profile out]   (profiles first runs and cached reads, prints hot spots)`;

/** Parses process.argv; exits with the usage on bad input. */
export function parseCacheBenchArgs(argv: readonly string[] = process.argv.slice(2)): CacheBenchOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      sf: { type: 'string', default: '1' },
      runs: { type: 'string', default: '5' },
      parallelism: { type: 'string', default: '1' },
      'budget-mb': { type: 'string' },
      write: { type: 'boolean' },
      'no-write': { type: 'boolean', default: false },
      profile: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) { console.log(USAGE); process.exit(0); }
  const fail = (msg: string): never => { console.error(`${msg}\n${USAGE}`); process.exit(2); };
  const sf = Number(values.sf);
  const runs = Number(values.runs);
  const parallelism = Number(values.parallelism);
  const budgetMb = values['budget-mb'] === undefined ? undefined : Number(values['budget-mb']);
  if (!(sf > 0 && sf <= 100)) fail(`--sf must be a number in (0, 100], got ${values.sf}`);
  if (!Number.isInteger(runs) || runs < 1) fail(`--runs must be a positive integer, got ${values.runs}`);
  if (!Number.isInteger(parallelism) || parallelism < 1) fail(`--parallelism must be a positive integer, got ${values.parallelism}`);
  if (budgetMb !== undefined && !(budgetMb >= 0)) fail(`--budget-mb must be a number ≥ 0, got ${values['budget-mb']}`);
  return {
    sf, runs, parallelism,
    budgetBytes: budgetMb === undefined ? undefined : Math.floor(budgetMb * 1024 * 1024),
    write: values['no-write'] ? false : values.write ?? true,
    profile: values.profile,
  };
}

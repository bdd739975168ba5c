/**
 * The command line of the random differential test (`npm run test:diff`):
 *
 *   npm run test:diff -- --count 2000 --seed 1 [--parallelism 4] [--batch-size B] [--verbose]
 *     [--index I] [--timeout MS] [--no-shrink] [--exclude f1,f2] [--all] [--print]
 *
 * Exits with status 1 when a query fails.
 */
import { parseArgs } from 'node:util';
import { openEngines } from './engines.js';
import { ALL_FEATURES, featuresExcept, KNOWN_GAPS, type Feature } from './features.js';
import { generateQuery } from './query-gen.js';
import { formatStats, querySeed, runRandom } from './runner.js';

const USAGE = `usage: npm run test:diff -- [--count N] [--seed S] [--parallelism P] [--batch-size B] [--verbose]
  [--index I] [--timeout MS] [--no-shrink] [--exclude feature,...] [--all] [--print]
features: ${ALL_FEATURES.join(', ')}
--all also generates the known gaps (${KNOWN_GAPS.join(', ')}), left out by default`;

function int(name: string, v: string | undefined, dflt: number): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} expects a non-negative integer, got "${v}"\n${USAGE}`);
  return n;
}

/** Runs the CLI; returns the process exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      count: { type: 'string' }, seed: { type: 'string' }, parallelism: { type: 'string' }, 'batch-size': { type: 'string' }, verbose: { type: 'boolean' },
      index: { type: 'string' }, timeout: { type: 'string' }, 'no-shrink': { type: 'boolean' }, exclude: { type: 'string' },
      print: { type: 'boolean' }, all: { type: 'boolean' }, help: { type: 'boolean' },
    },
  });
  if (values.help) { console.log(USAGE); return 0; }
  const count = int('count', values.count, 200);
  const seed = int('seed', values.seed, 1);
  const parallelism = int('parallelism', values.parallelism, 1);
  const index = values.index === undefined ? undefined : int('index', values.index, 0);
  const excluded = (values.exclude ?? '').split(',').filter((s) => s !== '') as Feature[];
  const features = featuresExcept([...new Set([...(values.all ? [] : KNOWN_GAPS), ...excluded])]);
  const batchSize = int('batch-size', values['batch-size'], 0);
  const engines = await openEngines({ parallelism, ...(batchSize > 0 ? { batchSize } : {}) });
  try {
    if (values.print) {
      const idx = index !== undefined ? [index] : [...Array(count).keys()];
      for (const i of idx) console.log(`-- #${i}\n${generateQuery(querySeed(seed, i), engines.catalog, features).sql};`);
      return 0;
    }
    console.log(`random SQL vs DuckDB: seed ${seed}, ${index !== undefined ? `query #${index}` : `${count} queries`}, parallelism ${parallelism}${batchSize > 0 ? `, batch size ${batchSize}` : ''}`);
    const { stats, failures } = await runRandom(engines, {
      seed, count, features, verbose: values.verbose ?? false, shrink: !values['no-shrink'],
      timeoutMs: int('timeout', values.timeout, 10_000), ...(index !== undefined ? { index } : {}),
    });
    console.log(formatStats(stats));
    return failures.length > 0 ? 1 : 0;
  } finally {
    await engines.close();
  }
}

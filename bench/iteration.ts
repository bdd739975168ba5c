/**
 * `npm run bench:iteration`: the iteration core's benchmarks (issue #8
 * "Performance"), one part per file, each a function of the options:
 *
 * - rounds — rounds per second of a near-empty body at p1 and p4 (bench/iteration-rounds.ts)
 * - sgd    — SGD on 1M × 16: cached vs replayed vs recomputed vs a hand loop (bench/iteration-sgd.ts)
 * - spill  — feedback past its byte budget: peak RSS (bench/iteration-spill.ts)
 * - graph  — WITH RECURSIVE connected components (with and without USING KEY) and transitive closure vs DuckDB
 *            and a hand-written label-propagation loop (bench/iteration-graph.ts; --scale S)
 * - kmeans — k-means on 1M × 8: cached vs replayed vs recomputed vs a hand Lloyd loop (bench/iteration-kmeans.ts; --points N)
 *
 *   npm run bench:iteration                       # every part
 *   npm run bench:iteration -- --part rounds,sgd --runs 5
 *   npm run bench:iteration -- --quick            # small sizes, one run: a smoke test
 *
 * Part options: --rounds N (rounds), --rows N --sgd-rounds N --batch N (sgd),
 * --spill-mib N --spill-rounds N (spill). Markdown goes to stdout, progress
 * to stderr. Medians of interleaved runs; each part reports the load average
 * before and after it.
 */
import { availableParallelism, cpus } from 'node:os';
import { load, peakRssMiB, type IterationBenchOptions, type IterationBenchPart } from './lib/iteration-bench.js';

/**
 * The parts, by `--part` name. Another part is a module exporting
 * `run(options: IterationBenchOptions): Promise<string>` and one line here
 * (e.g. `graph: () => import('./iteration-graph.js')`, `kmeans: () => import('./iteration-kmeans.js')`).
 */
const PARTS: Record<string, () => Promise<IterationBenchPart>> = {
  rounds: () => import('./iteration-rounds.js'),
  sgd: () => import('./iteration-sgd.js'),
  spill: () => import('./iteration-spill.js'),
  // These two take their own option objects (and run alone too): adapted here.
  graph: async () => {
    const m = await import('./iteration-graph.js');
    return { run: async (o) => (await m.run({ scale: o.arg('scale', o.quick ? 0.05 : 1), runs: o.runs })).markdown };
  },
  kmeans: async () => {
    const m = await import('./iteration-kmeans.js');
    return { run: async (o) => (await m.run({ quick: o.quick, runs: o.runs, points: o.arg('points', o.quick ? 50_000 : 1_000_000), parallelism: o.arg('parallelism', 1) })).markdown };
  },
};

function value(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function arg(name: string, dflt: number): number {
  const v = value(name);
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new Error(`--${name} needs a number, got ${v}`);
  return n;
}

async function main(): Promise<void> {
  const child = value('child');
  if (child === 'spill') { // a measurement in a fresh process (bench/iteration-spill.ts)
    const [mibArg, rounds, budget] = process.argv.slice(process.argv.indexOf('--child') + 2).map(Number);
    const { child: measure } = await import('./iteration-spill.js');
    process.stdout.write(`${JSON.stringify(await measure(mibArg!, rounds!, budget!))}\n`);
    return;
  }
  const quick = process.argv.includes('--quick');
  const options: IterationBenchOptions = { quick, runs: arg('runs', quick ? 1 : 3), arg };
  const names = (value('part') ?? Object.keys(PARTS).join(',')).split(',').map((s) => s.trim()).filter((s) => s !== '');
  for (const n of names) if (PARTS[n] === undefined) throw new Error(`unknown part "${n}": choose from ${Object.keys(PARTS).join(', ')}`);
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  const out = [`## bench:iteration — ${new Date().toISOString()}, ${availableParallelism()} cores (${cpu}), Node ${process.version}, load ${load()}${quick ? ', --quick' : ''}`];
  for (const n of names) {
    process.stderr.write(`part ${n}…\n`);
    const part = await PARTS[n]!();
    out.push('', await part.run(options));
  }
  out.push('', `Peak RSS of this process: ${peakRssMiB().toFixed(0)} MiB.`);
  process.stdout.write(`${out.join('\n')}\n`);
}

await main();

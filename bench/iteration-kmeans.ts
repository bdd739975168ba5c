/**
 * k-means on the iteration core (issue #9's benchmark part): 1M points × 8
 * dimensions (8 Gaussian blobs, k = 8), the training data cached in list
 * state (Flink ML's way; also through the Table API, `env.ml.kmeans`) vs
 * replayed into every round by the iteration's replayer vs recomputed every
 * round (the points generated again, as an engine without cache or replay
 * re-runs the input's plan), against a hand-written typed-array Lloyd loop.
 * Target: cached within 1.5× of the hand loop per round.
 *
 * Per-round time is the marginal cost: (time of `--rounds` rounds − time
 * of 2 rounds) / (rounds − 2), so the one-off work (reading the input,
 * drawing the initial centroids, planning) is not spread over the rounds.
 * Every figure is a median over `--runs` runs; the variants run
 * interleaved (one run of each in turn, the order rotating) so a noisy
 * neighbour hurts them alike. The load average before and after, and each
 * variant's peak RSS (the kernel's peak counter reset before it runs, on
 * Linux) are printed with the table.
 *
 *   node --expose-gc --import tsx bench/iteration-kmeans.ts [--quick] [--points N] [--rounds R] [--runs N] [--parallelism P]
 *
 * `run(options)` is the entry point for `npm run bench:iteration`.
 */
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { RecordBatch } from 'apache-arrow';
import { TableEnvironment } from '../src/api/environment.js';
import { batchFromColumns } from '../src/exec/batch.js';
import type { SourceInstance } from '../src/exec/operator.js';
import { memorySource } from '../src/io/memory.js';
import { kmeansStream, seededRandom, type DataMode } from '../src/ml/index.js';
import { float64Data } from '../src/ml/columns.js';
import { StreamEnvironment } from '../src/iteration/stream/environment.js';
import { field, schemaOf } from '../src/relnode/types.js';
import { resetPeak, statusKb } from './lib/memory.js';
import { collectGarbage, median } from './lib/timing.js';

/** Options of a run. */
export interface KMeansBenchOptions {
  readonly points?: number;
  readonly dims?: number;
  readonly k?: number;
  /** Rounds of the long run (the short one has 2). */
  readonly rounds?: number;
  readonly runs?: number;
  readonly parallelism?: number;
  /** A small, fast run (50k points, 6 rounds, 2 runs). */
  readonly quick?: boolean;
}

/** One variant's figures. */
export interface KMeansVariantResult {
  readonly variant: string;
  /** Median marginal milliseconds per round. */
  readonly msPerRound: number;
  /** Median wall milliseconds of the long run. */
  readonly totalMs: number;
  /** Per round, relative to the hand loop. */
  readonly ratio: number;
  /** Peak resident MB while it ran (undefined where the peak cannot be reset). */
  readonly peakRssMb: number | undefined;
}

export interface KMeansBenchResult {
  readonly points: number;
  readonly dims: number;
  readonly k: number;
  readonly rounds: number;
  readonly runs: number;
  readonly parallelism: number;
  readonly loadBefore: readonly number[];
  readonly loadAfter: readonly number[];
  readonly variants: readonly KMeansVariantResult[];
  readonly markdown: string;
}

const BATCH = 65536;

/** The points: `n` × `d` from `k` blobs, in batches of 65536 rows (one Float64Array per dimension). The same seed gives the same points. */
function generate(n: number, d: number, k: number, from = 0, to = Math.ceil(n / BATCH), step = 1): RecordBatch[] {
  const names = Array.from({ length: d }, (_, j) => `f${j}`);
  const out: RecordBatch[] = [];
  for (let b = from; b < to; b += step) {
    const rnd = seededRandom(1000 + b);
    const rows = Math.min(BATCH, n - b * BATCH);
    const cols = Array.from({ length: d }, () => new Float64Array(rows));
    for (let i = 0; i < rows; i++) {
      const blob = Math.floor(rnd() * k);
      for (let j = 0; j < d; j++) cols[j]![i] = ((blob * 7 + j * 3) % 11) * 2 + (rnd() + rnd() + rnd() - 1.5);
    }
    out.push(batchFromColumns(names, cols.map((c) => float64Data(c)), rows));
  }
  return out;
}

/** The hand-written Lloyd loop over one Float64Array per dimension; starts from the first k points. */
function handLoop(batches: readonly RecordBatch[], d: number, k: number, rounds: number): Float64Array {
  const n = batches.reduce((s, b) => s + b.numRows, 0);
  const cols = Array.from({ length: d }, () => new Float64Array(n));
  let at = 0;
  for (const b of batches) {
    for (let j = 0; j < d; j++) cols[j]!.set(b.data.children[j]!.values as Float64Array, at);
    at += b.numRows;
  }
  const cent = new Float64Array(k * d);
  for (let c = 0; c < k; c++) for (let j = 0; j < d; j++) cent[c * d + j] = cols[j]![c]!;
  const sums = new Float64Array(k * d);
  const counts = new Float64Array(k);
  const pt = new Float64Array(d);
  for (let r = 0; r < rounds; r++) {
    sums.fill(0); counts.fill(0);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < d; j++) pt[j] = cols[j]![i]!;
      let best = 0, bestD = Infinity;
      for (let c = 0; c < k; c++) {
        let dist = 0;
        for (let j = 0; j < d; j++) { const t = pt[j]! - cent[c * d + j]!; dist += t * t; }
        if (dist < bestD) { bestD = dist; best = c; }
      }
      for (let j = 0; j < d; j++) sums[best * d + j] += pt[j]!;
      counts[best]++;
    }
    for (let c = 0; c < k; c++) if (counts[c]! > 0) for (let j = 0; j < d; j++) cent[c * d + j] = sums[c * d + j]! / counts[c]!;
  }
  return cent;
}

/** One stream-level training: the points from a source of the prebuilt batches (subtask s takes batches s, s + p, …). */
async function streamRun(batches: readonly RecordBatch[], o: Required<Omit<KMeansBenchOptions, 'quick' | 'runs'>>, rounds: number, mode: DataMode): Promise<number> {
  const env = new StreamEnvironment({ parallelism: o.parallelism });
  const schema = schemaOf(Array.from({ length: o.dims }, (_, j) => field(`f${j}`, 'DOUBLE', false)));
  const points = env.source('Points', schema, (ctx): SourceInstance => {
    let i = ctx.subtaskIndex;
    return { next: () => { const b = batches[i]; i += ctx.parallelism; return b ?? null; }, close() {} };
  }, o.parallelism);
  const names = schema.fields.map((f) => f.name);
  const model = kmeansStream(points, { k: o.k, maxIter: rounds, seed: 0, names, mode });
  const t0 = performance.now();
  const rows = await model.collect();
  if (rows.length === 0) throw new Error('k-means produced no model');
  return performance.now() - t0;
}

/** One training through the Table API (planner, one job, data cached in list state). */
async function tableRun(batches: readonly RecordBatch[], o: Required<Omit<KMeansBenchOptions, 'quick' | 'runs'>>, rounds: number): Promise<number> {
  const env = TableEnvironment.create({ parallelism: o.parallelism });
  try {
    env.registerTable('points', memorySource(batches, 'points'));
    const t0 = performance.now();
    const rows = await env.ml.kmeans(env.from('points'), { k: o.k, maxIter: rounds }).toArray();
    if (rows.length === 0) throw new Error('k-means produced no model');
    return performance.now() - t0;
  } finally {
    await env.close();
  }
}

/** Runs the benchmark and returns (and prints) its figures. */
export async function run(options: KMeansBenchOptions = {}): Promise<KMeansBenchResult> {
  const quick = options.quick === true;
  const o = {
    points: options.points ?? (quick ? 50_000 : 1_000_000), dims: options.dims ?? 8, k: options.k ?? 8,
    rounds: options.rounds ?? (quick ? 6 : 12), parallelism: options.parallelism ?? 1,
  };
  const runs = options.runs ?? (quick ? 2 : 5);
  if (o.rounds <= 2) throw new Error('--rounds must be more than 2 (per-round time is the cost beyond 2 rounds)');
  const loadBefore = loadavg();
  const batches = generate(o.points, o.dims, o.k);
  const recompute: DataMode = { recompute: (s, p) => generate(o.points, o.dims, o.k, s, Math.ceil(o.points / BATCH), p) };
  const variants: { name: string; once: (rounds: number) => Promise<number> }[] = [
    { name: 'hand-written Lloyd loop', once: async (r) => { const t0 = performance.now(); handLoop(batches, o.dims, o.k, r); return performance.now() - t0; } },
    { name: 'cached (Table API: env.ml.kmeans)', once: (r) => tableRun(batches, o, r) },
    { name: 'cached (stream API, list state)', once: (r) => streamRun(batches, o, r, 'cached') },
    { name: 'replayed (iteration replayer)', once: (r) => streamRun(batches, o, r, 'replayed') },
    { name: 'recomputed (input regenerated per round)', once: (r) => streamRun(batches, o, r, recompute) },
  ];
  const perRound = variants.map(() => [] as number[]);
  const totals = variants.map(() => [] as number[]);
  const peaks = variants.map(() => undefined as number | undefined);
  for (const v of variants) await v.once(3); // warm-up (JIT)
  for (let r = 0; r < runs; r++) {
    for (let s = 0; s < variants.length; s++) {
      const i = (s + r) % variants.length;
      collectGarbage();
      const reset = resetPeak();
      const short = await variants[i]!.once(2);
      const long = await variants[i]!.once(o.rounds);
      const hwm = statusKb('VmHWM');
      if (reset && hwm !== undefined) peaks[i] = Math.max(peaks[i] ?? 0, hwm / 1000);
      perRound[i]!.push((long - short) / (o.rounds - 2));
      totals[i]!.push(long);
      process.stderr.write(`${variants[i]!.name}: ${long.toFixed(0)} ms for ${o.rounds} rounds, ${short.toFixed(0)} ms for 2\n`);
    }
  }
  const loadAfter = loadavg();
  const hand = median(perRound[0]!);
  const results: KMeansVariantResult[] = variants.map((v, i) => ({
    variant: v.name, msPerRound: median(perRound[i]!), totalMs: median(totals[i]!), ratio: median(perRound[i]!) / hand, peakRssMb: peaks[i],
  }));
  const md = [
    `k-means, ${o.points.toLocaleString('en-US')} points × ${o.dims} dimensions, k = ${o.k}, parallelism ${o.parallelism}; per round = (${o.rounds} rounds − 2 rounds) / ${o.rounds - 2}, median of ${runs} interleaved runs.`,
    `Load average before ${loadBefore.map((x) => x.toFixed(2)).join(' / ')}, after ${loadAfter.map((x) => x.toFixed(2)).join(' / ')}.`,
    '',
    `| variant | ms / round | × hand loop | ${o.rounds} rounds (ms) | peak RSS (MB) |`,
    '|---|---|---|---|---|',
    ...results.map((r) => `| ${r.variant} | ${r.msPerRound.toFixed(1)} | ${r.ratio.toFixed(2)} | ${r.totalMs.toFixed(0)} | ${r.peakRssMb === undefined ? 'n/a' : r.peakRssMb.toFixed(0)} |`),
  ].join('\n');
  return { ...o, runs, loadBefore, loadAfter, variants: results, markdown: md };
}

function arg(name: string): number | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : undefined;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const opts: KMeansBenchOptions = {
    quick: process.argv.includes('--quick'),
    ...(arg('points') !== undefined ? { points: arg('points')! } : {}),
    ...(arg('rounds') !== undefined ? { rounds: arg('rounds')! } : {}),
    ...(arg('runs') !== undefined ? { runs: arg('runs')! } : {}),
    ...(arg('parallelism') !== undefined ? { parallelism: arg('parallelism')! } : {}),
  };
  process.stdout.write(`${(await run(opts)).markdown}\n`);
}

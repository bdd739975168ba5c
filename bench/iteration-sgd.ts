/**
 * bench:iteration part "sgd": full-batch SGD linear regression on 1M rows ×
 * 16 features (issue #8 performance (2)) — the data cached in list state
 * (not replayed), replayed by the iteration every round, or recomputed from
 * its source (the deterministic generator) every round — against a
 * hand-written typed-array loop doing the same arithmetic. Target: cached
 * within 1.5× of the hand loop per round.
 *
 * Decision: every variant runs the same kernel (`addGradient`, column-wise
 * over Float64Arrays), the hand loop over the whole columns in blocks of the
 * batch size (and, for comparison, unblocked), the iterations over each
 * record batch's columns; so the ratio is the iteration's own cost per
 * round (batches, callbacks, list state, replay). A round's time is the
 * median interval between consecutive `onEpochWatermarkIncremented`
 * callbacks of the one Train operator (p = 1), rounds ≥ 1 (round 0 also
 * loads the data), in wall and in CPU time (the process's user + system:
 * on a loaded machine the steadier one). The job: Train reads the model (the variable) and the
 * data, computes the gradient at the end of each round and feeds the
 * updated model back; TerminateOnMaxIter ends it. Variants run interleaved.
 * "memory" variants keep list state and replay caches in memory; the
 * "default" ones use a TableEnvironment's storage (each subtask's list keeps
 * its share of the cache memory budget, min(1 GiB, heap/4) / parallelism,
 * before it spills through the cache's spill area; replay caches keep
 * 64 MiB in memory and read the rest back every round).
 */
import { Float64, makeData, type RecordBatch } from 'apache-arrow';
import { StreamEnvironment } from '../src/iteration/stream/environment.js';
import { Iterations, ReplayableDataStreamList, TerminateOnMaxIter } from '../src/iteration/index.js';
import { cachedListStateProvider } from '../src/iteration/list-state.js';
import { TableEnvironment } from '../src/api/environment.js';
import { batchFromColumns } from '../src/exec/batch.js';
import type { CoProcessOperator, ProcessOperator } from '../src/iteration/stream/process.js';
import type { DataStream } from '../src/iteration/stream/data-stream.js';
import { interleave, load, median, peakRssMiB, type IterationBenchOptions } from './lib/iteration-bench.js';

const D = 16;
const LR = 0.5;
const names = [...Array.from({ length: D }, (_, i) => `x${i}`), 'y'];
const SCHEMA = Object.fromEntries(names.map((n) => [n, 'DOUBLE' as const]));
const MODEL = Object.fromEntries(Array.from({ length: D }, (_, i) => [`a${i}`, 'DOUBLE' as const]));

/** diff[r] = x_r · a − y_r, then g += Σ diff[r] x_r: the least-squares gradient of rows 0..n−1. */
export function addGradient(xs: readonly Float64Array[], y: Float64Array, a: Float64Array, g: Float64Array, diff: Float64Array, n: number): void {
  for (let r = 0; r < n; r++) diff[r] = -y[r]!;
  for (let i = 0; i < D; i++) { const x = xs[i]!; const ai = a[i]!; for (let r = 0; r < n; r++) diff[r]! += x[r]! * ai; }
  for (let i = 0; i < D; i++) { const x = xs[i]!; let s = 0; for (let r = 0; r < n; r++) s += diff[r]! * x[r]!; g[i]! += s; }
}

/** Rows [from, to) of the deterministic data set, as columns x0..x15, y (y = x · (1, 2, …, 16)/16 + noise). */
function generate(from: number, to: number): Float64Array[] {
  const n = to - from;
  const cols = Array.from({ length: D + 1 }, () => new Float64Array(n));
  for (let r = 0; r < n; r++) {
    let s = ((from + r) * 2654435761) % 4294967296;
    let y = 0;
    for (let i = 0; i < D; i++) {
      s = (s * 1103515245 + 12345) % 2147483648;
      const v = s / 2147483648 * 2 - 1;
      cols[i]![r] = v;
      y += v * (i + 1) / D;
    }
    cols[D]![r] = y + ((s % 1000) / 1000 - 0.5) * 1e-3;
  }
  return cols;
}

function batchOf(cols: readonly Float64Array[]): RecordBatch {
  return batchFromColumns(names, cols.map((c) => makeData({ type: new Float64(), length: c.length, data: c })), cols[0]!.length);
}

function dataBatches(rows: number, batchSize: number): RecordBatch[] {
  const out: RecordBatch[] = [];
  for (let from = 0; from < rows; from += batchSize) out.push(batchOf(generate(from, Math.min(rows, from + batchSize))));
  return out;
}

/** CPU milliseconds of this process so far (user + system): on a loaded machine steadier than wall time. */
const cpuNow = (): number => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; };

/** What a variant reports: median wall and CPU milliseconds per round, and the final model. */
interface RoundTimes { readonly perRound: number; readonly cpuPerRound: number; readonly model: Float64Array }

const columns = (b: RecordBatch): Float64Array[] => names.map((_, i) => b.getChildAt(i)!.data[0]!.values as Float64Array);

/**
 * Per-round milliseconds of the hand loop over whole columns, `block` rows
 * at a time (the kernel's scratch row stays in cache: with one block of 1M
 * rows the loop is memory-bound and 2–3× slower).
 */
function handLoop(cols: readonly Float64Array[], rounds: number, block: number): RoundTimes {
  const n = cols[0]!.length;
  const a = new Float64Array(D);
  const g = new Float64Array(D);
  const diff = new Float64Array(Math.min(n, block));
  const times: number[] = [];
  const cpu: number[] = [];
  for (let e = 0; e < rounds; e++) {
    const t0 = performance.now();
    const c0 = cpuNow();
    g.fill(0);
    for (let from = 0; from < n; from += block) {
      const to = Math.min(n, from + block);
      addGradient(cols.slice(0, D).map((c) => c.subarray(from, to)), cols[D]!.subarray(from, to), a, g, diff, to - from);
    }
    for (let i = 0; i < D; i++) a[i]! -= (LR / n) * g[i]!;
    times.push(performance.now() - t0);
    cpu.push(cpuNow() - c0);
  }
  return { perRound: median(times.slice(1)), cpuPerRound: median(cpu.slice(1)), model: a };
}

type Mode = 'cached' | 'replayed' | 'recomputed';

/** One iteration run; returns the median round time (ms) and the final model. */
async function iterationRun(mode: Mode, storage: 'memory' | 'default', batches: readonly RecordBatch[], rows: number, batchSize: number, rounds: number): Promise<RoundTimes> {
  const tenv = storage === 'default' ? TableEnvironment.create({ parallelism: 1, batchSize }) : undefined;
  const env = tenv?.streams ?? new StreamEnvironment({ parallelism: 1, batchSize, listState: cachedListStateProvider(undefined, { memoryBudgetBytes: 4 * 1024 ** 3 }) });
  try {
    const stamps: number[] = [];
    const cpuStamps: number[] = [];
    let final: Float64Array | undefined;
    const init = env.fromRows([Object.fromEntries(Array.from({ length: D }, (_, i) => [`a${i}`, 0]))], { schema: MODEL });
    const data = env.fromAsyncIterable(batches, { schema: SCHEMA });
    const list = mode === 'replayed' ? ReplayableDataStreamList.replay(data) : mode === 'cached' ? ReplayableDataStreamList.notReplay(data) : ReplayableDataStreamList.notReplay();
    const [out] = Iterations.iterateBoundedStreamsUntilTermination([init], list, {}, ([model], ds) => {
      const train = (): CoProcessOperator & ProcessOperator => {
        const models = new Map<number, Float64Array>();
        const grads = new Map<number, { g: Float64Array; n: number }>();
        const early: RecordBatch[] = []; // replayed round 0 may come before the first model
        const diff = new Float64Array(batchSize);
        const add = (b: RecordBatch, a: Float64Array, e: number): void => {
          let s = grads.get(e);
          if (s === undefined) { s = { g: new Float64Array(D), n: 0 }; grads.set(e, s); }
          const c = columns(b);
          addGradient(c.slice(0, D), c[D]!, a, s.g, diff, b.numRows);
          s.n += b.numRows;
        };
        const modelOf = (mb: RecordBatch): Float64Array => Float64Array.from(Array.from({ length: D }, (_, i) => Number(mb.getChildAt(i)!.get(0))));
        const step = (w: number, ctx: { getListState(n: string): { batches(): Iterable<RecordBatch> } }, out: { collect(r: Record<string, unknown>): void }): void => {
          stamps.push(performance.now());
          cpuStamps.push(cpuNow());
          const a = models.get(w)!;
          models.delete(w);
          if (mode === 'cached') for (const b of ctx.getListState('data').batches()) add(b, a, w);
          else if (mode === 'recomputed') for (let from = 0; from < rows; from += batchSize) add(batchOf(generate(from, Math.min(rows, from + batchSize))), a, w);
          const s = grads.get(w)!;
          grads.delete(w);
          const next = Float64Array.from(a, (v, i) => v - (LR / s.n) * s.g[i]!);
          final = next;
          out.collect(Object.fromEntries(Array.from(next, (v, i) => [`a${i}`, v])));
        };
        const onModel = (mb: RecordBatch, ctx: { readonly epoch: number }): void => {
          models.set(ctx.epoch, modelOf(mb));
          if (early.length > 0) for (const b of early.splice(0)) add(b, models.get(ctx.epoch)!, ctx.epoch);
        };
        return {
          processBatch: onModel, // one input (recomputed), or input 0 of two (the adapter prefers processBatch)
          processBatch2(b, ctx) {
            if (mode === 'cached') ctx.getListState('data').addBatch(b);
            else { const a = models.get(ctx.epoch); if (a === undefined) early.push(b); else add(b, a, ctx.epoch); }
          },
          onEpochWatermarkIncremented(w, ctx, out) { step(w, ctx, out); },
        };
      };
      const next: DataStream = ds.length > 0 ? model!.connect(ds[0]!).process(train, { schema: MODEL, name: 'Train' }) : model!.process(train, { schema: MODEL, name: 'Train' });
      return { feedbackVariableStreams: [next], outputStreams: [next.process(() => ({ onIterationTerminated() {} }))], terminationCriteria: next.process(() => new TerminateOnMaxIter(rounds)) };
    });
    await out!.collect();
    const intervals = stamps.slice(1).map((t, i) => t - stamps[i]!);
    const cpuIntervals = cpuStamps.slice(1).map((t, i) => t - cpuStamps[i]!);
    return { perRound: median(intervals.slice(1)), cpuPerRound: median(cpuIntervals.slice(1)), model: final! };
  } finally {
    await tenv?.close();
  }
}

export async function run(o: IterationBenchOptions): Promise<string> {
  const rows = o.arg('rows', o.quick ? 100_000 : 1_000_000);
  const rounds = o.arg('sgd-rounds', o.quick ? 4 : 10);
  const batchSize = o.arg('batch', 65536);
  const t0 = performance.now();
  const batches = dataBatches(rows, batchSize);
  const whole = generate(0, rows);
  process.stderr.write(`sgd: generated ${rows} rows × ${D} features in ${(performance.now() - t0).toFixed(0)} ms\n`);
  const loadBefore = load();
  const variants: Record<string, () => Promise<RoundTimes>> = {
    'hand loop': async () => handLoop(whole, rounds, batchSize),
    'hand loop, unblocked (whole columns)': async () => handLoop(whole, rounds, rows),
    'cached (list state, memory)': () => iterationRun('cached', 'memory', batches, rows, batchSize, rounds),
    'replayed (memory)': () => iterationRun('replayed', 'memory', batches, rows, batchSize, rounds),
    'recomputed each round': () => iterationRun('recomputed', 'memory', batches, rows, batchSize, rounds),
    'cached (default storage)': () => iterationRun('cached', 'default', batches, rows, batchSize, rounds),
    'replayed (default storage)': () => iterationRun('replayed', 'default', batches, rows, batchSize, rounds),
  };
  const res = await interleave(o.runs, variants);
  const hand = median(res['hand loop']!.map((r) => r.perRound));
  const handCpu = median(res['hand loop']!.map((r) => r.cpuPerRound));
  const ref = res['hand loop']![0]!.model;
  const lines = [
    `### SGD linear regression, ${rows.toLocaleString('en-US')} rows × ${D} features, ${rounds} rounds, p = 1 (load ${loadBefore} → ${load()}; ${o.runs} interleaved runs; peak RSS ${peakRssMiB().toFixed(0)} MiB)`,
    '',
    '| variant | CPU ms / round | × hand loop (CPU) | wall ms / round | × hand loop (wall) | max abs(model − hand loop model) |',
    '|---|---|---|---|---|---|',
  ];
  for (const [name, rs] of Object.entries(res)) {
    const per = median(rs.map((r) => r.perRound));
    const perCpu = median(rs.map((r) => r.cpuPerRound));
    const dev = Math.max(...rs.map((r) => Math.max(...Array.from(r.model, (v, i) => Math.abs(v - ref[i]!)))));
    lines.push(`| ${name} | ${perCpu.toFixed(1)} | ${(perCpu / handCpu).toFixed(2)} | ${per.toFixed(1)} | ${(per / hand).toFixed(2)} | ${dev.toExponential(1)} |`);
    process.stderr.write(`sgd ${name}: ${rs.map((r) => `${r.perRound.toFixed(1)} (CPU ${r.cpuPerRound.toFixed(1)})`).join(', ')} ms/round\n`);
  }
  return lines.join('\n');
}

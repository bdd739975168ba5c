/**
 * bench:iteration part "rounds": the per-round overhead of the iteration
 * core — rounds per second of an iteration whose body does almost nothing
 * (one operator forwarding the one variable batch back; TerminateOnMaxIter
 * as the criteria), at parallelism 1 and 4. Target (issue #8): ≥ 100,000
 * rounds/s at parallelism 1. Also at p1 with the runtime's per-callback
 * self-time metrics on (what an EXPLAIN ANALYZE run pays; stream jobs run
 * without them). Wall and CPU time per round: on a shared machine the CPU
 * figure is the steadier one.
 */
import { StreamEnvironment } from '../src/iteration/stream/environment.js';
import { Iterations, TerminateOnMaxIter } from '../src/iteration/index.js';
import { interleave, load, median, type IterationBenchOptions } from './lib/iteration-bench.js';

interface Sample { readonly wall: number; readonly cpu: number }

/** One run: `rounds` rounds at parallelism `p`; returns wall and CPU milliseconds. */
async function once(p: number, rounds: number, selfTime: boolean): Promise<Sample> {
  const env = new StreamEnvironment({ parallelism: p, selfTime });
  let callbacks = 0;
  const [out] = Iterations.iterateBoundedStreamsUntilTermination([env.fromRows(Array.from({ length: p }, (_, i) => ({ v: i })), { parallelism: p })], [], {}, ([x]) => {
    const body = x!.process(() => ({
      processBatch(b, _ctx, o) { o.collectBatch(b); },
      onEpochWatermarkIncremented() { callbacks++; },
    }));
    return { feedbackVariableStreams: [body], outputStreams: [body.process(() => ({ onIterationTerminated() {} })).setParallelism(1)], terminationCriteria: body.process(() => new TerminateOnMaxIter(rounds)).setParallelism(1) };
  });
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  await out!.collect();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  if (callbacks !== rounds * p) throw new Error(`expected ${rounds * p} callbacks, got ${callbacks}`);
  return { wall, cpu: (c.user + c.system) / 1000 };
}

export async function run(o: IterationBenchOptions): Promise<string> {
  const rounds = o.arg('rounds', o.quick ? 10_000 : 100_000);
  const variants = [
    { name: 'p1', p: 1, n: rounds, selfTime: false },
    { name: 'p4', p: 4, n: Math.max(1000, Math.floor(rounds / 4)), selfTime: false },
    { name: 'p1, self-time on', p: 1, n: rounds, selfTime: true },
  ];
  for (const v of variants) await once(v.p, Math.min(v.n, 2000), v.selfTime); // warm-up
  const loadBefore = load();
  const res = await interleave(o.runs, Object.fromEntries(variants.map((v) => [v.name, () => once(v.p, v.n, v.selfTime)])) as Record<string, () => Promise<Sample>>);
  const lines = [
    `### Per-round overhead (load ${loadBefore} → ${load()}; ${o.runs} interleaved runs, medians)`,
    '',
    '| variant | rounds | median wall | rounds/s (wall) | µs/round (wall) | µs/round (CPU) | rounds/s (CPU) |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const v of variants) {
    const xs = res[v.name]!;
    const wall = median(xs.map((x) => x.wall));
    const cpu = median(xs.map((x) => x.cpu));
    lines.push(`| ${v.name} | ${v.n} | ${wall.toFixed(0)} ms | ${Math.round((v.n / wall) * 1000).toLocaleString('en-US')} | ${((wall * 1000) / v.n).toFixed(2)} | ${((cpu * 1000) / v.n).toFixed(2)} | ${Math.round((v.n / cpu) * 1000).toLocaleString('en-US')} |`);
    process.stderr.write(`rounds ${v.name}: ${xs.map((t) => `${t.wall.toFixed(0)} ms (CPU ${t.cpu.toFixed(0)})`).join(', ')}\n`);
  }
  return lines.join('\n');
}

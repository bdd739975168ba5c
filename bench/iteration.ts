/**
 * `npm run bench:iteration`: the per-round overhead of the iteration core —
 * rounds per second of an iteration whose body does almost nothing (one
 * operator forwarding the one variable batch back; TerminateOnMaxIter as the
 * criteria), at parallelism 1 and 4. Target (issue #8): ≥ 100,000 rounds/s
 * at parallelism 1. Each figure is the median of `--runs` runs (default 3).
 *
 *   npm run bench:iteration -- --rounds 200000 --runs 5
 *
 * Prints a Markdown table to stdout (wall and CPU time per round: on a
 * shared machine the CPU figure is the steadier one).
 */
import { StreamEnvironment } from '../src/iteration/stream/environment.js';
import { Iterations, TerminateOnMaxIter } from '../src/iteration/index.js';

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
}

/** One run: `rounds` rounds at parallelism `p`; returns wall and CPU milliseconds. */
async function once(p: number, rounds: number): Promise<{ wall: number; cpu: number }> {
  const env = new StreamEnvironment({ parallelism: p });
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

async function main(): Promise<void> {
  const rounds = arg('rounds', 100_000);
  const runs = arg('runs', 3);
  const lines = ['| parallelism | rounds | median wall | rounds/s (wall) | µs/round (wall) | µs/round (CPU) |', '|---|---|---|---|---|---|'];
  for (const p of [1, 4]) {
    const n = p === 1 ? rounds : Math.max(1000, Math.floor(rounds / 4));
    await once(p, Math.min(n, 2000)); // warm-up
    const times: { wall: number; cpu: number }[] = [];
    for (let r = 0; r < runs; r++) times.push(await once(p, n));
    times.sort((a, b) => a.wall - b.wall);
    const { wall, cpu } = times[Math.floor(times.length / 2)]!;
    lines.push(`| ${p} | ${n} | ${wall.toFixed(0)} ms | ${Math.round((n / wall) * 1000).toLocaleString('en-US')} | ${((wall * 1000) / n).toFixed(2)} | ${((cpu * 1000) / n).toFixed(2)} |`);
    process.stderr.write(`p=${p}: ${times.map((t) => `${t.wall.toFixed(0)} ms (CPU ${t.cpu.toFixed(0)})`).join(', ')}\n`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

await main();

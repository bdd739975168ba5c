/**
 * Wall-clock and CPU time of each timed run. On a shared machine the wall
 * clock also counts time spent waiting for a core; the process's CPU time
 * (user + system, all its threads: GC helpers included) does not, so ratios
 * of CPU medians stay meaningful when other work competes for the cores.
 *
 * Before each sample a full GC (with --expose-gc) and a short pause, so the
 * GC's concurrent sweeping is not billed to the run. Fast functions (a few
 * ms) run several times per sample, `minSampleMs` long, and report the mean
 * per call: one scheduler hiccup then cannot dominate a sample.
 */
import { collectGarbage, median, type Timing } from './timing.js';

/** Wall-clock timing plus the CPU time of the same runs. */
export interface WallCpuTiming extends Timing {
  /** Median CPU time (user + system) of the runs, ms. */
  readonly cpuMedianMs: number;
  /** CPU time of every run, ms, in run order. */
  readonly cpuSamplesMs: readonly number[];
  /** Calls per sample when a sample repeats a fast function (samples are means per call). */
  readonly callsPerSample?: number;
}

/** One sample: wall and CPU ms. */
export interface Sample {
  readonly wallMs: number;
  readonly cpuMs: number;
}

/** Runs fn once and measures it. */
export async function sample(fn: () => unknown): Promise<Sample> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await fn();
  const wallMs = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { wallMs, cpuMs: (c.user + c.system) / 1000 };
}

/** Summarises samples. */
export function summarize(samples: readonly Sample[]): WallCpuTiming {
  const wall = samples.map((s) => s.wallMs);
  const cpu = samples.map((s) => s.cpuMs);
  return { medianMs: median(wall), minMs: Math.min(...wall), samplesMs: wall, cpuMedianMs: median(cpu), cpuSamplesMs: cpu };
}

/** A full GC (when exposed), then a pause for its concurrent sweeping to finish. */
export async function settle(): Promise<void> {
  collectGarbage();
  await new Promise((r) => setTimeout(r, 20));
}

/**
 * Times `runs` samples of fn (no warm-up: the caller does it), each after `settle()` when
 * `forceGc`. With `minSampleMs`, a sample calls fn as often as one calibration call says fits in
 * that time (1 to 1000 calls) and records the mean per call.
 */
export async function timeWallCpu(fn: () => unknown, runs: number, forceGc = true, minSampleMs = 0): Promise<WallCpuTiming> {
  let calls = 1;
  if (minSampleMs > 0) {
    const probe = await sample(fn);
    calls = Math.max(1, Math.min(1000, Math.ceil(minSampleMs / Math.max(probe.wallMs, 0.001))));
  }
  const samples: Sample[] = [];
  for (let i = 0; i < runs; i++) {
    if (forceGc) await settle();
    const s = await sample(async () => { for (let k = 0; k < calls; k++) await fn(); });
    samples.push({ wallMs: s.wallMs / calls, cpuMs: s.cpuMs / calls });
  }
  return { ...summarize(samples), ...(calls > 1 ? { callsPerSample: calls } : {}) };
}

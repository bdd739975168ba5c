/**
 * Timing helpers: a warm-up run that returns the result (used to verify it),
 * then `runs` timed runs, each after a full GC when `--expose-gc` is on.
 */

/** Timings of one (query, engine). */
export interface Timing {
  /** Median of the timed runs, ms. */
  readonly medianMs: number;
  /** Fastest timed run, ms. */
  readonly minMs: number;
  /** Every timed run, ms, in run order. */
  readonly samplesMs: readonly number[];
}

/** The median of a non-empty list. */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/**
 * Collects garbage if the process runs with --expose-gc (so one run's garbage is not billed to the next).
 * Not a bare `gc()`: that is V8's memory-reducing "all available garbage" collection, which also drops
 * weakly held maps and so deoptimizes the optimized code that embedded them ("weak objects") — every eddy
 * run then paid its JIT warm-up again (bench/iteration-graph.ts `settle`; SF 0.1 q3/q7/q9/q18 eddy-p1 medians
 * 142/162/228/469 ms → 85/137/138/174 ms, load ~5, one A/B).
 *
 * Beware: on Node 20 (V8 11.3) `gc({ type: 'major', execution: 'sync' })` runs a Scavenge, not a
 * mark-compact (`--trace-gc` prints "Scavenge ... testing"; 117 MB of old-generation garbage stays until
 * a bare `gc()` frees it; polysuite, 2026-12-06). So only the young generation is emptied between runs:
 * old-generation garbage carries over, and the mark-compacts it needs fall inside later timed runs, of
 * whichever engine allocates when the limit is reached. The A/B above compared a memory-reducing
 * mark-compact with this scavenge.
 */
export function collectGarbage(): void {
  const gc = (globalThis as { gc?: (o?: { type: string; execution: string }) => void }).gc;
  if (gc) { gc({ type: 'major', execution: 'sync' }); }
}

/**
 * A real mark-compact of the whole heap (`gc({ type: 'major', execution: 'async' })`: on Node 20 the
 * async form is a regular mark-compact, not the memory-reducing one a bare `gc()` runs), awaited.
 * What the suite runs between runs with `--gc major`: no engine's old-generation garbage is left for the
 * next engine's timed run. With the map anchors (src/exec/map-anchors.ts) it no longer deoptimizes
 * eddy's hot kernels (docs/multi-core.md, "Hidden classes die at major GCs").
 */
export async function collectGarbageMajor(): Promise<void> {
  const gc = (globalThis as { gc?: (o?: { type: string; execution: string }) => Promise<void> | void }).gc;
  if (gc) await gc({ type: 'major', execution: 'async' });
}

/** Whether full GCs between runs are available. */
export function gcExposed(): boolean {
  return typeof (globalThis as { gc?: unknown }).gc === 'function';
}

/**
 * Times `runs` runs of fn (no warm-up: the caller does it). `forceGc: false`
 * skips the full GC before each run (under a profiler, so forced collections
 * do not show up as the query's).
 */
export async function timeRuns(fn: () => unknown, runs: number, forceGc = true): Promise<Timing> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    if (forceGc) collectGarbage();
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  return { medianMs: median(samples), minMs: Math.min(...samples), samplesMs: samples };
}

/** a / b, or undefined when either is missing. */
export function ratio(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined || b === undefined || b === 0 ? undefined : a / b;
}

/** CPU ms per call of `fn`, repeated for about `ms` (default 100) ms after a major GC (cached actions: bench/cache-actions.ts, cache-blocks.ts). */
export async function cpuPerCall(fn: () => unknown, ms = 100): Promise<number> {
  collectGarbage();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  let calls = 0;
  do { await fn(); calls++; } while (performance.now() - t0 < ms);
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000 / calls;
}

/**
 * Before a timed run, wait (untimed) until the process's other threads are quiet: the work that
 * the previous run left to V8's helper threads — concurrent TurboFan compilation, GC marking and
 * sweeping, the worker isolates' own collections — is otherwise billed to whichever engine runs
 * next (suitegap2, 2026-12-06).
 *
 * Why: on two cores that leftover costs a two-thread engine (eddy p2, DuckDB with 2 threads) its
 * wall time nearly one for one, since both cores are busy with its own threads, while a one-thread
 * engine gets it for free on the idle core. Measured with bench/p2-before.ts --tails (the
 * process's CPU in the 50 ms after a run returned, the calling thread asleep; 7 runs each, load
 * 24): after eddy p1 on TPC-H Q18 a median 6.6 ms (runs 11, 0, 11, 29, 5, 7, 1), after p2 3.2;
 * after Q1, Q3 and Q6 medians of ~1 ms with single runs of 10–50 ms; after DuckDB ~0.5. Both
 * bench harnesses run p2 right after p1 in most rounds, so p1's leftover landed in p2's
 * timed runs. The wait applies to every engine alike and is never timed.
 *
 * How: the calling thread sleeps in windows of `windowMs` and reads the process's CPU (all
 * threads) across each; a window with less than `quietCpuMs` of CPU ends the wait (the sleeping
 * calling thread itself uses a few microseconds). `maxMs` bounds it. On a loaded machine a
 * runnable helper thread may not get a core within a window and the wait ends early: the figures
 * of a loaded machine are noisy anyway.
 */

/** Options of `quiesce` (tests inject the clock and the CPU reading). */
export interface QuiesceOptions {
  /** Longest wait, ms (default 250). */
  readonly maxMs?: number;
  /** One window's length, ms (default 5). */
  readonly windowMs?: number;
  /** A window with less CPU than this, ms, counts as quiet (default 0.5: a tenth of a core over 5 ms). */
  readonly quietCpuMs?: number;
  /** The process's CPU so far, ms (default: process.cpuUsage(), user + system). */
  readonly cpuMs?: () => number;
  /** Sleeps `ms` (default: a timer). */
  readonly sleep?: (ms: number) => Promise<void>;
}

/** What `quiesce` saw: how long it waited, whether a quiet window came, and the other threads' CPU meanwhile. */
export interface Quiesced {
  readonly waitedMs: number;
  readonly quiet: boolean;
  readonly cpuMs: number;
}

const processCpuMs = (): number => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; };
const timer = (ms: number): Promise<void> => new Promise((r) => { setTimeout(r, ms); });

/** Waits until one window of the process's CPU is quiet, at most `maxMs`. */
export async function quiesce(o: QuiesceOptions = {}): Promise<Quiesced> {
  const maxMs = o.maxMs ?? 250;
  const windowMs = o.windowMs ?? 5;
  const quietCpuMs = o.quietCpuMs ?? 0.5;
  const cpuMs = o.cpuMs ?? processCpuMs;
  const sleep = o.sleep ?? timer;
  let waited = 0;
  let spent = 0;
  while (waited < maxMs) {
    const c0 = cpuMs();
    await sleep(windowMs);
    waited += windowMs;
    const used = cpuMs() - c0;
    spent += used;
    if (used < quietCpuMs) return { waitedMs: waited, quiet: true, cpuMs: spent };
  }
  return { waitedMs: waited, quiet: false, cpuMs: spent };
}

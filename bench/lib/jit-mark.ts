/**
 * Run markers in every isolate's V8 log, for bench/deopt-runs.ts: the calling thread imports this module,
 * and each worker isolate imports it before the worker's entry (EDDY_WORKER_PRELOAD, src/exec/workers/pool.ts).
 *
 * Why a compiled function as the marker: with `--log-code` V8 writes one log file per isolate, each on its own
 * clock, and nothing eddy prints reaches those files. Compiling and calling a function with a unique name
 * writes a `code-creation` line carrying that name at that moment, in that isolate's file, so the parser can
 * cut each isolate's log into runs. Why a BroadcastChannel: the stage protocol carries only query results; a
 * side channel needs no change to it (as bench/lib/worker-probe.ts does for GC counts). Workers are idle
 * between runs, so a marker written before a run and answered before it starts opens that run's window.
 */
import { BroadcastChannel, threadId } from 'node:worker_threads';

const CHANNEL = 'eddy-bench-jit-mark';

/** Writes marker `label` (letters, digits and `_` only) into this isolate's V8 log. */
export function markHere(label: string): void {
  if (!/^\w+$/.test(label)) throw new Error(`a JIT marker label must be a word, got ${label}`);
  // A fresh source per label: no compilation-cache hit, so the code-creation line is always written.
  (new Function(`return function __jitmark_${label}() { return ${threadId}; }`)() as () => number)();
}

/** The calling thread's side: marks its own log and every worker's, and resolves once the workers answered (or after `waitMs`). */
export function markChannel(): { mark: (label: string, workers: number, waitMs?: number) => Promise<number>; close: () => void } {
  const ch = new BroadcastChannel(CHANNEL);
  return {
    mark: (label, workers, waitMs = 200) => new Promise((resolve) => {
      markHere(label);
      if (workers === 0) { resolve(0); return; }
      let got = 0;
      const timer = setTimeout(() => resolve(got), waitMs);
      ch.onmessage = (ev: unknown) => {
        const d = (ev as { data: { marked?: string } }).data;
        if (d.marked === label && ++got === workers) { clearTimeout(timer); resolve(got); }
      };
      ch.postMessage({ mark: label });
    }),
    close: () => ch.close(),
  };
}

// In a worker: mark on request (the channel must not keep the worker alive).
if (threadId !== 0) {
  const ch = new BroadcastChannel(CHANNEL);
  (ch as unknown as { unref(): void }).unref();
  ch.onmessage = (ev: unknown) => {
    const d = (ev as { data: { mark?: string } }).data;
    if (d.mark !== undefined) { markHere(d.mark); ch.postMessage({ marked: d.mark }); }
  };
}

/**
 * Per-isolate GC events and typed-array bytes, for bench/gc-runs.ts: the calling thread imports this
 * module itself, and each worker isolate imports it before the worker's entry (EDDY_WORKER_PRELOAD,
 * src/exec/workers/pool.ts), so every isolate counts its own.
 *
 * Why a BroadcastChannel: the counts live in the workers' isolates, and the stage protocol carries
 * only query results; a side channel that the bench reads after each run needs no change to it.
 * Each isolate answers a 'report' with everything it saw since its previous report (GC events from a
 * PerformanceObserver; with EDDY_PROBE_COUNT=1 also the typed-array bytes by allocation site,
 * bench/lib/typed-array-counter.ts) and starts again from zero. Workers are idle between runs, so a
 * report after a run covers exactly that run (and whatever idle-time GC its garbage caused).
 */
import { BroadcastChannel, threadId } from 'node:worker_threads';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { installTypedArrayCounter, startCounting, stopCounting, type SiteCount } from './typed-array-counter.js';

/** One GC event: kind (major, minor, incremental, weak callbacks) and its pause, ms. */
export interface GcEvent { readonly kind: 'major' | 'minor' | 'incremental' | 'weakcb'; readonly ms: number }

/** What one isolate saw since its previous report. */
export interface ProbeReport {
  readonly threadId: number;
  readonly gcs: readonly GcEvent[];
  /** Typed-array bytes allocated (counting mode only), and the largest sites. */
  readonly bytes?: number;
  readonly sites?: readonly [string, SiteCount][];
}

const CHANNEL = 'eddy-bench-probe';
const counting = process.env.EDDY_PROBE_COUNT === '1';

function kindOf(k: number): GcEvent['kind'] {
  if (k === constants.NODE_PERFORMANCE_GC_MAJOR) return 'major';
  if (k === constants.NODE_PERFORMANCE_GC_MINOR) return 'minor';
  if (k === constants.NODE_PERFORMANCE_GC_INCREMENTAL) return 'incremental';
  return 'weakcb';
}

let gcs: GcEvent[] = [];
const obs = new PerformanceObserver((list) => { for (const e of list.getEntries()) gcs.push({ kind: kindOf((e as unknown as { detail: { kind: number } }).detail.kind), ms: e.duration }); });

/** Starts observing this isolate (idempotent through the module cache). */
function install(): void {
  if (counting) { installTypedArrayCounter(Number(process.env.EDDY_PROBE_FRAMES ?? 2)); startCounting(); }
  obs.observe({ entryTypes: ['gc'] });
}

/** This isolate's report since the last one; counting starts again. */
export function localReport(top = 30): ProbeReport {
  for (const e of obs.takeRecords()) gcs.push({ kind: kindOf((e as unknown as { detail: { kind: number } }).detail.kind), ms: e.duration });
  const out: ProbeReport = { threadId, gcs };
  gcs = [];
  if (!counting) return out;
  const c = stopCounting();
  startCounting();
  return { ...out, bytes: c.total, sites: c.sites.slice(0, top) };
}

install();

/** The calling thread's side: asks every worker isolate for its report and gathers the answers. */
export function probeChannel(): { reports: (waitMs?: number) => Promise<ProbeReport[]>; close: () => void } {
  const ch = new BroadcastChannel(CHANNEL);
  return {
    reports: (waitMs = 40) => new Promise((resolve) => {
      const got: ProbeReport[] = [];
      ch.onmessage = (ev: unknown) => { const d = (ev as { data: { report?: ProbeReport } }).data; if (d.report) got.push(d.report); };
      ch.postMessage({ cmd: 'report' });
      setTimeout(() => resolve(got.sort((a, b) => a.threadId - b.threadId)), waitMs);
    }),
    close: () => ch.close(),
  };
}

// In a worker: answer the calling thread's requests (the channel must not keep the worker alive).
if (threadId !== 0) {
  const ch = new BroadcastChannel(CHANNEL);
  (ch as unknown as { unref(): void }).unref();
  ch.onmessage = (ev: unknown) => {
    const d = (ev as { data: { cmd?: string } }).data;
    if (d.cmd === 'report') ch.postMessage({ report: localReport() });
  };
}

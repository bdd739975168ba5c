/**
 * The suite's result document (written as bench/results/suite-sf<sf>.json)
 * and the derived numbers: eddy/DuckDB ratios per query and their geometric
 * mean per configuration pair. Only verified, timed answers enter a ratio.
 */
import type { BandwidthProbe } from '../lib/memory-bandwidth.js';
import type { MemoryResult } from '../lib/memory.js';

/** One engine on one query. */
export interface EngineOutcome {
  /** reference: DuckDB 1 thread, the oracle; ok: verified and timed; wrong: answer differs (not timed). */
  readonly status: 'reference' | 'ok' | 'wrong' | 'error' | 'timeout' | 'not-applicable' | 'no-reference';
  readonly medianMs?: number;
  readonly minMs?: number;
  readonly maxMs?: number;
  readonly samplesMs?: readonly number[];
  /** Wall ms of the engine's first run of the query (the answer check, before the warm-ups; the process ran the earlier queries). */
  readonly firstMs?: number;
  /** Untimed runs before the timed ones, the answer check included (run.ts: at least `warmup`, more until `warmupMs`). */
  readonly warmupRuns?: number;
  /** Median CPU time of the timed runs (user + system of the whole process), ms. */
  readonly cpuMedianMs?: number;
  /** Median CPU along the critical path (run.ts criticalPath): the calling thread's outside the parallel shares plus the busiest share's, ms (eddy). */
  readonly criticalCpuMedianMs?: number;
  /** Every timed run's critical-path CPU, ms, in run order (eddy). */
  readonly criticalCpuSamplesMs?: readonly number[];
  /** Median system CPU of the timed runs (the whole process: page faults, madvise, futexes), ms. */
  readonly sysCpuMedianMs?: number;
  /** Median of the process's minor page faults per timed run (fresh memory touched; does not depend on load). */
  readonly minorFaultsMedian?: number;
  /** Per timed run, the CPU ms of the process's threads other than the main one, keyed `name#tid` (≥ 0.5 ms; Linux). */
  readonly otherThreadsCpuMs?: readonly Readonly<Record<string, number>>[];
  readonly rows?: number;
  /** Differences from the reference (status wrong). */
  readonly problems?: readonly string[];
  readonly error?: string;
}

/** One query. */
export interface QueryOutcome {
  readonly id: string;
  readonly title: string;
  /** Rows of the reference answer. */
  readonly rows?: number;
  readonly engines: Readonly<Record<string, EngineOutcome>>;
  /** eddy p1's peak memory in a child process. */
  readonly memory?: MemoryResult | { readonly error: string };
}

/** A ratio configuration: numerator engine over denominator engine. */
export interface RatioPair { readonly num: string; readonly den: string }

/** The pairs the report shows (when both engines ran). */
export const RATIO_PAIRS: readonly RatioPair[] = [
  { num: 'eddy-p1', den: 'duckdb-1t' },
  { num: 'eddy-p2', den: 'duckdb-2t' },
  { num: 'eddy-cached-p1', den: 'duckdb-1t' },
  { num: 'eddy-cached-p2', den: 'duckdb-2t' },
  { num: 'eddy-p1', den: 'hand-loop' },
  { num: 'eddy-p1', den: 'arquero' },
  { num: 'eddy-p2', den: 'eddy-p1' },
];

/** Geometric mean of one pair over the queries where both are timed. */
export interface GeoMean { readonly num: string; readonly den: string; readonly value: number; readonly queries: number }

/** The whole document. */
export interface SuiteReport {
  readonly benchmark: 'suite';
  readonly schemaVersion: 1;
  readonly sf: number;
  readonly runs: number;
  /** Untimed runs per (query, engine) before the timed ones, at least. */
  readonly warmupRuns: number;
  /** Wall ms of untimed runs per (query, engine) before the timed ones, at least (more runs until then; absent: no budget). */
  readonly warmupMs?: number;
  /** The machine's CPU steal over the run (/proc/stat: time the hypervisor gave this VM's CPUs to others), percent of the CPUs' time; absent off Linux. */
  readonly stealPct?: number;
  /** Memory streaming rates before and after the run (bench/lib/memory-bandwidth.ts); absent with --quick. */
  readonly memoryBandwidth?: { readonly before: BandwidthProbe; readonly after: BandwidthProbe };
  readonly timeoutMs: number;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly machine: Readonly<Record<string, string | number>>;
  readonly versions: Readonly<Record<string, string>>;
  /** 1, 5 and 15 minute load averages before and after the run. */
  readonly load: { readonly before: readonly number[]; readonly after: readonly number[] };
  readonly data: Readonly<Record<string, string | number | boolean>>;
  readonly engines: readonly string[];
  /** Display name of each engine id. */
  readonly engineLabels: Readonly<Record<string, string>>;
  readonly queries: readonly QueryOutcome[];
  readonly geomeans: readonly GeoMean[];
  /** The same over median CPU times. */
  readonly cpuGeomeans: readonly GeoMean[];
  readonly workloads: { readonly cache?: unknown };
}

/** Which median a ratio uses. */
export type Clock = 'wall' | 'cpu';

/** A timed, verified median (undefined otherwise). */
export function timed(o: EngineOutcome | undefined, clock: Clock = 'wall'): number | undefined {
  return o && (o.status === 'ok' || o.status === 'reference') ? (clock === 'wall' ? o.medianMs : o.cpuMedianMs) : undefined;
}

/** num/den for one query, when both are timed. */
export function queryRatio(q: QueryOutcome, p: RatioPair, clock: Clock = 'wall'): number | undefined {
  const a = timed(q.engines[p.num], clock);
  const b = timed(q.engines[p.den], clock);
  return a === undefined || b === undefined || b === 0 ? undefined : a / b;
}

/**
 * eddy's speed-up from parallelism 1 to 2 on one query (p1's median / p2's; > 1: p2 faster), when both
 * were timed: over wall-clock medians, or over critical-path CPU medians (`criticalCpuMedianMs`, run.ts
 * `criticalPath`), which a shared machine's load distorts far less than wall
 * time while still crediting the overlap of the threads — the process's CPU sums them and so cannot.
 */
export function parallelSpeedUp(q: QueryOutcome, clock: 'wall' | 'critical'): number | undefined {
  if (clock === 'wall') { const r = queryRatio(q, { num: 'eddy-p2', den: 'eddy-p1' }); return r === undefined || r === 0 ? undefined : 1 / r; }
  const a = timed(q.engines['eddy-p1']) === undefined ? undefined : q.engines['eddy-p1']!.criticalCpuMedianMs;
  const b = timed(q.engines['eddy-p2']) === undefined ? undefined : q.engines['eddy-p2']!.criticalCpuMedianMs;
  return a === undefined || b === undefined || b === 0 ? undefined : a / b;
}

/** Geometric means of every pair with at least one query. */
export function geomeans(queries: readonly QueryOutcome[], clock: Clock = 'wall'): GeoMean[] {
  const out: GeoMean[] = [];
  for (const p of RATIO_PAIRS) {
    const rs = queries.map((q) => queryRatio(q, p, clock)).filter((r): r is number => r !== undefined && r > 0);
    if (rs.length === 0) continue;
    out.push({ ...p, value: Math.exp(rs.reduce((s, r) => s + Math.log(r), 0) / rs.length), queries: rs.length });
  }
  return out;
}

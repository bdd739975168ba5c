/**
 * The suite's two charts as data for svg.ts: eddy / DuckDB time per TPC-H
 * query (one bar per configuration pair that ran), and per cache-workload
 * query the speed-up of serving `j` from eddy's cache (and DuckDB's temp
 * table) over recomputing it.
 */
import type { CacheWorkloadResult } from './cache-workload.js';
import { ENGINE_LABEL } from './engines.js';
import type { SuiteEngine } from './args.js';
import { queryRatio, timed, type QueryOutcome, type RatioPair, type SuiteReport } from './results.js';
import { logBarChart, type BarGroup } from './svg.js';

const COLORS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#9467bd'];
const CHART_PAIRS: readonly RatioPair[] = [
  { num: 'eddy-p1', den: 'duckdb-1t' },
  { num: 'eddy-p2', den: 'duckdb-2t' },
  { num: 'eddy-cached-p1', den: 'duckdb-1t' },
];

const label = (id: string): string => ENGINE_LABEL[id as SuiteEngine] ?? id;

/** Why a ratio is missing (the numerator's status), or undefined when it is just not run. */
function note(q: QueryOutcome, p: RatioPair): string | undefined {
  const s = q.engines[p.num]?.status;
  if (s === 'wrong') return 'WRONG';
  if (s === 'timeout' || s === 'error' || s === 'no-reference') return s;
  return undefined;
}

/** eddy / DuckDB per query. */
export function ratioChart(rep: SuiteReport): string {
  const pairs = CHART_PAIRS.filter((p) => rep.queries.some((q) => q.engines[p.num] && q.engines[p.den]));
  const groups: BarGroup[] = rep.queries.map((q) => ({
    label: q.id.toUpperCase(),
    values: pairs.map((p) => queryRatio(q, p) ?? note(q, p)),
  }));
  return logBarChart({
    title: `eddy vs DuckDB, TPC-H SF ${rep.sf}`,
    subtitle: `median of ${rep.runs} runs after ${rep.warmupRuns} warm-up${rep.warmupRuns === 1 ? '' : 's'}, answers verified; ${rep.finishedAt.slice(0, 10)}, load ${rep.load.before[0]} → ${rep.load.after[0]}`,
    axis: 'eddy time / DuckDB time (log scale; right of 1×: eddy slower)',
    series: pairs.map((p, i) => ({ name: `${label(p.num)} / ${label(p.den)}`, color: COLORS[i]! })),
    groups,
  });
}

/** Cached vs recomputed speed-ups, or undefined when the workload did not run. */
export function cacheChart(rep: SuiteReport): string | undefined {
  const w = rep.workloads.cache as CacheWorkloadResult | undefined;
  if (!w || !('queries' in w)) return undefined;
  const series = [
    { cached: 'eddy-cached', base: 'eddy-recomputed', name: 'eddy: recomputed / cached' },
    { cached: 'eddy-cached-over-budget', base: 'eddy-recomputed', name: 'eddy: recomputed / cached over budget' },
    { cached: 'duckdb-temp', base: 'duckdb-view', name: 'DuckDB: view / temp table' },
  ].filter((s) => s.cached in w.configs && s.base in w.configs);
  const groups: BarGroup[] = w.queries.map((q) => ({
    label: q.id,
    values: series.map((s) => {
      const a = timed(q.engines[s.base]);
      const b = timed(q.engines[s.cached]);
      if (a !== undefined && b !== undefined && b > 0) return a / b;
      const st = q.engines[s.cached]?.status;
      return st === 'wrong' ? 'WRONG' : st;
    }),
  }));
  return logBarChart({
    title: `Cached vs recomputed, TPC-H SF ${rep.sf}`,
    subtitle: 'queries over j = customer ⋈ orders ⋈ lineitem; speed-up = recomputed time / time with j cached',
    axis: 'speed-up (log scale; right of 1×: caching pays)',
    series: series.map((s, i) => ({ name: s.name, color: COLORS[i]! })),
    groups,
  });
}

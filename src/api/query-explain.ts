/**
 * EXPLAIN and EXPLAIN ANALYZE text at any parallelism (docs/table-api.md "EXPLAIN at parallelism 2 and more").
 *
 * Decision: both print what a run executes, not what was planned. At parallelism > 1 a run first
 * runs the plan's worker stages, then runs what is left on the calling thread at parallelism 1
 * (api/run-graphs.ts), so the Physical Plan is that graph: chosen stages appear as scans of
 * their results (`stage N`; EXPLAIN's are placeholders with estimated rows, ship-choose.ts) and
 * the Worker Stages section says what ran where. EXPLAIN ANALYZE runs exactly what a normal run
 * runs (stages included), annotates the calling thread's operators, and adds one line per stage
 * that ran from the stage traces (ship-trace.ts: mode, rounds, wall and CPU milliseconds).
 */
import type { JobExecution } from '../exec/runtime.js';
import { explainPlan, type PhysicalPlan, type RunGraph } from '../planner/planner.js';
import { iterationAnnotations } from '../planner/lower-iterate.js';
import { explainStages, type StageDecision } from '../planner/ship-choose.js';
import type { StageTrace } from '../planner/ship-trace.js';

/** The graph one run executed on the calling thread, and (at parallelism > 1 with workers) its stage decisions and traces. */
export interface RanGraph extends RunGraph {
  readonly decisions?: readonly StageDecision[];
  readonly traces?: readonly StageTrace[];
}

/** `== Worker Stages ==` and its lines, or nothing when there are none. */
export function workerStagesSection(lines: readonly string[]): string {
  return lines.length === 0 ? '' : `\n\n== Worker Stages ==\n${lines.join('\n')}`;
}

/** EXPLAIN: the plans, the graph the calling thread would run, and the worker-stage lines. */
export function explainText(p: PhysicalPlan, physical: RunGraph, stageLines: readonly string[]): string {
  return `${explainPlan(p, undefined, physical)}${workerStagesSection(stageLines)}`;
}

/**
 * EXPLAIN ANALYZE: the plans with the calling thread's graph annotated by the run's per-vertex
 * metrics, the worker stages the run considered and ran, and the result's rows and wall time.
 */
export function explainAnalyzeText(p: PhysicalPlan, ran: RanGraph, job: JobExecution, workers: number, rows: number, totalMs: number): string {
  const m = new Map<number, string>(job.metrics().map((x) => [x.vertex, `rows=${x.rowsOut} batches=${x.batchesOut} time=${x.timeMs.toFixed(1)}ms`]));
  for (const [v, note] of iterationAnnotations(ran.graph)) m.set(v, `${m.get(v) ?? ''} ${note}`.trim());
  const lines = [...explainStages(ran.decisions ?? [], workers), ...(ran.traces ?? []).map(traceLine)];
  return `${explainPlan(p, m, ran)}${workerStagesSection(lines)}\n\n${rows} rows in ${totalMs.toFixed(1)} ms`;
}

/** `ran: partial stage, 2 rounds, 41.2 ms wall, calling thread 20.1 ms CPU, shares' job CPU 18.3 + 19.0 ms`. */
export function traceLine(t: StageTrace): string {
  const rounds = t.rounds.length;
  const jobCpu = t.rounds.reduce<number[]>((acc, round) => { round.forEach((r, i) => { acc[i] = (acc[i] ?? 0) + r.runCpuMs; }); return acc; }, []);
  const sorted = t.contiguous ? ' (sorted key)' : '';
  return `ran: ${t.mode} stage${sorted}, ${rounds} round${rounds === 1 ? '' : 's'}, ${t.wallMs.toFixed(1)} ms wall, calling thread ${t.callingCpuMs.toFixed(1)} ms CPU, shares' job CPU ${jobCpu.map((x) => x.toFixed(1)).join(' + ')} ms`;
}

/**
 * Which job graph the calling thread runs for a planned query, after the worker stages that run
 * first (docs/multi-core.md), and EXPLAIN's view of the same choice.
 *
 * At parallelism P > 1 the calling thread runs the parallelism-1 graph of what the worker stages
 * leave, or of the whole plan when none runs: subtasks taking turns on one thread cost 1.4-2.7x
 * p1's CPU (150k rows, docs/multi-core-history.md session 12) and interleave a file scan's
 * batches, and parallelism must never slow a query. That holds for `workers: 'off'` and for
 * EXPLAIN ANALYZE too, which runs what a run runs (stages included).
 *
 * Decision: the graph at P (subtasks on this thread) runs only where semantics ask for it or a
 * test does:
 * - a run that writes a cache entry: an entry has one partition per sink subtask, spread over
 *   the cache service instances (CACHE-SEMANTICS.md C12; instances default to the parallelism),
 *   and a lost instance loses only its partitions (C14); at parallelism 1 every entry would be
 *   one partition on one instance. Such a run ships no stage (its sinks tee from the one job).
 * - `workers: 'always'` with no stage, and the internal `parallelGraph` switch: tests of the
 *   parallel graph (the graph that cache writes run).
 * Nothing else depends on subtasks: a stageless plan at P > 1 (iterations included: their round
 * counts with in-place updates follow the graph, test/iteration/table/usingkey-keepmin.test.ts)
 * already ran at parallelism 1 with workers on, and env.streams runs jobs of its own.
 */
import type { RelNode } from '../relnode/rel.js';
import { lowerWithNodes, type PhysicalPlan, type PlanOptions, type RunGraph } from '../planner/planner.js';
import { DEFAULT_WORKER_MIN_ROWS, DEFAULT_FINAL_HERE_ROWS, StageRunner, type StageTrace } from '../planner/ship-run.js';
import { explainStages, type StageDecision } from '../planner/ship-choose.js';
import { explainText, type RanGraph } from './query-explain.js';

/** The settings the choice reads (a subset of ExecutorSettings). */
export interface RunGraphSettings {
  readonly parallelism: number;
  readonly batchSize: number;
  readonly memoryLimit: () => number;
  readonly workers?: 'auto' | 'large' | 'always' | 'off';
  readonly callingThreadShare?: boolean;
  readonly parallelGraph?: boolean;
}

/** What worker statistics `env.workerStats` reports (docs/multi-core.md "Measuring"). */
export interface WorkerStats {
  readonly live: number;
  readonly stages: number;
  readonly rounds: number;
  readonly workerCpuMs: readonly number[];
  readonly traces: readonly StageTrace[];
  readonly decisions: readonly StageDecision[];
}

/** The graphs an executor's runs execute on the calling thread, and the worker stages before them. */
export class RunGraphs {
  /** @internal The worker threads (started with the first stage that runs); benches and tests read or replace it. */
  stageRunner: StageRunner | undefined;
  /**
   * Per planned query that ran without a worker stage: the graph it ran (lowered at parallelism
   * 1, or its own graph) and the stage decisions, so that running it again neither looks for
   * stages nor lowers it again (TPC-H Q2, which has no stage, took 21.5 ms at parallelism 2
   * against 17.6 at 1 on the last quiet suite run: the search and a second lowering per run).
   * Keyed by the plan object, so it lives and is leased as the plan is (physical-plans.ts).
   */
  private readonly withoutStages = new WeakMap<PhysicalPlan, RanGraph>();

  /** `lowering`: the planning options without cache writes (what the rest of a plan is lowered with). */
  constructor(private readonly settings: RunGraphSettings, private readonly lowering: () => PlanOptions) {}

  /**
   * The graph this thread runs for a plan without considering worker stages, or undefined when
   * the run may ship stages (`withStages`; asked first, so that a query on this thread awaits
   * nothing for it): the planned graph at parallelism 1 or for a cache write, else the stageless
   * graph when workers are off.
   */
  here(plan: PhysicalPlan, writesCache: boolean): RanGraph | undefined {
    const s = this.settings;
    if (s.parallelism < 2 || writesCache) return plan;
    return s.workers === 'off' ? this.stageless(plan, []) : undefined;
  }

  /**
   * Runs the plan's worker stages and returns the parallelism-1 graph of what they leave, with
   * the run's decisions and stage traces (EXPLAIN ANALYZE); a plan that no stage covers runs its
   * stageless graph.
   */
  async withStages(plan: PhysicalPlan, signal: AbortSignal | undefined): Promise<RanGraph> {
    const s = this.settings;
    // A plan that ran without a stage before does so again (the choice depends on the plan only).
    const kept = this.withoutStages.get(plan);
    if (kept !== undefined) return kept;
    const runner = this.runner();
    // This run's own record: the runner's stats hold the latest run's, which may be another query's.
    const record = { decisions: [] as StageDecision[], traces: [] as StageTrace[] };
    const rest = await runner.runStages(plan.optimized, {
      ...this.stageChoice(), batchSize: s.batchSize, memoryLimit: s.memoryLimit(), record, ...(signal ? { signal } : {}),
    });
    if (rest === undefined) return this.stageless(plan, record.decisions);
    return { ...lowerWithNodes(rest, this.lowering(), 1), decisions: record.decisions, traces: record.traces };
  }

  /**
   * EXPLAIN: the plans, the graph this thread would run and, at parallelism > 1 with workers on,
   * each candidate stage of the optimized plan, shipped or not and why (planner/ship-choose.ts),
   * as a run would decide, or one line saying that a run writing a cache entry uses no worker.
   * Nothing runs: a chosen stage shows as a placeholder scan with its estimated rows.
   */
  explain(p: PhysicalPlan, writesCache: boolean): string {
    const s = this.settings;
    const here = this.here(p, writesCache);
    if (here !== undefined) return explainText(p, here, writesCache && s.parallelism > 1 && s.workers !== 'off' ? ['none: a run that writes a cache entry runs no worker stage'] : []);
    let rest: RelNode = p.optimized;
    const lines = explainStages(this.runner().planStages(p.optimized, this.stageChoice(), (r) => { rest = r; }), s.parallelism);
    return explainText(p, rest === p.optimized ? this.stagelessGraph(p) : lowerWithNodes(rest, this.lowering(), 1), lines);
  }

  /** Worker threads alive now, stages run on them, and their CPU milliseconds. */
  get workerStats(): WorkerStats {
    const r = this.stageRunner;
    return { live: r?.liveWorkers ?? 0, stages: r?.stats.stages ?? 0, rounds: r?.stats.rounds ?? 0, workerCpuMs: [...(r?.stats.workerCpuMs ?? [])], traces: [...(r?.stats.traces ?? [])], decisions: [...(r?.stats.decisions ?? [])] };
  }

  /** Ends the worker threads (env.close()). */
  async close(): Promise<void> {
    await this.stageRunner?.close();
  }

  /** The stageless graph of `plan`, kept for its next runs with the decisions that left it stageless. */
  private stageless(plan: PhysicalPlan, decisions: readonly StageDecision[]): RanGraph {
    const kept = this.withoutStages.get(plan);
    if (kept !== undefined) return kept;
    const g: RanGraph = { ...this.stagelessGraph(plan), decisions };
    this.withoutStages.set(plan, g);
    return g;
  }

  /**
   * The graph of a plan that runs no worker stage: lowered at parallelism 1 (the planned graph is
   * lowered when first read, planner.ts, so this is the plan's only lowering), or the planned
   * graph under `workers: 'always'` or `parallelGraph` (tests of the parallel graph).
   */
  private stagelessGraph(plan: PhysicalPlan): RunGraph {
    const s = this.settings;
    if (s.workers === 'always' || s.parallelGraph === true) return { graph: plan.graph, vertexNodes: plan.vertexNodes };
    return lowerWithNodes(plan.optimized, this.lowering(), 1);
  }

  /** The worker stages' runner (its threads start on its first stage). */
  private runner(): StageRunner {
    return this.stageRunner ??= new StageRunner(this.settings.parallelism, { callingShare: this.settings.callingThreadShare ?? true });
  }

  /**
   * How stages are chosen: `'auto'` weighs each candidate over a large scan (ship-cost.ts),
   * `'large'` ships every such candidate, `'always'` every candidate whatever its size (tests).
   */
  private stageChoice(): { minRows: number; finalHereRows: number; costed: boolean } {
    const always = this.settings.workers === 'always';
    return { minRows: always ? 0 : DEFAULT_WORKER_MIN_ROWS, finalHereRows: always ? 0 : DEFAULT_FINAL_HERE_ROWS, costed: this.settings.workers === 'auto' };
  }
}

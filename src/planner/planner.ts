/**
 * The planner pipeline for one query (DESIGN.md "planner"): the validated
 * tree as built → optimize (rules to a digest fixpoint) → lower to a job
 * graph. Cache substitution slots in before optimization.
 */
import type { RelNode } from '../relnode/rel.js';
import { explainTree } from '../relnode/explain.js';
import type { JobGraph } from '../exec/job.js';
import { explainJob } from '../exec/job.js';
import { optimize } from './optimizer.js';
import { lower } from './lower.js';

/** Planner options. */
export interface PlanOptions {
  readonly parallelism: number;
  /** Skip the optimizer (for debugging and differential tests of the rules). */
  readonly optimize?: boolean;
}

/** A planned query: the logical tree, the optimized tree and the job graph. */
export interface PhysicalPlan {
  readonly logical: RelNode;
  readonly optimized: RelNode;
  readonly graph: JobGraph;
}

/** Plans a query. */
export function planQuery(logical: RelNode, options: PlanOptions): PhysicalPlan {
  const optimized = options.optimize === false ? logical : optimize(logical);
  const graph = lower(optimized, { parallelism: options.parallelism });
  return { logical, optimized, graph };
}

/** EXPLAIN text: logical, optimized and physical plans; `metrics` annotates the physical plan (EXPLAIN ANALYZE). */
export function explainPlan(p: PhysicalPlan, metrics?: ReadonlyMap<number, string>): string {
  return [
    '== Logical Plan ==',
    explainTree(p.logical),
    '',
    '== Optimized Plan ==',
    explainTree(p.optimized),
    '',
    metrics ? '== Physical Plan (analyzed) ==' : '== Physical Plan ==',
    explainJob(p.graph, metrics),
  ].join('\n');
}

/**
 * USING SAMPLE binds to a sample node (planner/sample.ts) right over the FROM clause's relation, so
 * WHERE, GROUP BY and the select list see only the sampled rows (DuckDB's order, though the clause is
 * written after QUALIFY). The FROM columns and their names are unchanged.
 */
import { sampleNode } from '../../planner/sample.js';
import type { SampleClause } from '../ast.js';
import type { BoundRel } from './scope.js';

/** `from` sampled as `clause` says, or `from` itself without a clause. */
export function withSample(from: BoundRel, clause: SampleClause | undefined): BoundRel {
  if (clause === undefined) return from;
  const seed = clause.seed === undefined ? {} : { seed: clause.seed };
  const node = 'rows' in clause.size
    ? sampleNode(from.plan, { method: 'reservoir', rows: clause.size.rows, ...seed })
    : sampleNode(from.plan, { method: clause.method, percent: clause.size.percent, ...seed });
  return { ...from, plan: node };
}

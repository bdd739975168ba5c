/**
 * The Filter, Project and FilterProject vertices lowering adds (split from lower.ts): each compiles
 * its expressions once per plan and adds one forward-edge operator at its input's parallelism.
 */
import type * as rel from '../relnode/rel.js';
import { formatRex } from '../relnode/explain.js';
import { compileExpr, compilePredicate } from '../exec/kernels/index.js';
import type { JobGraphBuilder } from '../exec/job.js';
import { filterOperator, filterProjectOperator } from '../exec/operators/filter.js';
import { compileStage } from '../exec/kernels/fused-stage.js';
import { projectOperator } from '../exec/operators/project.js';
import { unusedDetail, usedMask } from './lower-columns.js';

/** A Filter vertex; with `used` (the columns its parent reads) the other columns are not copied. */
export function addFilter(n: rel.Filter, input: number, b: JobGraphBuilder, used?: ReadonlySet<number>): number {
  const pred = compilePredicate(n.condition, n.input.schema);
  const keep = usedMask(n.schema, used);
  const detail = (): string => `${formatRex(n.condition, n.input.schema)}${unusedDetail(n.schema, keep)}`;
  return b.addOperator('Filter', b.parallelismOf(input), n.schema, () => filterOperator(pred, keep), [{ from: input, partitioner: { kind: 'forward' } }], detail);
}

/** EXPLAIN text of a projection's expressions. */
export function projectDetail(n: rel.Project): string {
  return n.exprs.map((e) => formatRex(e, n.input.schema)).join(', ');
}

/** A Project vertex computing `n`'s expressions over its input's batches. */
export function addProject(n: rel.Project, input: number, b: JobGraphBuilder): number {
  const kernels = n.exprs.map((e) => compileExpr(e, n.input.schema));
  return b.addOperator('Project', b.parallelismOf(input), n.schema, () => projectOperator(kernels), [{ from: input, partitioner: { kind: 'forward' } }], () => projectDetail(n));
}

/** `Project ← Filter` as one vertex: the projection reads through the filter's selection and gathers its output columns once. */
export function addFilterProject(n: rel.Project, f: rel.Filter, input: number, b: JobGraphBuilder): number {
  const stage = compileStage(f.condition, n.exprs, f.input.schema);
  const detail = (): string => `filter=${formatRex(f.condition, f.input.schema)}, exprs=[${projectDetail(n)}]`;
  return b.addOperator('FilterProject', b.parallelismOf(input), n.schema, () => filterProjectOperator(stage), [{ from: input, partitioner: { kind: 'forward' } }], detail);
}

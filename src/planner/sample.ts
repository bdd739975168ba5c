/**
 * USING SAMPLE as a plan node: a TableFunction named `sample` over the FROM clause's relation, run by
 * exec/operators/sample.ts with parallelism 1.
 *
 * Decision: a TableFunction rather than a new RelNode kind, because every rule already treats one as a
 * barrier — no filter or limit moves through it (a WHERE must see the sampled rows, not sample the
 * filtered ones), it never ships to a worker, and a subtree with an unseeded one is never cached. Its
 * columns pass through unchanged (`columnsPassThrough`), so column pruning still narrows the scan
 * below it. The digest sees the method, size and seed; an unseeded sample draws its seed when it runs
 * (a new sample per run, as DuckDB's), a REPEATABLE one is the same at every run and parallelism.
 */
import type { JobGraphBuilder } from '../exec/job.js';
import { sampleOperator, type SampleSpec } from '../exec/operators/sample.js';
import { ValidationError } from '../relnode/errors.js';
import type { RelNode } from '../relnode/rel.js';
import { tableFunction, type TableFunction, type TableFunctionArg } from '../relnode/table-function.js';
import type { TableFunctionImpl } from './lower.js';

/** What USING SAMPLE asked for; `seed` undefined = a new seed per run. */
export type SampleRequest =
  | { readonly method: 'bernoulli' | 'system' | 'reservoir'; readonly percent: number; readonly seed?: number }
  | { readonly method: 'reservoir'; readonly rows: number; readonly seed?: number };

/** The name of the sample node's TableFunction. */
export const SAMPLE_FUNCTION = 'sample';

class SampleImpl implements TableFunctionImpl {
  constructor(readonly request: SampleRequest) {}

  lower(b: JobGraphBuilder, inputs: readonly number[], _parallelism: number, node: TableFunction): number {
    const r = this.request;
    const detail = 'rows' in r ? `reservoir, ${r.rows} rows` : `${r.method}, ${r.percent}%`;
    return b.addOperator('Sample', 1, node.schema, () => sampleOperator(specOf(r)), [{ from: inputs[0]!, partitioner: { kind: 'global' } }], `${detail}${r.seed === undefined ? '' : `, seed ${r.seed}`}`);
  }
}

function specOf(r: SampleRequest): SampleSpec {
  const seed = r.seed ?? Math.floor(Math.random() * 4294967296);
  if ('rows' in r) return { method: 'reservoir', rows: r.rows, seed };
  return r.method === 'reservoir' ? { method: 'reservoir', fraction: r.percent / 100, seed } : { method: r.method, fraction: r.percent / 100, seed };
}

/** The sample node over `input` (checks the request: the SQL binder has checked it already, the Table API has not). */
export function sampleNode(input: RelNode, r: SampleRequest): TableFunction {
  if ('rows' in r) {
    if (!Number.isSafeInteger(r.rows) || r.rows < 0) throw new ValidationError(`a sample size in rows must be a whole number ≥ 0, got ${r.rows}`);
  } else if (!(r.percent >= 0 && r.percent <= 100)) {
    throw new ValidationError(`a sample percentage must be between 0 and 100, got ${r.percent}`);
  }
  if (r.seed !== undefined && (!Number.isSafeInteger(r.seed) || r.seed < 0)) throw new ValidationError(`a sample seed must be a whole number ≥ 0, got ${r.seed}`);
  const args: TableFunctionArg[] = [{ name: 'method', value: r.method, type: 'VARCHAR' }];
  if ('rows' in r) args.push({ name: 'rows', value: BigInt(r.rows), type: 'BIGINT' });
  else args.push({ name: 'percent', value: r.percent, type: 'DOUBLE' });
  if (r.seed !== undefined) args.push({ name: 'seed', value: BigInt(r.seed), type: 'BIGINT' });
  return tableFunction(SAMPLE_FUNCTION, [input], args, input.schema, new SampleImpl(r), r.seed !== undefined, true);
}

/** The estimated rows out of a sample node over `inputRows` rows, or undefined when `n` is not one. */
export function sampleRows(n: TableFunction, inputRows: number): number | undefined {
  if (!(n.impl instanceof SampleImpl)) return undefined;
  const r = n.impl.request;
  return 'rows' in r ? Math.min(r.rows, inputRows) : inputRows * (r.percent / 100);
}

/** What the multi-core tests read of an environment's worker threads. */
import type * as arrow from 'apache-arrow';
import { expect } from 'vitest';
import type { TableEnvironment } from '../../src/api/environment.js';
import type { QueryExecutor } from '../../src/api/query-execution.js';
import { expectSameResult, fromArrow } from '../helpers/compare.js';

/** Live workers, stages run, worker CPU (QueryExecutor.workerStats). */
export function workerStats(env: TableEnvironment): QueryExecutor['workerStats'] {
  return (env as unknown as { executor: QueryExecutor }).executor.workerStats;
}

/**
 * Runs `sql` at p2 then p1 and checks: p2 ran one partitioned stage (`contiguous` or hashed rows),
 * more than 1,000 result rows, the same rows, and per key `k` the same bits of the DOUBLE `s`.
 */
export async function expectPartitionedSameBits(p2: TableEnvironment, p1: TableEnvironment, sql: string, contiguous: boolean): Promise<void> {
  const a = await p2.sql(sql).collect();
  const trace = workerStats(p2).traces.at(-1);
  expect(trace?.mode).toBe('partitioned');
  expect(trace?.contiguous).toBe(contiguous);
  const b = await p1.sql(sql).collect();
  expect(a.numRows).toBeGreaterThan(1000);
  expectSameResult(fromArrow(a), fromArrow(b), {});
  const bits = (x: arrow.Table): Map<number, number> => new Map(x.toArray().map((r) => [Number(r.k), r.s as number]));
  const x = bits(a);
  for (const [k, s] of bits(b)) expect(Object.is(x.get(k), s)).toBe(true);
}

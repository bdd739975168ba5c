/** What the multi-core tests read of an environment's worker threads. */
import type { TableEnvironment } from '../../src/api/environment.js';
import type { QueryExecutor } from '../../src/api/query-execution.js';

/** Live workers, stages run, worker CPU (QueryExecutor.workerStats). */
export function workerStats(env: TableEnvironment): QueryExecutor['workerStats'] {
  return (env as unknown as { executor: QueryExecutor }).executor.workerStats;
}

/**
 * Every differential suite again with parallelism 4, 1000-row TPC-H batches
 * and the small tables split into 3-row record batches: hash exchanges,
 * per-subtask partial aggregates and multi-batch NULL handling must not
 * change any result.
 */
import { describe } from 'vitest';
import { useHarness } from './harness.js';
import { aggregateSuite } from './suites/aggregates.js';
import { edgeCaseSuite } from './suites/edge-cases.js';
import { expressionSuite } from './suites/expressions.js';
import { tableMethodSuite } from './suites/table-methods.js';

// Workers off: the parallelism-4 graph on this thread (with workers on, a plan that runs no worker
// stage runs lowered at parallelism 1, which the other suites test).
const h = useHarness({ env: { parallelism: 4, batchSize: 1000, workers: 'off', parallelGraph: true }, smallBatchRows: 3 });

describe('parallelism 4, batchSize 1000', () => {
  tableMethodSuite(h);
  expressionSuite(h);
  aggregateSuite(h);
  edgeCaseSuite(h);
});

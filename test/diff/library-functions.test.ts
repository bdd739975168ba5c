/**
 * The function library against DuckDB at parallelism 1 and at parallelism 2
 * with 3-row batches of the small tables (partial aggregate states merge).
 */
import { describe } from 'vitest';
import { useHarness } from './harness.js';
import { libraryFunctionSuite } from './suites/library-functions.js';

describe('parallelism 1', () => {
  libraryFunctionSuite(useHarness());
});

describe('parallelism 2, small batches', () => {
  libraryFunctionSuite(useHarness({ env: { parallelism: 2, batchSize: 1000 }, smallBatchRows: 3 }));
});

/**
 * Aggregates and NULL handling against DuckDB: count, countStar,
 * countDistinct, sum, avg, min, max, stddev (and the DISTINCT forms) —
 * grouped, global, over empty input and over all-NULL groups; NULL keys
 * never join, NULL group keys group together, NULLs ignored by aggregates.
 */
import { useHarness } from './harness.js';
import { aggregateSuite } from './suites/aggregates.js';

aggregateSuite(useHarness());

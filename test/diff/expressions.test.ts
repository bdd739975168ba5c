/**
 * Every expression family against DuckDB, mostly over the hand-made `nulls`
 * table (NULLs in every type) and a few TPC-H columns (dictionary strings,
 * dates): arithmetic, comparisons, three-valued logic, IS [NOT] NULL, IN,
 * BETWEEN, LIKE, CAST, CASE, string, math and date functions.
 */
import { useHarness } from './harness.js';
import { expressionSuite } from './suites/expressions.js';

expressionSuite(useHarness());

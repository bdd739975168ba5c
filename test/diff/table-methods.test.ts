/**
 * Every Table method against DuckDB: select, addColumns, dropColumns,
 * renameColumns, filter/where, groupBy().select/aggregate, distinct, the
 * joins, orderBy, limit, the set operations and as(alias).
 */
import { useHarness } from './harness.js';
import { tableMethodSuite } from './suites/table-methods.js';

tableMethodSuite(useHarness());

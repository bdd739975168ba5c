/**
 * eddy — a TypeScript query engine on Apache Arrow.
 *
 * ```ts
 * import { TableEnvironment, col, sum } from 'eddy';
 * const env = TableEnvironment.create();
 * env.registerTpch(0.01);
 * const t = env.from('lineitem').groupBy('l_returnflag').select('l_returnflag', sum('l_quantity').as('qty'));
 * console.table(await t.toArray());
 * ```
 */
export * from './api/index.js';
export * from './iteration/index.js';
export { EddyError, ParseError, ValidationError, ExecutionError, CancelledError, CacheError, IterationError, IterationLimitError, InternalError, type SourceLocation } from './relnode/errors.js';
export type { SqlType, Schema, Field } from './relnode/types.js';
export type { TableSource, ScanOptions } from './io/source.js';
export { generateTpch, tpchTable, TPCH_TABLES, type TpchTableName } from './io/tpch/index.js';

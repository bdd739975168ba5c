/**
 * A deterministic, seeded TPC-H data generator that writes Arrow record
 * batches directly (spec column names; Int32 keys, Float64 money, DateDay
 * dates, shared-dictionary low-cardinality strings; no nulls).
 */
export { TPCH_SCHEMAS, TPCH_TABLES, type TpchTableName } from './schemas.js';
export {
  DEFAULT_TPCH_BATCH_SIZE, generateTpch, tpchTable,
  type GenerateTpchOptions, type TpchTable, type TpchTableOptions,
} from './tables.js';

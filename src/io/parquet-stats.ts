/**
 * Table statistics from a Parquet footer: the row count, and per column the min / max, null count
 * and distinct count the writer recorded in each row group's column chunk metadata (merged over
 * row groups; a figure missing in any group stays unknown). Nothing is read beyond the footer.
 * Several row groups' distinct counts add up to an upper bound of the file's (capped by its rows):
 * a low-cardinality key (TPC-H lineitem's l_returnflag: 3 per row group, 147 over 49) then
 * estimates few groups, so an aggregate over the file pre-aggregates on the workers
 * (planner/ship-stages.ts) instead of shuffling every row; a key whose groups are disjoint
 * (l_orderkey, sorted) adds up to about its true count.
 * Decimal min/max are skipped (their encoding in statistics is the unscaled integer).
 */
import type { FileMetaData, RowGroup } from 'hyparquet';

type MinMaxType = bigint | boolean | number | string | Date | Uint8Array;
import type { SqlType } from '../relnode/types.js';
import { fixedStatistics, type ColumnStatistics, type TableStatistics } from './stats.js';
import { fixedBlockStats, type BlockStats, type ColumnStats, type StatValue } from './prune.js';

/** The column facts the statistics reader needs. */
export interface StatsColumn {
  readonly name: string;
  readonly type: SqlType;
  readonly decimalScale: number;
}

const MS_PER_DAY = 86_400_000;

function value(v: MinMaxType | undefined, c: StatsColumn): number | string | undefined {
  if (v === undefined || c.decimalScale >= 0) return undefined;
  if (v instanceof Date) return c.type === 'DATE' ? Math.floor(v.getTime() / MS_PER_DAY) : c.type === 'TIMESTAMP' ? v.getTime() : undefined;
  if (typeof v === 'bigint') return c.type === 'VARCHAR' ? undefined : Number(v);
  if (typeof v === 'number') return c.type === 'VARCHAR' || Number.isNaN(v) ? undefined : v;
  if (typeof v === 'string') return c.type === 'VARCHAR' ? v : undefined;
  if (v instanceof Uint8Array) return c.type === 'VARCHAR' ? new TextDecoder().decode(v) : undefined;
  return undefined;
}

/** Statistics of a Parquet file from its metadata (top-level columns matched by name). */
export function parquetStatistics(metadata: FileMetaData, columns: readonly StatsColumn[]): TableStatistics {
  const groups = metadata.row_groups;
  const out: ColumnStatistics[] = columns.map((c) => {
    let min: number | string | undefined, max: number | string | undefined;
    let nulls: number | undefined = 0;
    // The sum of the row groups' distinct counts bounds the file's (exact with one group).
    let distinct: number | undefined = 0;
    let minKnown = true, maxKnown = true;
    for (const g of groups) {
      const chunk = g.columns.find((k) => k.meta_data?.path_in_schema.length === 1 && k.meta_data.path_in_schema[0] === c.name);
      const s = chunk?.meta_data?.statistics;
      const lo = value(s?.min_value ?? s?.min, c);
      const hi = value(s?.max_value ?? s?.max, c);
      if (lo === undefined) minKnown = false;
      else if (min === undefined || lo < min) min = lo;
      if (hi === undefined) maxKnown = false;
      else if (max === undefined || hi > max) max = hi;
      nulls = s?.null_count !== undefined && nulls !== undefined ? nulls + Number(s.null_count) : undefined;
      distinct = s?.distinct_count !== undefined && distinct !== undefined ? distinct + Number(s.distinct_count) : undefined;
    }
    if (distinct !== undefined) distinct = Math.min(distinct, Number(metadata.num_rows));
    return {
      ...(minKnown && min !== undefined ? { min } : {}),
      ...(maxKnown && max !== undefined ? { max } : {}),
      ...(nulls !== undefined && groups.length > 0 ? { nullCount: nulls } : {}),
      ...(distinct !== undefined && groups.length > 0 ? { distinct } : {}),
    };
  });
  return fixedStatistics(Number(metadata.num_rows), out);
}

/**
 * The pruning statistics of one row group (io/prune.ts), per column of `columns`. Only what the
 * footer proves: an unknown null count is -1 (proves nothing about NULLs); string bounds come
 * only from min_value/max_value (the old min/max used a signed byte order); BIGINT bounds stay
 * bigint. A DOUBLE column's upper bound is NaN, the top of eddy's total order, since writers
 * such as Arrow C++ leave NaN out of min/max — except when `nanFreeBounds` (DuckDB writes no
 * statistics at all for a chunk holding a NaN, so its bounds are exact).
 */
export function rowGroupStats(group: RowGroup, columns: readonly StatsColumn[], nanFreeBounds = false): BlockStats {
  const out: ColumnStats[] = columns.map((c) => {
    const chunk = group.columns.find((k) => k.meta_data?.path_in_schema.length === 1 && k.meta_data.path_in_schema[0] === c.name);
    const s = chunk?.meta_data?.statistics;
    const nullCount = s?.null_count !== undefined ? Number(s.null_count) : -1;
    if (s === undefined || c.decimalScale >= 0) return { nullCount };
    const text = c.type === 'VARCHAR';
    const bound = (v: MinMaxType | undefined): StatValue | undefined => {
      if (v === undefined) return undefined;
      if (c.type === 'BIGINT') return typeof v === 'bigint' ? v : typeof v === 'number' && Number.isInteger(v) ? BigInt(v) : undefined;
      if (c.type === 'BOOLEAN') return typeof v === 'boolean' ? v : undefined;
      return value(v, c);
    };
    const min = bound(text ? s.min_value : s.min_value ?? s.min);
    const max = c.type === 'DOUBLE' && !nanFreeBounds ? (min === undefined ? undefined : Number.NaN) : bound(text ? s.max_value : s.max_value ?? s.max);
    return { nullCount, ...(min !== undefined && max !== undefined ? { min, max } : {}) };
  });
  return fixedBlockStats(Number(group.num_rows), out);
}

/** True if the file's writer omits statistics for chunks with a NaN (DuckDB), so DOUBLE bounds are exact. */
export function nanFreeBounds(metadata: FileMetaData): boolean {
  return /^duckdb/i.test(metadata.created_by ?? '');
}

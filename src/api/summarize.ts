/**
 * DESCRIBE and SUMMARIZE of a table or a query, with DuckDB's output columns.
 *
 * SUMMARIZE reads the rows once into memory and computes, per column, the
 * statistics DuckDB shows: min, max, approx_unique (the HyperLogLog sketch of
 * io/stats.ts), avg, std (sample standard deviation), q25/q50/q75, count and
 * null_percentage. Values print as eddy's CAST(x AS VARCHAR) prints them, so
 * they read like DuckDB's. Differences, documented in docs/repl.md: the
 * quartiles are what DuckDB's t-digest gives when each value is its own
 * centroid (so the same for small inputs; DuckDB's are estimates on large
 * ones), the distinct estimate comes from a different sketch, and null_percentage is a
 * DOUBLE rounded to 2 places (DuckDB: DECIMAL(9,2)).
 */
import { Float64, Int64, Table as ArrowTable, Utf8, vectorFromArray, type Data } from 'apache-arrow';
import { columnStatistics } from '../io/stats.js';
import * as rel from '../relnode/rel.js';
import { cast, inputRef, type LiteralValue } from '../relnode/rex.js';
import { field, schemaOf, type SqlType } from '../relnode/types.js';
import { notNullColumns } from './describe-nullability.js';
import type { Table } from './table.js';

/**
 * DESCRIBE's rows: column_name, column_type, null, key, default, extra (DuckDB's columns; the
 * last three are NULL). `null` is NO for a table's NOT NULL columns, and for a query's columns
 * that are such a column selected as is (describe-nullability.ts; DuckDB's rule); computed and
 * aggregated columns are YES.
 */
export function describeRows(t: Table, isQuery = false): ArrowTable {
  const notNull = isQuery ? notNullColumns(t.plan) : [];
  const fields = isQuery ? t.schema.fields.map((f, i) => ({ ...f, nullable: notNull[i] !== true })) : t.schema.fields;
  const none = fields.map(() => null);
  return new ArrowTable({
    column_name: vectorFromArray(fields.map((f) => f.name), new Utf8()),
    column_type: vectorFromArray(fields.map((f) => f.type), new Utf8()),
    null: vectorFromArray(fields.map((f) => (f.nullable ? 'YES' : 'NO')), new Utf8()),
    key: vectorFromArray(none, new Utf8()),
    default: vectorFromArray(none, new Utf8()),
    extra: vectorFromArray(none, new Utf8()),
  });
}

const NUMERIC: ReadonlySet<SqlType> = new Set(['INTEGER', 'BIGINT', 'DOUBLE']);
const ORDERED: ReadonlySet<SqlType> = new Set(['INTEGER', 'BIGINT', 'DOUBLE', 'DATE', 'TIMESTAMP']);
const MS_PER_DAY = 86_400_000;

/** What SUMMARIZE shows of one column before the values become text. */
interface ColumnSummary {
  readonly min: LiteralValue;
  readonly max: LiteralValue;
  readonly distinct: number;
  readonly avg: LiteralValue;
  readonly std: LiteralValue;
  readonly quartiles: readonly LiteralValue[];
  readonly nullPercentage: number;
}

/** SUMMARIZE's rows, one per column of `t`. */
export async function summarize(t: Table, signal?: AbortSignal): Promise<ArrowTable> {
  const data = await t.collect(signal ? { signal } : undefined);
  const fields = t.schema.fields;
  const rows = data.numRows;
  const summaries = fields.map((f, i) => summarizeColumn(f.type, data.batches.map((b) => b.data.children[i]!), rows));
  const text: (string | null)[][] = [];
  for (const [i, f] of fields.entries()) text.push(await asText(t, f.type, summaries[i]!));
  const col = (k: number) => vectorFromArray(text.map((r) => r[k]!), new Utf8());
  return new ArrowTable({
    column_name: vectorFromArray(fields.map((f) => f.name), new Utf8()),
    column_type: vectorFromArray(fields.map((f) => f.type), new Utf8()),
    min: col(0),
    max: col(1),
    approx_unique: vectorFromArray(summaries.map((s) => BigInt(s.distinct)), new Int64()),
    avg: col(2),
    std: col(3),
    q25: col(4),
    q50: col(5),
    q75: col(6),
    count: vectorFromArray(fields.map(() => BigInt(rows)), new Int64()),
    null_percentage: vectorFromArray(summaries.map((s) => s.nullPercentage), new Float64()),
  });
}

function summarizeColumn(type: SqlType, chunks: readonly Data[], rows: number): ColumnSummary {
  const stats = columnStatistics(chunks);
  const nulls = stats.nullCount ?? 0;
  const nullPercentage = rows === 0 ? 0 : Math.round((10000 * nulls) / rows) / 100;
  const base = { distinct: stats.distinct ?? 0, avg: null, std: null, quartiles: [null, null, null], nullPercentage };
  if (type === 'BOOLEAN') {
    const seen = booleans(chunks);
    return { ...base, min: seen.has(false) ? false : seen.has(true) ? true : null, max: seen.has(true) ? true : seen.has(false) ? false : null };
  }
  const min = stats.min ?? null, max = stats.max ?? null;
  if (!ORDERED.has(type)) return { ...base, min, max };
  const values = numbers(chunks, rows - nulls);
  if (values.length === 0) return { ...base, min, max };
  let mean = 0, m2 = 0;
  values.forEach((x, k) => { const d = x - mean; mean += d / (k + 1); m2 += d * (x - mean); });
  values.sort();
  // t-digest's estimate where every centroid is one value (exact for small inputs): interpolation at
  // position q·n − ½; integers and dates round half to even, as DuckDB's approx_quantile does.
  const integral = type !== 'DOUBLE' && type !== 'TIMESTAMP';
  const quartiles = [0.25, 0.5, 0.75].map((q) => {
    const pos = Math.min(values.length - 1, Math.max(0, q * values.length - 0.5)), lo = Math.floor(pos);
    const v = values[lo]! + (pos - lo) * ((values[Math.min(lo + 1, values.length - 1)] ?? 0) - values[lo]!);
    return integral ? roundHalfEven(v) : type === 'TIMESTAMP' ? Math.round(v) : v;
  });
  const avg = type === 'DATE' ? mean * MS_PER_DAY : mean;
  const std = NUMERIC.has(type) && values.length > 1 ? Math.sqrt(m2 / (values.length - 1)) : null;
  return { ...base, min, max, avg, std, quartiles: type === 'BIGINT' ? quartiles.map((q) => BigInt(q)) : quartiles };
}

function roundHalfEven(v: number): number {
  const f = Math.floor(v), d = v - f;
  return d > 0.5 || (d === 0.5 && f % 2 !== 0) ? f + 1 : f;
}

/** The non-NULL values of a numeric, date (days) or timestamp (ms) column as doubles. */
function numbers(chunks: readonly Data[], count: number): Float64Array {
  const out = new Float64Array(count);
  let n = 0;
  for (const d of chunks) {
    const v = d.values as ArrayLike<number | bigint>;
    const bm = d.nullCount > 0 ? d.nullBitmap : undefined;
    for (let i = 0; i < d.length; i++) {
      const j = d.offset + i;
      if (bm !== undefined && ((bm[j >> 3]! >> (j & 7)) & 1) === 0) continue;
      const x = Number(v[i]!);
      if (!Number.isNaN(x)) out[n++] = x;
    }
  }
  return out.subarray(0, n);
}

/** Which boolean values a column holds. */
function booleans(chunks: readonly Data[]): Set<boolean> {
  const seen = new Set<boolean>();
  for (const d of chunks) {
    const bits = d.values as Uint8Array;
    const bm = d.nullCount > 0 ? d.nullBitmap : undefined;
    for (let i = 0; i < d.length && seen.size < 2; i++) {
      const j = d.offset + i;
      if (bm !== undefined && ((bm[j >> 3]! >> (j & 7)) & 1) === 0) continue;
      seen.add(((bits[j >> 3]! >> (j & 7)) & 1) === 1);
    }
  }
  return seen;
}

/** min, max, avg, std, q25, q50, q75 as text, through eddy's casts to VARCHAR (a one-row VALUES plan). */
async function asText(t: Table, type: SqlType, s: ColumnSummary): Promise<(string | null)[]> {
  const avgType: SqlType = type === 'DATE' || type === 'TIMESTAMP' ? 'TIMESTAMP' : 'DOUBLE';
  const qType: SqlType = type === 'DOUBLE' || !ORDERED.has(type) ? 'DOUBLE' : type;
  const types: SqlType[] = [type, type, avgType, 'DOUBLE', qType, qType, qType];
  const avg = avgType === 'TIMESTAMP' && typeof s.avg === 'number' ? Math.round(s.avg) : s.avg;
  const row: LiteralValue[] = [s.min, s.max, avg, s.std, ...s.quartiles];
  const values = rel.values([row], schemaOf(types.map((ty, k) => field(`v${k}`, ty, true))));
  const plan = rel.project(values, types.map((ty, k) => cast(inputRef(k, ty), 'VARCHAR')), types.map((_, k) => `v${k}`));
  const out = await t.runner.collect(plan);
  return types.map((_, k) => (out.getChildAt(k)?.get(0) as string | null | undefined) ?? null);
}

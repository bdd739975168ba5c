/**
 * Whether an in-memory integer column holds every value at most once and no NULL: exact, because
 * the planner rewrites plans on it (a GROUP BY key such a column determines is dropped from the
 * hash key, planner/functional-deps.ts). Computed once per table version (stats.ts caches it).
 *
 * Decision: integer-valued columns only (INTEGER, DATE, BIGINT within ±2^53): the keys that
 * identify rows in practice, and the ones a bitmap or a sort can check without hashing strings.
 * The sketch's distinct count rejects most non-keys before any exact pass (HyperLogLog errs by
 * ~1.6%, so under 90% of the rows means duplicates); then a bitmap over [min, max] when the range is
 * at most 64 bits per row (TPC-H's keys are dense), else a sorted copy.
 */
import type { Data } from 'apache-arrow';
import type { ColumnStatistics } from './stats.js';

/** Largest bitmap the check allocates (bits): 16 MiB. */
const MAX_BITS = 1 << 27;

/** True when `chunks` (a column's batches) hold `rows` non-NULL integers, all different. */
export function columnIsUnique(chunks: readonly Data[], rows: number, stats: ColumnStatistics): boolean {
  if (rows === 0 || (stats.nullCount ?? 1) !== 0) return false;
  if (stats.distinct === undefined || stats.distinct < 0.9 * rows) return false;
  for (const d of chunks) if (!(d.values instanceof Int32Array || d.values instanceof BigInt64Array) || isDictionary(d)) return false;
  const { min, max } = stats;
  if (typeof min !== 'number' || typeof max !== 'number' || !Number.isSafeInteger(min) || !Number.isSafeInteger(max)) return false;
  const range = max - min + 1;
  if (range < rows) return false;
  if (range <= MAX_BITS && range <= 64 * rows) {
    const bits = new Int32Array(Math.ceil(range / 32));
    for (const d of chunks) {
      const v = d.values as Int32Array | BigInt64Array;
      for (let i = 0; i < d.length; i++) {
        const o = Number(v[i]!) - min;
        const w = o >>> 5;
        const b = 1 << (o & 31);
        if ((bits[w]! & b) !== 0) return false;
        bits[w] = bits[w]! | b;
      }
    }
    return true;
  }
  const all = new Float64Array(rows);
  let k = 0;
  for (const d of chunks) {
    const v = d.values as Int32Array | BigInt64Array;
    for (let i = 0; i < d.length; i++) all[k++] = Number(v[i]!);
  }
  all.sort();
  for (let i = 1; i < rows; i++) if (all[i] === all[i - 1]) return false;
  return true;
}

function isDictionary(d: Data): boolean {
  return (d as { dictionary?: unknown }).dictionary !== undefined;
}

/**
 * The benchmark's queries: the Table API and SQL forms come from
 * test/diff/tpch-queries.ts (shared with the differential tests); this adds
 * each query's Arquero form, the hand-written loop where there is one, the
 * tables it reads and its DATE output columns (for result normalisation).
 */
import type { Table as ArrowTable } from 'apache-arrow';
import type { TpchTableName } from '../../src/io/tpch/index.js';
import { TPCH_QUERIES, type TpchQuery } from '../../test/diff/tpch-queries.js';
import type { AqTable } from './arquero-data.js';
import { q1Arquero, q3Arquero, q6Arquero } from './arquero-queries.js';
import { q6HandLoop } from './hand-loop.js';

/** One benchmark query. */
export interface BenchQuery {
  /** Lower-case id (`q1`). */
  readonly id: string;
  /** Table API builder, SQL text, ordering (from the shared definitions). */
  readonly tpch: TpchQuery;
  /** The TPC-H tables it reads. */
  readonly tables: readonly TpchTableName[];
  /** Output columns of type DATE. */
  readonly dateColumns: readonly string[];
  /** The Arquero form. */
  readonly arquero: (t: Record<string, AqTable>) => AqTable;
  /** A hand-written typed-array loop over the Arrow data, if any. */
  readonly handLoop?: (t: Readonly<Record<string, ArrowTable>>) => Record<string, number>;
}

function shared(name: string): TpchQuery {
  const q = TPCH_QUERIES.find((x) => x.name === name);
  if (!q) throw new Error(`test/diff/tpch-queries.ts has no ${name}`);
  return q;
}

/** The queries of `bench:core`. */
export const BENCH_QUERIES: readonly BenchQuery[] = [
  { id: 'q1', tpch: shared('Q1'), tables: ['lineitem'], dateColumns: [], arquero: q1Arquero },
  { id: 'q3', tpch: shared('Q3'), tables: ['customer', 'orders', 'lineitem'], dateColumns: ['o_orderdate'], arquero: q3Arquero },
  {
    id: 'q6', tpch: shared('Q6'), tables: ['lineitem'], dateColumns: [], arquero: q6Arquero,
    handLoop: (t) => q6HandLoop(t['lineitem']!),
  },
];

/** The queries selected by `--only`, in benchmark order; throws on an unknown id. */
export function selectQueries(only: readonly string[]): BenchQuery[] {
  for (const id of only) {
    if (!BENCH_QUERIES.some((q) => q.id === id)) throw new Error(`unknown query "${id}"; choose from ${BENCH_QUERIES.map((q) => q.id).join(', ')}`);
  }
  return BENCH_QUERIES.filter((q) => only.includes(q.id));
}

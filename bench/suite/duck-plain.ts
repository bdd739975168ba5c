/** DuckDB's answer as the suite's plain rows (../lib/verify.ts), with the names of its DATE columns. */
import type { DuckDBConnection } from '@duckdb/node-api';
import { plainFromObjects, type PlainResult } from '../lib/verify.js';

/** What `runAndReadAll` returns. */
export type DuckReader = Awaited<ReturnType<DuckDBConnection['runAndReadAll']>>;

/** A normalised DuckDB answer. */
export type DuckPlain = PlainResult & { readonly dateColumns: string[] };

/** DuckDB's answer: rows as JS values, DATE columns named from the result types. */
export function duckPlain(r: DuckReader): DuckPlain {
  const names = r.columnNames();
  const dateColumns = names.filter((_, i) => r.columnType(i).toString() === 'DATE');
  return { ...plainFromObjects(r.getRowObjectsJS(), names, dateColumns), dateColumns };
}

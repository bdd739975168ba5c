/**
 * Small tables of numeric edge values for the exactness and numeric-key
 * differential tests (numeric-keys.test.ts, exact-avg.test.ts): BIGINTs near
 * ±2^63 and around 2^53, DOUBLEs that BIGINTs round to, -0.0, NaN, NULLs.
 * Registered in a harness's eddy environment (split into small record
 * batches) and loaded into its DuckDB.
 */
// The package root installs the SQL front end that env.sql uses.
import '../../src/index.js';
import { Table as ArrowTableClass, type RecordBatch } from 'apache-arrow';
import { loadRows, type ColumnType } from '../helpers/duckdb.js';
import type { Harness } from './harness.js';

const P63 = 2n ** 63n;
const P53 = 2n ** 53n;

/** name → column types and rows. */
export const NUMERIC_TABLES: Readonly<Record<string, { columns: Readonly<Record<string, ColumnType>>; rows: readonly Record<string, unknown>[] }>> = {
  big_a: {
    columns: { g: 'VARCHAR', big: 'BIGINT' },
    rows: [
      { g: 'top', big: P63 - 1n }, { g: 'top', big: P63 - 2n }, { g: 'top', big: P63 - 3n },
      { g: 'bottom', big: -P63 }, { g: 'bottom', big: -P63 + 1n },
      { g: 'mid', big: P53 }, { g: 'mid', big: P53 + 1n }, { g: 'mid', big: -P53 - 1n },
      { g: 'small', big: 1n }, { g: 'small', big: 2n }, { g: 'small', big: 3n }, { g: 'small', big: 4n },
      { g: 'small', big: 0n }, { g: 'small', big: null }, { g: 'nulls', big: null },
      { g: 'cancel', big: 9007199254740993n }, { g: 'cancel', big: 1n }, { g: 'cancel', big: -9007199254740992n },
    ],
  },
  dbl_b: {
    columns: { g: 'VARCHAR', v: 'DOUBLE' },
    rows: [
      { g: 'x', v: 9.223372036854776e18 }, { g: 'x', v: -9.223372036854776e18 }, { g: 'x', v: 9007199254740992 },
      { g: 'y', v: 1 }, { g: 'y', v: 2 }, { g: 'y', v: 3 }, { g: 'y', v: 4 }, { g: 'y', v: 1.5 },
      { g: 'z', v: 0 }, { g: 'z', v: -0 }, { g: 'z', v: NaN }, { g: 'z', v: NaN }, { g: 'z', v: null },
    ],
  },
  ints: {
    columns: { i: 'INTEGER' },
    rows: [{ i: 0 }, { i: 1 }, { i: 2 }, { i: 5 }, { i: null }, { i: -1 }],
  },
};

/** Registers the tables in eddy (as record batches of `batchRows` rows) and loads them into DuckDB. */
export async function registerNumericTables(h: Harness, batchRows: number): Promise<void> {
  for (const [name, { columns, rows }] of Object.entries(NUMERIC_TABLES)) {
    const batches: RecordBatch[] = [];
    for (let i = 0; i < rows.length; i += batchRows) batches.push(...(await h.env.fromRecords(rows.slice(i, i + batchRows), columns).collect()).batches);
    h.env.registerTable(name, new ArrowTableClass(batches[0]!.schema, batches));
    await loadRows(h.duck, name, columns, rows);
  }
}

/**
 * DuckDB as the oracle of differential tests: an in-process database loaded
 * with the same data as eddy (Arrow tables through the appender API, or plain
 * rows with a declared schema), and queries returning normalised ResultSets.
 */
import { DuckDBInstance, DuckDBTypeId, dateValue, type DuckDBAppender, type DuckDBConnection, type DuckDBType } from '@duckdb/node-api';
import { Type, type DataType, type Table as ArrowTable } from 'apache-arrow';
import { arrowKind, normalizeValue, type Kind, type ResultSet } from './compare.js';

/** Column types for DuckDB tables built from rows (the SQL type names both engines understand). */
export type ColumnType = 'INTEGER' | 'BIGINT' | 'DOUBLE' | 'VARCHAR' | 'DATE' | 'BOOLEAN';

/** An open in-process DuckDB database. */
export interface Duck {
  readonly instance: DuckDBInstance;
  readonly conn: DuckDBConnection;
  /** Runs a query and normalises its result. */
  query(sql: string): Promise<ResultSet>;
  /** Runs a statement (DDL), ignoring the result. */
  run(sql: string): Promise<void>;
  /** Closes the database. */
  close(): void;
}

/** The coarse kind of a DuckDB result column. */
export function duckKind(t: DuckDBType): Kind {
  switch (t.typeId) {
    case DuckDBTypeId.TINYINT: case DuckDBTypeId.SMALLINT: case DuckDBTypeId.INTEGER: case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.UTINYINT: case DuckDBTypeId.USMALLINT: case DuckDBTypeId.UINTEGER: case DuckDBTypeId.UBIGINT:
    case DuckDBTypeId.HUGEINT: case DuckDBTypeId.UHUGEINT:
      return 'int';
    case DuckDBTypeId.FLOAT: case DuckDBTypeId.DOUBLE: case DuckDBTypeId.DECIMAL: return 'float';
    case DuckDBTypeId.VARCHAR: return 'string';
    case DuckDBTypeId.BOOLEAN: return 'bool';
    case DuckDBTypeId.DATE: return 'date';
    case DuckDBTypeId.TIMESTAMP: case DuckDBTypeId.TIMESTAMP_MS: case DuckDBTypeId.TIMESTAMP_S: case DuckDBTypeId.TIMESTAMP_NS: return 'timestamp';
    case DuckDBTypeId.SQLNULL: return 'null';
    default: return 'other';
  }
}

/** Opens an in-memory DuckDB database (division by zero gives NULL, as in eddy). */
export async function openDuck(): Promise<Duck> {
  const instance = await DuckDBInstance.create(':memory:', { threads: '4' });
  const conn = await instance.connect();
  // eddy's semantics (and DuckDB's before 1.1): x / 0 and x % 0 are NULL, not ±Infinity/NaN.
  await conn.run('SET ieee_floating_point_ops = false');
  return {
    instance,
    conn,
    async query(sql: string): Promise<ResultSet> {
      const reader = await conn.runAndReadAll(sql);
      const names = reader.columnNames();
      const kinds = reader.columnTypes().map(duckKind);
      const rows = reader.getRowsJS().map((r) => r.map((v, i) => normalizeValue(v, kinds[i]!)));
      return { names, kinds, rows };
    },
    async run(sql: string): Promise<void> {
      await conn.run(sql);
    },
    close(): void {
      conn.closeSync();
      instance.closeSync();
    },
  };
}

function sqlTypeOfArrow(t: DataType): ColumnType {
  switch (t.typeId) {
    case Type.Int: return (t as unknown as { bitWidth: number }).bitWidth === 64 ? 'BIGINT' : 'INTEGER';
    case Type.Float: return 'DOUBLE';
    case Type.Utf8: case Type.Dictionary: return 'VARCHAR';
    case Type.Date: return 'DATE';
    case Type.Bool: return 'BOOLEAN';
    default: throw new Error(`duckdb loader: unsupported Arrow type ${String(t)}`);
  }
}

function appendValue(app: DuckDBAppender, type: ColumnType, v: unknown): void {
  if (v === null || v === undefined) { app.appendNull(); return; }
  switch (type) {
    case 'INTEGER': app.appendInteger(Number(v)); break;
    case 'BIGINT': app.appendBigInt(typeof v === 'bigint' ? v : BigInt(v as number)); break;
    case 'DOUBLE': app.appendDouble(Number(v)); break;
    case 'VARCHAR': app.appendVarchar(String(v)); break;
    case 'BOOLEAN': app.appendBoolean(Boolean(v)); break;
    case 'DATE': {
      // Accepts days since the epoch, a Date, or 'YYYY-MM-DD'.
      const days = typeof v === 'number' ? v
        : v instanceof Date ? Math.floor(v.getTime() / 86_400_000)
          : Math.round(Date.parse(`${String(v)}T00:00:00Z`) / 86_400_000);
      app.appendDate(dateValue(days));
      break;
    }
  }
}

/** Creates table `name` with the given column types and appends the rows (objects keyed by column name). */
export async function loadRows(duck: Duck, name: string, columns: Readonly<Record<string, ColumnType>>, rows: readonly Readonly<Record<string, unknown>>[]): Promise<void> {
  const cols = Object.entries(columns);
  await duck.run(`CREATE OR REPLACE TABLE ${name} (${cols.map(([c, t]) => `${c} ${t}`).join(', ')})`);
  const app = await duck.conn.createAppender(name);
  for (const r of rows) {
    for (const [c, t] of cols) appendValue(app, t, r[c]);
    app.endRow();
  }
  app.closeSync();
}

/**
 * Creates table `name` from an Arrow table (Int32 → INTEGER, Int64 → BIGINT,
 * Float64 → DOUBLE, Utf8/Dictionary → VARCHAR, DateDay → DATE, Bool → BOOLEAN).
 */
export async function loadArrow(duck: Duck, name: string, table: ArrowTable): Promise<void> {
  const fields = table.schema.fields;
  const types = fields.map((f) => sqlTypeOfArrow(f.type));
  await duck.run(`CREATE OR REPLACE TABLE ${name} (${fields.map((f, i) => `${f.name} ${types[i]}`).join(', ')})`);
  const app = await duck.conn.createAppender(name);
  for (const batch of table.batches) {
    const n = batch.numRows;
    const getters = fields.map((f, c) => {
      const child = batch.getChildAt(c)!;
      const data = child.data[0]!;
      const kind = arrowKind(f.type);
      const valid = (i: number): boolean => data.nullCount === 0 || child.isValid(i);
      if (kind === 'int' && types[c] === 'INTEGER' && data.offset === 0) {
        const values = data.values as Int32Array;
        return (i: number) => (valid(i) ? values[i] : null);
      }
      if (kind === 'float' && data.offset === 0) {
        const values = data.values as Float64Array;
        return (i: number) => (valid(i) ? values[i] : null);
      }
      if (kind === 'date' && data.type.typeId === Type.Date && data.offset === 0 && data.values instanceof Int32Array) {
        const values = data.values;
        return (i: number) => (valid(i) ? values[i] : null);
      }
      if (kind === 'date') return (i: number) => { const v = child.get(i); return v === null ? null : Math.floor(Number(v) / 86_400_000); };
      return (i: number) => child.get(i);
    });
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < fields.length; c++) appendValue(app, types[c]!, getters[c]!(r));
      app.endRow();
    }
  }
  app.closeSync();
}

/**
 * Loads Arrow tables into an in-process DuckDB database through the appender's
 * column-wise data chunks (no extension download, no temp files). Load time is
 * not part of any measurement; it only has to be reasonable at SF 1.
 */
import {
  DuckDBAppender, DuckDBConnection, DuckDBDataChunk, DuckDBDateType, DuckDBDoubleType, DuckDBInstance,
  DuckDBIntegerType, DuckDBVarCharType, dateValue, type DuckDBType,
} from '@duckdb/node-api';
import { Type, type Data, type Table as ArrowTable } from 'apache-arrow';

/** Rows per DuckDB data chunk (DuckDB's STANDARD_VECTOR_SIZE). */
const CHUNK_ROWS = 2048;

interface ColumnPlan {
  readonly name: string;
  readonly duck: DuckDBType;
  readonly sqlType: string;
  readonly kind: 'int' | 'double' | 'date' | 'utf8' | 'dict';
}

function planColumn(name: string, typeId: Type): ColumnPlan {
  switch (typeId) {
    case Type.Int: return { name, duck: DuckDBIntegerType.instance, sqlType: 'INTEGER', kind: 'int' };
    case Type.Float: return { name, duck: DuckDBDoubleType.instance, sqlType: 'DOUBLE', kind: 'double' };
    case Type.Date: return { name, duck: DuckDBDateType.instance, sqlType: 'DATE', kind: 'date' };
    case Type.Utf8: return { name, duck: DuckDBVarCharType.instance, sqlType: 'VARCHAR', kind: 'utf8' };
    case Type.Dictionary: return { name, duck: DuckDBVarCharType.instance, sqlType: 'VARCHAR', kind: 'dict' };
    default: throw new Error(`duckdb-load: column ${name} has unsupported Arrow type id ${typeId}`);
  }
}

/** An open DuckDB connection with the loaded tables. */
export interface DuckDb {
  readonly instance: DuckDBInstance;
  readonly connection: DuckDBConnection;
  /** Worker threads DuckDB uses by default on this machine. */
  readonly threads: number;
}

/** Opens an in-memory DuckDB and loads the given Arrow tables under their names. Returns load time too. */
export async function openDuckDb(tables: Readonly<Record<string, ArrowTable>>): Promise<DuckDb & { loadMs: number }> {
  const start = performance.now();
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  for (const [name, table] of Object.entries(tables)) await loadTable(connection, name, table);
  const threads = Number((await connection.runAndReadAll(`SELECT current_setting('threads') AS t`)).getRowsJS()[0]![0]);
  return { instance, connection, threads, loadMs: performance.now() - start };
}

async function loadTable(connection: DuckDBConnection, name: string, table: ArrowTable): Promise<void> {
  const cols = table.schema.fields.map((f) => planColumn(f.name, f.type.typeId));
  await connection.run(`CREATE OR REPLACE TABLE ${name} (${cols.map((c) => `${c.name} ${c.sqlType}`).join(', ')})`);
  const appender = await connection.createAppender(name);
  const types = cols.map((c) => c.duck);
  for (const batch of table.batches) {
    const children = batch.data.children;
    const readers = cols.map((c, i) => columnReader(c, children[i]!));
    for (let start = 0; start < batch.numRows; start += CHUNK_ROWS) {
      const n = Math.min(CHUNK_ROWS, batch.numRows - start);
      const chunk = DuckDBDataChunk.create(types, n);
      for (let c = 0; c < cols.length; c++) {
        const vector = chunk.getColumnVector(c) as unknown as { setItem(i: number, v: unknown): void; flush(): void };
        const read = readers[c]!;
        for (let r = 0; r < n; r++) vector.setItem(r, read(start + r));
        vector.flush();
      }
      appender.appendDataChunk(chunk);
    }
  }
  closeAppender(appender);
}

function closeAppender(appender: DuckDBAppender): void {
  appender.flushSync();
  appender.closeSync();
}

/** A reader of row i of one Arrow column chunk, in the JS form DuckDB's vectors accept. No nulls (TPC-H). */
function columnReader(c: ColumnPlan, data: Data): (i: number) => unknown {
  const off = data.offset;
  switch (c.kind) {
    case 'int':
    case 'double': {
      const v = data.values as Int32Array | Float64Array;
      return (i) => v[off + i];
    }
    case 'date': {
      const v = data.values as Int32Array;
      return (i) => dateValue(v[off + i]!);
    }
    case 'dict': {
      const dict = data.dictionary!.toArray() as string[];
      const codes = data.values as Int32Array;
      return (i) => dict[codes[off + i]!];
    }
    case 'utf8': {
      const offsets = data.valueOffsets as Int32Array;
      const bytes = Buffer.from(data.values.buffer, data.values.byteOffset, data.values.byteLength);
      return (i) => bytes.toString('utf8', offsets[off + i]!, offsets[off + i + 1]!);
    }
  }
}

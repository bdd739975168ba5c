/**
 * Writes the small data files eddy's own .slt files read
 * (test/slt/fixtures/): CSV by hand, Parquet through DuckDB, Arrow IPC
 * through apache-arrow, the Parquet and Arrow files holding the same rows so
 * a query gives the same answer over either.
 *
 *   tsx test/slt-runner/make-fixtures.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { Bool, DateDay, Float64, Int32, Int64, Utf8, makeVector, tableToIPC, Table, vectorFromArray } from 'apache-arrow';

const DIR = fileURLToPath(new URL('../slt/fixtures/', import.meta.url));

/** The rows of items.parquet and items.arrow. */
const ITEMS = [
  { id: 1, name: 'bolt', price: 0.25, qty: 1000n, day: '2024-01-02', ok: true },
  { id: 2, name: 'nut', price: 0.1, qty: 2500n, day: '2024-01-02', ok: true },
  { id: 3, name: 'gear', price: 12.5, qty: null, day: '2024-02-10', ok: false },
  { id: 4, name: null, price: null, qty: 7n, day: null, ok: null },
  { id: 5, name: 'spring', price: 1.75, qty: 300n, day: '2023-12-31', ok: true },
] as const;

async function main(): Promise<void> {
  mkdirSync(DIR, { recursive: true });
  writeFileSync(join(DIR, 'people.csv'), 'id,name,score,joined\n1,ann,7.5,2020-01-15\n2,bob,,2021-03-01\n3,"cy, jr",9.25,\n4,dee,6,2019-12-31\n');
  writeFileSync(join(DIR, 'semicolon.csv'), '10;x;1.5\n20;y;2.5\n30;;\n');

  const inst = await DuckDBInstance.create(':memory:');
  const conn = await inst.connect();
  const values = ITEMS.map((r) => `(${r.id}, ${r.name === null ? 'NULL' : `'${r.name}'`}, ${r.price ?? 'NULL'}, ${r.qty ?? 'NULL'}, ${r.day === null ? 'NULL' : `DATE '${r.day}'`}, ${r.ok ?? 'NULL'})`).join(', ');
  await conn.run(`CREATE TABLE items(id INTEGER, name VARCHAR, price DOUBLE, qty BIGINT, day DATE, ok BOOLEAN)`);
  await conn.run(`INSERT INTO items VALUES ${values}`);
  await conn.run(`COPY items TO '${join(DIR, 'items.parquet')}' (FORMAT PARQUET)`);
  conn.closeSync();
  inst.closeSync();

  const days = ITEMS.map((r) => (r.day === null ? null : Date.parse(`${r.day}T00:00:00Z`)));
  const table = new Table({
    id: makeVector({ type: new Int32(), data: Int32Array.from(ITEMS.map((r) => r.id)) }),
    name: vectorFromArray(ITEMS.map((r) => r.name), new Utf8()),
    price: vectorFromArray(ITEMS.map((r) => r.price), new Float64()),
    qty: vectorFromArray(ITEMS.map((r) => r.qty), new Int64()),
    day: vectorFromArray(days.map((d) => (d === null ? null : new Date(d))), new DateDay()),
    ok: vectorFromArray(ITEMS.map((r) => r.ok), new Bool()),
  });
  writeFileSync(join(DIR, 'items.arrow'), tableToIPC(table, 'file'));
  console.log(`wrote fixtures to ${DIR}`);
}

main().catch((e: unknown) => { console.error(e); process.exit(1); });

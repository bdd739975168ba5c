/**
 * Micro-benchmark of batch assembly (exec/batch.ts batchFromColumns, which every
 * operator emits through): CPU µs per batch for a 7-column batch built from
 * existing columns (a join output's shape), and per takeBatch of 256 rows.
 *
 *   npx tsx bench/batch-build.ts [batches]
 */
import { Float64, Int32, Utf8, makeData, type Data } from 'apache-arrow';
import { batchFromColumns, takeBatch } from '../src/exec/batch.js';
import { schemaOf, field } from '../src/relnode/types.js';

const N = Number(process.argv[2] ?? 200_000);
const rows = 1024;
const i32 = makeData({ type: new Int32(), length: rows, data: new Int32Array(rows) });
const f64 = makeData({ type: new Float64(), length: rows, data: new Float64Array(rows) });
const str = makeData({ type: new Utf8(), length: rows, valueOffsets: new Int32Array(rows + 1), data: new Uint8Array(0) });
const cols: Data[] = [i32, f64, str, i32, f64, str, i32];
const schema = schemaOf(cols.map((_, i) => field(`c${i}`, i % 3 === 0 ? 'INTEGER' : i % 3 === 1 ? 'DOUBLE' : 'VARCHAR')));

function cpuUs(f: () => void): number {
  const c0 = process.cpuUsage();
  f();
  const c = process.cpuUsage(c0);
  return c.user + c.system;
}
const sel = Int32Array.from({ length: 256 }, (_, i) => i * 3);
for (let r = 0; r < 5; r++) {
  let sink = 0;
  const build = cpuUs(() => { for (let i = 0; i < N; i++) sink += batchFromColumns(schema, cols, rows).numRows; });
  const batch = batchFromColumns(schema, cols, rows);
  const take = cpuUs(() => { for (let i = 0; i < N / 10; i++) sink += takeBatch(batch, sel).numRows; });
  console.log(`batchFromColumns ${(build / N).toFixed(2)} µs/batch   takeBatch(256 rows) ${(take / (N / 10)).toFixed(2)} µs/batch  (${sink})`);
}

/**
 * Micro-benchmark of batch assembly: CPU ns per call of
 * - apache-arrow's `makeData` against exec/arrow-build.ts's builders (Int32, Float64 with NULLs, Utf8,
 *   a Null placeholder), each in a fresh process section after the same warm-up;
 * - `new RecordBatch(schema, makeData(struct))` (io/columns.ts makeBatch before arrow-build) against
 *   arrow-build `batchOf` for a 7-column batch;
 * - exec/batch.ts `batchFromColumns` (every operator emits through it) and `takeBatch` of 256 rows.
 * Medians of 5 rounds.
 *
 *   npx tsx bench/batch-build.ts [batches]      (npm run bench:batch-build)
 */
import { Float64, Int32, Null, RecordBatch, Struct, Utf8, makeData, type Data } from 'apache-arrow';
import { batchOf, fixedData, nullTypeData, utf8Data } from '../src/exec/arrow-build.js';
import { batchFromColumns, takeBatch } from '../src/exec/batch.js';
import { field, schemaOf, toArrowSchema } from '../src/relnode/types.js';

const N = Number(process.argv[2] ?? 200_000);
const rows = 1024;
const ints = new Int32Array(rows);
const floats = new Float64Array(rows);
const offs = new Int32Array(rows + 1);
const bytes = new Uint8Array(0);
const bitmap = new Uint8Array(rows >> 3).fill(0xff);
bitmap[0] = 0xfe;
const i32 = makeData({ type: new Int32(), length: rows, data: ints });
const f64 = makeData({ type: new Float64(), length: rows, data: floats });
const str = makeData({ type: new Utf8(), length: rows, valueOffsets: offs, data: bytes });
const cols: Data[] = [i32, f64, str, i32, f64, str, i32];
const schema = schemaOf(cols.map((_, i) => field(`c${i}`, i % 3 === 0 ? 'INTEGER' : i % 3 === 1 ? 'DOUBLE' : 'VARCHAR')));
const arrowSchema = toArrowSchema(schema);
const I32 = new Int32();
const F64 = new Float64();
const UTF8 = new Utf8();
const NULL = new Null();

function cpuNs(calls: number, f: () => number): number {
  const c0 = process.cpuUsage();
  let sink = 0;
  for (let i = 0; i < calls; i++) sink += f();
  const c = process.cpuUsage(c0);
  if (sink === -1) console.log(sink);
  return ((c.user + c.system) * 1000) / calls;
}

const cases: [string, number, () => number][] = [
  ['makeData Int32', N, () => makeData({ type: I32, length: rows, nullCount: 0, data: ints }).length],
  ['fixedData Int32', N, () => fixedData(I32, rows, 0, null, ints).length],
  ['makeData Float64+nulls', N, () => makeData({ type: F64, length: rows, nullCount: 1, nullBitmap: bitmap, data: floats }).length],
  ['fixedData Float64+nulls', N, () => fixedData(F64, rows, 1, bitmap, floats).length],
  ['makeData Utf8', N, () => makeData({ type: UTF8, length: rows, nullCount: 0, valueOffsets: offs, data: bytes }).length],
  ['utf8Data Utf8', N, () => utf8Data(UTF8, rows, 0, null, offs, bytes).length],
  ['makeData Null', N, () => makeData({ type: NULL, length: rows }).length],
  ['nullTypeData Null', N, () => nullTypeData(NULL, rows).length],
  ['new RecordBatch 7 cols', N / 10, () => new RecordBatch(arrowSchema, makeData({ type: new Struct(arrowSchema.fields), length: rows, nullCount: 0, children: cols })).numRows],
  ['batchOf 7 cols', N / 10, () => batchOf(arrowSchema, cols, rows).numRows],
  ['batchFromColumns 7 cols', N / 10, () => batchFromColumns(schema, cols, rows).numRows],
];
const batch = batchFromColumns(schema, cols, rows);
const sel = Int32Array.from({ length: 256 }, (_, i) => i * 3);
cases.push(['takeBatch 256 rows', N / 20, () => takeBatch(batch, sel).numRows]);

const results = new Map<string, number[]>(cases.map(([name]) => [name, []]));
for (let r = 0; r < 5; r++) for (const [name, calls, f] of cases) results.get(name)!.push(cpuNs(calls, f));
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`ns per call (CPU, median of 5 rounds; load ${(await import('node:os')).loadavg()[0]!.toFixed(1)})`);
for (const [name] of cases) console.log(`${name.padEnd(26)} ${median(results.get(name)!).toFixed(0).padStart(7)}`);

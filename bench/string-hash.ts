/**
 * md5 / sha256 / url_encode (string-encode-lib.ts, through string-fns.ts's mapStrings) over 1M rows
 * of one string column, plain Utf8 against dictionary-encoded with the same values: the dictionary
 * pays once per distinct entry (plus a copy of the result bytes per row), the plain column once per
 * row. Kernel level, one thread, CPU ms per 1M rows (median of the runs; process CPU, GC included).
 *
 *   node --expose-gc --import tsx bench/string-hash.ts [distinct] [runs]
 */
import * as arrow from 'apache-arrow';
import { compileExpr } from '../src/exec/kernels/index.js';
import { call, inputRef } from '../src/relnode/rex.js';
import { field, schemaOf } from '../src/relnode/types.js';
import { timeWallCpu } from './lib/cpu-timing.js';

const DISTINCT = Number(process.argv[2] ?? 1000);
const RUNS = Number(process.argv[3] ?? 7);
const ROWS = 1 << 20;
const BATCH = 1 << 16;

const values = Array.from({ length: DISTINCT }, (_, k) => `customer-segment-${k}-${'x'.repeat(k % 23)}`);
function batches(dict: boolean): arrow.RecordBatch[] {
  const out: arrow.RecordBatch[] = [];
  for (let b = 0; b < ROWS / BATCH; b++) {
    const rows = Array.from({ length: BATCH }, (_, i) => values[(b * BATCH + i) * 7919 % DISTINCT]!);
    const type = dict ? new arrow.Dictionary(new arrow.Utf8(), new arrow.Int32()) : new arrow.Utf8();
    // Each batch's dictionary holds every value (its own copy: the kernel hashes it once per batch).
    const data = dict ? arrow.vectorFromArray([...values, ...rows], type as never).data[0]!.slice(DISTINCT, BATCH) : arrow.vectorFromArray(rows, type as never).data[0]!;
    const f = new arrow.Field('s', type, true);
    out.push(new arrow.RecordBatch(new arrow.Schema([f]), arrow.makeData({ type: new arrow.Struct([f]), length: BATCH, children: [data] })));
  }
  return out;
}

const schema = schemaOf([field('s', 'VARCHAR', true)]);
const inputs = { plain: batches(false), dictionary: batches(true) };
console.log(`${ROWS} rows, ${DISTINCT} distinct values, ${RUNS} runs; load ${(await import('node:os')).loadavg().map((x) => x.toFixed(1)).join(' ')}`);
for (const fn of ['md5', 'sha256', 'url_encode']) {
  const line: string[] = [];
  for (const [name, bs] of Object.entries(inputs)) {
    const kernel = compileExpr(call(fn, [inputRef(0, 'VARCHAR')], 'VARCHAR'), schema);
    let bytes = 0;
    const t = await timeWallCpu(() => { bytes = 0; for (const b of bs) bytes += kernel(b).values.length; }, RUNS);
    line.push(`${name} ${t.cpuMedianMs.toFixed(1)} ms CPU (${((t.cpuMedianMs * 1e6) / ROWS).toFixed(0)} ns/row, ${bytes} result bytes)`);
  }
  console.log(`${fn.padEnd(10)} ${line.join(' | ')}`);
}

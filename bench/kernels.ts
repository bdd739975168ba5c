/**
 * Kernel micro-benchmarks: compiled expressions vs hand-written typed-array loops
 * on the same data (6M rows of TPC-H-like lineitem columns in 64K-row batches).
 *
 *   npx tsx bench/kernels.ts [rows] [batchSize]
 *
 * Cases: TPC-H Q6's predicate, `l_extendedprice * (1 - l_discount)`, and the two
 * combined (filter, project, sum). Reports the median of several runs and the
 * ratio to the hand-written loop (target: within 2x).
 */
import * as arrow from 'apache-arrow';
import { compileExpr, compilePredicate } from '../src/exec/kernels/index.js';
import { call, inputRef, literal, type RexNode } from '../src/relnode/rex.js';
import { field, schemaOf } from '../src/relnode/types.js';

const ROWS = Number(process.argv[2] ?? 6_000_000);
const BATCH = Number(process.argv[3] ?? 65_536);
const RUNS = 15;

// Deterministic pseudo-random data (xorshift), TPC-H-like domains.
let seed = 0x2545f491;
const rnd = (): number => { seed ^= seed << 13; seed ^= seed >>> 17; seed ^= seed << 5; return (seed >>> 0) / 4294967296; };
const day = (y: number, m: number, d: number): number => Date.UTC(y, m - 1, d) / 86_400_000;

interface Cols { ship: Int32Array; disc: Float64Array; qty: Float64Array; price: Float64Array }
const batches: { batch: arrow.RecordBatch; cols: Cols }[] = [];
const schema = schemaOf([field('l_shipdate', 'DATE'), field('l_discount', 'DOUBLE'), field('l_quantity', 'DOUBLE'), field('l_extendedprice', 'DOUBLE')]);
const fields = [new arrow.Field('l_shipdate', new arrow.DateDay()), new arrow.Field('l_discount', new arrow.Float64()), new arrow.Field('l_quantity', new arrow.Float64()), new arrow.Field('l_extendedprice', new arrow.Float64())];
const lo = day(1992, 1, 2), span = day(1998, 12, 1) - lo;
for (let start = 0; start < ROWS; start += BATCH) {
  const n = Math.min(BATCH, ROWS - start);
  const c: Cols = { ship: new Int32Array(n), disc: new Float64Array(n), qty: new Float64Array(n), price: new Float64Array(n) };
  for (let i = 0; i < n; i++) {
    c.ship[i] = lo + Math.floor(rnd() * span);
    c.disc[i] = Math.floor(rnd() * 11) / 100;
    c.qty[i] = 1 + Math.floor(rnd() * 50);
    c.price[i] = Math.round((900 + rnd() * 104_000) * 100) / 100;
  }
  const children = [
    arrow.makeData({ type: new arrow.DateDay(), length: n, data: c.ship }),
    arrow.makeData({ type: new arrow.Float64(), length: n, data: c.disc }),
    arrow.makeData({ type: new arrow.Float64(), length: n, data: c.qty }),
    arrow.makeData({ type: new arrow.Float64(), length: n, data: c.price }),
  ];
  batches.push({ batch: new arrow.RecordBatch(new arrow.Schema(fields), arrow.makeData({ type: new arrow.Struct(fields), length: n, children })), cols: c });
}

const ship = inputRef(0, 'DATE', 'l_shipdate'), disc = inputRef(1, 'DOUBLE', 'l_discount'), qty = inputRef(2, 'DOUBLE', 'l_quantity'), price = inputRef(3, 'DOUBLE', 'l_extendedprice');
const D1 = day(1994, 1, 1), D2 = day(1995, 1, 1);
const q6: RexNode = call('and', [
  call('ge', [ship, literal(D1, 'DATE')], 'BOOLEAN'),
  call('lt', [ship, literal(D2, 'DATE')], 'BOOLEAN'),
  call('ge', [disc, literal(0.05, 'DOUBLE')], 'BOOLEAN'),
  call('le', [disc, literal(0.07, 'DOUBLE')], 'BOOLEAN'),
  call('lt', [qty, literal(24, 'DOUBLE')], 'BOOLEAN'),
], 'BOOLEAN');
const revenue: RexNode = call('times', [price, call('minus', [literal(1, 'DOUBLE'), disc], 'DOUBLE')], 'DOUBLE');
const q6rev: RexNode = call('times', [price, disc], 'DOUBLE');

const pred = compilePredicate(q6, schema);
const revKernel = compileExpr(revenue, schema);
const q6Kernel = compileExpr(q6rev, schema);

function handPredicate(c: Cols): Int32Array {
  const n = c.ship.length;
  const out = new Int32Array(n);
  let k = 0;
  const { ship: s, disc: d, qty: q } = c;
  for (let i = 0; i < n; i++) if (s[i]! >= D1 && s[i]! < D2 && d[i]! >= 0.05 && d[i]! <= 0.07 && q[i]! < 24) out[k++] = i;
  return out.subarray(0, k);
}
function handRevenue(c: Cols): Float64Array {
  const n = c.price.length;
  const out = new Float64Array(n);
  const { price: p, disc: d } = c;
  for (let i = 0; i < n; i++) out[i] = p[i]! * (1 - d[i]!);
  return out;
}

let sink = 0;
function time(f: () => void): number {
  const ts: number[] = [];
  for (let r = 0; r < RUNS + 2; r++) {
    const t0 = performance.now();
    f();
    ts.push(performance.now() - t0);
  }
  const kept = ts.slice(2).sort((a, b) => a - b);
  return kept[Math.floor(kept.length / 2)]!;
}

const cases: [string, () => void, () => void][] = [
  ['Q6 predicate (5 conjuncts)', () => { for (const b of batches) sink += pred(b.batch)?.length ?? 0; }, () => { for (const b of batches) sink += handPredicate(b.cols).length; }],
  ['l_extendedprice * (1 - l_discount)', () => { for (const b of batches) sink += revKernel(b.batch).length; }, () => { for (const b of batches) sink += handRevenue(b.cols).length; }],
  ['Q6: filter + price * discount + sum', () => {
    for (const b of batches) {
      const sel = pred(b.batch);
      if (sel !== null && sel.length === 0) continue;
      const v = q6Kernel(b.batch).values as Float64Array;
      if (sel === null) for (let i = 0; i < v.length; i++) sink += v[i]!;
      else for (let j = 0; j < sel.length; j++) sink += v[sel[j]!]!;
    }
  }, () => {
    for (const b of batches) {
      const { ship: s, disc: d, qty: q, price: p } = b.cols;
      for (let i = 0; i < s.length; i++) if (s[i]! >= D1 && s[i]! < D2 && d[i]! >= 0.05 && d[i]! <= 0.07 && q[i]! < 24) sink += p[i]! * d[i]!;
    }
  }],
];

console.log(`rows=${ROWS} batch=${BATCH} batches=${batches.length} (median of ${RUNS} runs, ms)`);
console.log('| case | kernel ms | hand-written ms | ratio |');
console.log('|---|---:|---:|---:|');
for (const [name, kernel, hand] of cases) {
  // Alternate the two sides run by run so machine noise hits both alike.
  const tk: number[] = [], th: number[] = [];
  for (let r = 0; r < RUNS + 2; r++) {
    let t0 = performance.now(); kernel(); tk.push(performance.now() - t0);
    t0 = performance.now(); hand(); th.push(performance.now() - t0);
  }
  const med = (xs: number[]): number => { const s = xs.slice(2).sort((a, b) => a - b); return s[Math.floor(s.length / 2)]!; };
  console.log(`| ${name} | ${med(tk).toFixed(1)} | ${med(th).toFixed(1)} | ${(med(tk) / med(th)).toFixed(2)}x |`);
}

// Other kernels: throughput only (no hand-written counterpart), on 1/6 of the rows.
const small = batches.slice(0, Math.max(1, Math.floor(batches.length / 6)));
const smallRows = small.reduce((a, b) => a + b.batch.numRows, 0);
const modes = ['AIR', 'FOB', 'MAIL', 'RAIL', 'REG AIR', 'SHIP', 'TRUCK'];
const strSchema = schemaOf([field('mode', 'VARCHAR'), field('mode_d', 'VARCHAR'), field('d', 'DATE')]);
const strBatches = small.map(({ batch }) => {
  const n = batch.numRows;
  const vals = Array.from({ length: n }, () => modes[Math.floor(rnd() * modes.length)]!);
  const plain = arrow.vectorFromArray(vals, new arrow.Utf8()).data[0]!;
  const dict = arrow.vectorFromArray(vals, new arrow.Dictionary(new arrow.Utf8(), new arrow.Int32())).data[0]!;
  const f = [new arrow.Field('mode', plain.type), new arrow.Field('mode_d', dict.type), new arrow.Field('d', new arrow.DateDay())];
  return new arrow.RecordBatch(new arrow.Schema(f), arrow.makeData({ type: new arrow.Struct(f), length: n, children: [plain, dict, batch.data.children[0]!] }));
});
const m = inputRef(0, 'VARCHAR', 'mode'), md = inputRef(1, 'VARCHAR', 'mode_d'), dd = inputRef(2, 'DATE', 'd');
const other: [string, (b: arrow.RecordBatch) => unknown][] = [
  ["mode = 'MAIL' (Utf8, predicate)", ((p) => (b: arrow.RecordBatch) => p(b))(compilePredicate(call('eq', [m, literal('MAIL', 'VARCHAR')], 'BOOLEAN'), strSchema))],
  ["mode = 'MAIL' (dictionary, predicate)", ((p) => (b: arrow.RecordBatch) => p(b))(compilePredicate(call('eq', [md, literal('MAIL', 'VARCHAR')], 'BOOLEAN'), strSchema))],
  ["mode LIKE '%AI%' (Utf8, predicate)", ((p) => (b: arrow.RecordBatch) => p(b))(compilePredicate(call('like', [m, literal('%AI%', 'VARCHAR')], 'BOOLEAN'), strSchema))],
  ["mode IN ('MAIL', 'SHIP') (Utf8, predicate)", ((p) => (b: arrow.RecordBatch) => p(b))(compilePredicate(call('in', [m, literal('MAIL', 'VARCHAR'), literal('SHIP', 'VARCHAR')], 'BOOLEAN'), strSchema))],
  ['upper(mode) (Utf8)', compileExpr(call('upper', [m], 'VARCHAR'), strSchema)],
  ['upper(mode) (dictionary)', compileExpr(call('upper', [md], 'VARCHAR'), strSchema)],
  ['year(d)', compileExpr(call('year', [dd], 'INTEGER'), strSchema)],
  ["CASE WHEN mode = 'MAIL' THEN 1 ELSE 0 END (dictionary)", compileExpr({ kind: 'Case', whens: [{ when: call('eq', [md, literal('MAIL', 'VARCHAR')], 'BOOLEAN'), then: literal(1, 'INTEGER') }], otherwise: literal(0, 'INTEGER'), type: 'INTEGER' }, strSchema)],
];
console.log(`\nOther kernels on ${smallRows} rows (median ms, M rows/s):`);
console.log('| kernel | ms | M rows/s |');
console.log('|---|---:|---:|');
for (const [name, k] of other) {
  const f = (): void => { for (const b of strBatches) sink += k(b) === null ? 0 : 1; };
  time(f);
  const t = time(f);
  console.log(`| ${name} | ${t.toFixed(1)} | ${(smallRows / t / 1000).toFixed(0)} |`);
}
if (sink === 42) console.log('');

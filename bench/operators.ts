/**
 * Micro-benchmarks of the pipeline breakers, driven directly (no runtime):
 *
 * 1. hash join: 6M probe rows (Int32 key, like lineitem.l_orderkey) against a
 *    1.5M-row build side (unique Int32 keys, like orders), inner join; output
 *    gathered (probe payload + build payload).
 * 2. group-by: 6M rows on a 4-value dictionary VARCHAR key with 8 aggregates
 *    (TPC-H Q1-like: 4 sums, 3 avgs, count(*)).
 *
 * 3. late materialization: the same group-by behind a filter keeping 98% / 2%
 *    of the rows, fused (the aggregate reads through the selection vector,
 *    kernels/fused-stage.ts) vs a Filter that copies the surviving rows.
 *
 * Each is compared with a hand-written typed-array loop doing the same work
 * (the single-thread floor). Extras (skip with --no-extras): the join on
 * sparse keys (hash-table path instead of the direct map), a 1.5M-group
 * aggregate, a full sort and a top-10 of 6M rows. Medians of `--runs` runs
 * after one warm-up.
 *
 *   npx tsx bench/operators.ts [--runs 5] [--batch 65536] [--no-extras]
 */
import { Dictionary, Int32, RecordBatch, Utf8, makeData, makeVector, type Data } from 'apache-arrow';
import { batchFromColumns, utf8FromStrings } from '../src/exec/batch.js';
import { hashAggregate } from '../src/exec/operators/hash-aggregate.js';
import { filterOperator } from '../src/exec/operators/filter.js';
import { compileStage } from '../src/exec/kernels/fused-stage.js';
import { compilePredicate } from '../src/exec/kernels/index.js';
import { call as rexCall, inputRef, literal } from '../src/relnode/rex.js';
import { hashJoin } from '../src/exec/operators/hash-join.js';
import { sort as sortOp } from '../src/exec/operators/sort.js';
import type { Operator, OperatorContext } from '../src/exec/operator.js';
import { aggReturnType, type AggFn } from '../src/relnode/functions.js';
import type { AggCall } from '../src/relnode/rel.js';
import { field, schemaOf, toArrowType, type Schema, type SqlType } from '../src/relnode/types.js';

const arg = (name: string, dflt: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const RUNS = arg('runs', 5);
const BATCH = arg('batch', 65536);

let seed = 12345;
const rnd = (): number => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed / 4294967296; };

function ctxFor(outputSchema: Schema, inputSchemas: Schema[], sink: (b: RecordBatch) => void): OperatorContext {
  return {
    name: 'bench', subtaskIndex: 0, parallelism: 1, batchSize: BATCH, outputSchema, inputSchemas,
    emit: (b) => sink(b), markInputSatisfied: () => {}, cancelled: false,
    // Pending output runs to completion at once: the bench times operators, not the scheduler.
    defer: (step) => { while (step()); }, hasPendingOutput: false, epoch: 0, mayHaveMoreEpochs: () => false, inIteration: false,
    metrics: { rowsIn: 0, batchesIn: 0, rowsOut: 0, batchesOut: 0, timeMs: 0 },
    reserveMemory: () => {}, releaseMemory: () => {},
    emitTo: () => { throw new Error('no side outputs in the bench'); },
    emitWatermark: () => { throw new Error('no manual watermarks in the bench'); },
    post: (task) => task(),
    shared: () => { throw new Error('no shared objects in the bench'); },
  };
}

function prim(type: SqlType, values: Int32Array | Float64Array): Data {
  return makeData({ type: toArrowType(type) as never, length: values.length, nullCount: 0, data: values as never });
}

function split(s: Schema, cols: Data[], n: number): RecordBatch[] {
  const out: RecordBatch[] = [];
  for (let i = 0; i < n; i += BATCH) {
    const len = Math.min(BATCH, n - i);
    out.push(batchFromColumns(s, cols.map((c) => c.slice(i, len)), len));
  }
  return out;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function time(label: string, f: () => number): number {
  f();
  const ts: number[] = [];
  let check = 0;
  for (let r = 0; r < RUNS; r++) {
    const t0 = performance.now();
    check = f();
    ts.push(performance.now() - t0);
  }
  const m = median(ts);
  console.log(`${label.padEnd(44)} ${m.toFixed(0).padStart(6)} ms   (runs: ${ts.map((t) => t.toFixed(0)).join(', ')}; check ${check})`);
  return m;
}

// ------------------------------------------------------------------ join data
const NB = 1_500_000;
const NP = 6_000_000;
const buildKeys = new Int32Array(NB);
for (let i = 0; i < NB; i++) buildKeys[i] = i * 4 + 1; // sparse like o_orderkey
for (let i = NB - 1; i > 0; i--) { const j = Math.floor(rnd() * (i + 1)); const t = buildKeys[i]!; buildKeys[i] = buildKeys[j]!; buildKeys[j] = t; }
const buildDate = Int32Array.from({ length: NB }, () => 8000 + Math.floor(rnd() * 2500));
const probeKeys = new Int32Array(NP);
for (let i = 0; i < NP; i++) probeKeys[i] = Math.floor(rnd() * NB) * 4 + 1;
const probePrice = Float64Array.from({ length: NP }, () => rnd() * 1000);

const LS = schemaOf([field('l_orderkey', 'INTEGER'), field('l_extendedprice', 'DOUBLE')]);
const RS = schemaOf([field('o_orderkey', 'INTEGER'), field('o_orderdate', 'DATE')]);
const JS = schemaOf([...LS.fields, ...RS.fields]);
const probeBatches = split(LS, [prim('INTEGER', probeKeys), prim('DOUBLE', probePrice)], NP);
const buildBatches = split(RS, [prim('INTEGER', buildKeys), prim('DATE', buildDate)], NB);

// The same join on sparse keys (spread over the int32 range): the hash-table path, not the direct map.
const sparseOf = new Int32Array(NB);
for (let i = 0; i < NB; i++) sparseOf[i] = Math.imul(i + 1, 0x9e3779b1); // a bijection: unique, spread over all int32
const sparseBuildKeys = Int32Array.from(buildKeys, (k) => sparseOf[(k - 1) / 4]!);
const sparseProbeKeys = Int32Array.from(probeKeys, (k) => sparseOf[(k - 1) / 4]!);
const sparseProbe = split(LS, [prim('INTEGER', sparseProbeKeys), prim('DOUBLE', probePrice)], NP);
const sparseBuild = split(RS, [prim('INTEGER', sparseBuildKeys), prim('DATE', buildDate)], NB);

function runJoin(build = buildBatches, probe = probeBatches): number {
  let rows = 0;
  const op: Operator = hashJoin({ joinType: 'inner', leftKeys: [0], rightKeys: [0], buildSide: 'right' });
  op.open(ctxFor(JS, [LS, RS], (b) => { rows += b.numRows; }));
  for (const b of build) op.processBatch(1, b, 0);
  op.onInputEnd!(1);
  for (const b of probe) op.processBatch(0, b, 0);
  op.onInputEnd!(0);
  op.finish();
  op.close();
  return rows;
}

/** The floor: a direct-mapped key → row array (keys are dense enough), then gather both payloads. */
function handJoin(): number {
  const maxKey = 4 * NB + 2;
  const rowOf = new Int32Array(maxKey).fill(-1);
  for (let i = 0; i < NB; i++) rowOf[buildKeys[i]!] = i;
  let rows = 0;
  for (let s = 0; s < NP; s += BATCH) {
    const e = Math.min(NP, s + BATCH);
    const outKey = new Int32Array(e - s);
    const outPrice = new Float64Array(e - s);
    const outDate = new Int32Array(e - s);
    let m = 0;
    for (let i = s; i < e; i++) {
      const r = rowOf[probeKeys[i]!]!;
      if (r < 0) continue;
      outKey[m] = probeKeys[i]!; outPrice[m] = probePrice[i]!; outDate[m] = buildDate[r]!; m++;
    }
    rows += m;
  }
  return rows;
}

// ------------------------------------------------------------------ group-by data
const NG = 6_000_000;
const flags = ['A', 'N', 'R', 'F'];
const codes = Int32Array.from({ length: NG }, () => Math.floor(rnd() * 4));
const dict = makeVector(utf8FromStrings(flags));
const qty = Int32Array.from({ length: NG }, () => 1 + Math.floor(rnd() * 50));
const price = Float64Array.from({ length: NG }, () => rnd() * 100000);
const disc = Float64Array.from({ length: NG }, () => Math.floor(rnd() * 11) / 100);
const tax = Float64Array.from({ length: NG }, () => Math.floor(rnd() * 9) / 100);
const discPrice = Float64Array.from({ length: NG }, (_, i) => price[i]! * (1 - disc[i]!));
const charge = Float64Array.from({ length: NG }, (_, i) => discPrice[i]! * (1 + tax[i]!));
const GS = schemaOf([
  field('flag', 'VARCHAR'), field('qty', 'INTEGER'), field('price', 'DOUBLE'), field('disc', 'DOUBLE'),
  field('disc_price', 'DOUBLE'), field('charge', 'DOUBLE'),
]);
const flagData = makeData({ type: new Dictionary(new Utf8(), new Int32()), length: NG, nullCount: 0, data: codes, dictionary: dict });
const groupBatches = split(GS, [flagData, prim('INTEGER', qty), prim('DOUBLE', price), prim('DOUBLE', disc), prim('DOUBLE', discPrice), prim('DOUBLE', charge)], NG);
const call = (fn: AggFn, a: number | undefined): AggCall => {
  const type = aggReturnType(fn, a === undefined ? undefined : GS.fields[a]!.type) as SqlType;
  return { fn, args: a === undefined ? [] : [a], distinct: false, type, name: `${fn}_${a ?? ''}` };
};
const CALLS = [call('sum', 1), call('sum', 2), call('sum', 4), call('sum', 5), call('avg', 1), call('avg', 2), call('avg', 3), call('count_star', undefined)];
const AS = schemaOf([GS.fields[0]!, ...CALLS.map((c) => field(c.name, c.type))]);

function runGroupBy(): number {
  let rows = 0;
  const op = hashAggregate({ groupKeys: [0], aggCalls: CALLS });
  op.open(ctxFor(AS, [GS], (b) => { rows += b.numRows; }));
  for (const b of groupBatches) op.processBatch(0, b, 0);
  op.finish();
  op.close();
  return rows;
}

/** The floor: one pass per batch over the codes, accumulating 8 aggregates into Float64Arrays. */
function handGroupBy(): number {
  const sq = new Float64Array(4), sp = new Float64Array(4), sdp = new Float64Array(4), sc = new Float64Array(4), sd = new Float64Array(4), cnt = new Float64Array(4);
  for (let i = 0; i < NG; i++) {
    const g = codes[i]!;
    sq[g] += qty[i]!; sp[g] += price[i]!; sdp[g] += discPrice[i]!; sc[g] += charge[i]!; sd[g] += disc[i]!; cnt[g]++;
  }
  return cnt.filter((c) => c > 0).length;
}

// ------------------------------------------------------------------ late materialization: filter + group-by
const qtyAtMost = (k: number) => rexCall('le', [inputRef(1, 'INTEGER'), literal(k, 'INTEGER')], 'BOOLEAN');

function runFilteredGroupBy(k: number, fused: boolean): number {
  let rows = 0;
  const agg = hashAggregate({ groupKeys: [0], aggCalls: CALLS, ...(fused ? { input: { stage: compileStage(qtyAtMost(k), undefined, GS), schema: GS } } : {}) });
  agg.open(ctxFor(AS, [GS], (b) => { rows += b.numRows; }));
  const filter = filterOperator(compilePredicate(qtyAtMost(k), GS));
  filter.open(ctxFor(GS, [GS], (b) => agg.processBatch(0, b, 0)));
  for (const b of groupBatches) (fused ? agg : filter).processBatch(0, b, 0);
  agg.finish();
  agg.close();
  return rows;
}

// ------------------------------------------------------------------ extras: high-cardinality group-by, sort, top-k
function runHighCardGroupBy(): number {
  let rows = 0;
  const calls = [{ fn: 'sum' as const, args: [1], distinct: false, type: 'DOUBLE' as const, name: 's' }, { fn: 'count_star' as const, args: [], distinct: false, type: 'BIGINT' as const, name: 'c' }];
  const op = hashAggregate({ groupKeys: [0], aggCalls: calls });
  op.open(ctxFor(schemaOf([LS.fields[0]!, field('s', 'DOUBLE'), field('c', 'BIGINT')]), [LS], (b) => { rows += b.numRows; }));
  for (const b of sparseProbe) op.processBatch(0, b, 0);
  op.finish();
  return rows;
}

function runSort(fetch?: number): number {
  let rows = 0;
  const op = sortOp({ keys: [{ index: 1, desc: true, nullsFirst: false }], ...(fetch !== undefined ? { fetch } : {}) });
  op.open(ctxFor(LS, [LS], (b) => { rows += b.numRows; }));
  for (const b of probeBatches) op.processBatch(0, b, 0);
  op.finish();
  return rows;
}

console.log(`node ${process.version}, batch ${BATCH}, ${RUNS} runs (median)`);
const j = time(`hash join ${NP / 1e6}M probe x ${NB / 1e6}M build (eddy)`, () => runJoin());
const jh = time('hash join (hand-written typed-array loop)', handJoin);
time('hash join, sparse keys (hash-table path)', () => runJoin(sparseBuild, sparseProbe));
const g = time(`group-by ${NG / 1e6}M rows, 4 groups, 8 aggs (eddy)`, runGroupBy);
const gh = time('group-by (hand-written typed-array loop)', handGroupBy);
console.log(`ratios vs hand loop: join ${(j / jh).toFixed(1)}x, group-by ${(g / gh).toFixed(1)}x`);
for (const k of [49, 1]) {
  const copy = time(`filter (qty <= ${k}) copying + group-by`, () => runFilteredGroupBy(k, false));
  const fused = time(`filter (qty <= ${k}) fused into the group-by`, () => runFilteredGroupBy(k, true));
  console.log(`late materialization, qty <= ${k}: fused ${(copy / fused).toFixed(2)}x faster than copying`);
}
if (!process.argv.includes('--no-extras')) {
  time(`group-by ${NP / 1e6}M rows, ${NB / 1e6}M int groups, 2 aggs`, runHighCardGroupBy);
  time(`sort ${NP / 1e6}M rows by one DOUBLE key`, () => runSort());
  time(`top-10 of ${NP / 1e6}M rows by one DOUBLE key`, () => runSort(10));
}

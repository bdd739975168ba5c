/**
 * Micro-benchmark of a big GROUP BY over keys clustered in the input (kernels/hash-sorted.ts):
 * TPC-H Q18's inner aggregate, `sum(l_quantity) GROUP BY l_orderkey` — 6M rows, runs of 1–7 equal
 * INTEGER keys, 1.5M groups — in three input orders:
 * - ascending: the table order (a parallel worker's contiguous key range);
 * - interleaved: 64K-row batches read 0, 64, 128, ..., 1, 65, ... (a memory table's 64 partitions
 *   read one after another at parallelism 1);
 * - shuffled batches of scattered keys: no order at all (the hashed path, for comparison).
 * For each: KeyTable.groupIds alone, and the whole hash aggregate (group ids, the DOUBLE sum,
 * the output batches) with the planner's group estimate. CPU medians (process.cpuUsage) over
 * `--runs` runs after one warm-up, and the GCs the aggregate runs caused.
 *
 *   node --expose-gc --import tsx bench/sorted-groups.ts [--runs 7]
 */
import { PerformanceObserver } from 'node:perf_hooks';
import { RecordBatch, makeData, type Data } from 'apache-arrow';
import { batchFromColumns } from '../src/exec/batch.js';
import { KeyTable } from '../src/exec/kernels/hash.js';
import type { OperatorContext } from '../src/exec/operator.js';
import { hashAggregate } from '../src/exec/operators/hash-aggregate.js';
import type { AggCall } from '../src/relnode/rel.js';
import { field, schemaOf, toArrowType } from '../src/relnode/types.js';

const runsAt = process.argv.indexOf('--runs');
const RUNS = runsAt > 0 ? Number(process.argv[runsAt + 1]) : 7;
const B = 65536;
const N = 6_000_000;

/** Ascending keys 4, 8, 12, ... in runs of 1–7 rows (lineitem's l_orderkey shape). */
const keys = new Int32Array(N);
for (let i = 0, g = 1; i < N; g++) for (let r = 1 + ((Math.imul(g, 0x9e3779b1) >>> 0) % 7); r > 0 && i < N; r--) keys[i++] = 4 * g;
const qty = new Float64Array(N);
for (let i = 0; i < N; i++) qty[i] = 1 + ((i * 7919) % 50);
const groups = new Set(keys).size;

const IN = schemaOf([field('k', 'INTEGER'), field('q', 'DOUBLE')]);
const OUT = schemaOf([field('k', 'INTEGER'), field('s', 'DOUBLE')]);
const col = (type: 'INTEGER' | 'DOUBLE', v: Int32Array | Float64Array): Data => makeData({ type: toArrowType(type) as never, length: v.length, nullCount: 0, data: v as never });

function batches(k: Int32Array): RecordBatch[] {
  const out: RecordBatch[] = [];
  for (let o = 0; o < N; o += B) {
    const len = Math.min(B, N - o);
    out.push(batchFromColumns(IN, [col('INTEGER', k.subarray(o, o + len)), col('DOUBLE', qty.subarray(o, o + len))], len));
  }
  return out;
}

const ascending = batches(keys);
const interleaved: RecordBatch[] = [];
for (let p = 0; p < 64; p++) for (let b = p; b < ascending.length; b += 64) interleaved.push(ascending[b]!);
const scattered = new Int32Array(N);
// Group g's key becomes 4 × (g × 7919 mod P) for a prime P above the groups: distinct keys, scattered.
const P = 1_500_007;
for (let i = 0; i < N; i++) scattered[i] = 4 * (((keys[i]! >> 2) * 7919) % P);
const shuffled = batches(scattered);

const ctx = (emitted: { rows: number }): OperatorContext => ({
  name: 'bench', subtaskIndex: 0, parallelism: 1, batchSize: B, outputSchema: OUT, inputSchemas: [IN],
  emit: (b) => { emitted.rows += b.numRows; }, markInputSatisfied: () => {}, cancelled: false,
  defer: (step) => { while (step()); }, hasPendingOutput: false, epoch: 0, mayHaveMoreEpochs: () => false, inIteration: false,
  metrics: { rowsIn: 0, batchesIn: 0, rowsOut: 0, batchesOut: 0, timeMs: 0 },
  reserveMemory: () => {}, releaseMemory: () => {},
  emitTo: () => { throw new Error('no side outputs'); }, emitWatermark: () => { throw new Error('no watermarks'); },
  post: (task) => task(), shared: () => { throw new Error('no shared objects'); },
});

const SUM: AggCall = { fn: 'sum', args: [1], distinct: false, type: 'DOUBLE', name: 's' };
let gcs = 0;
new PerformanceObserver((l) => { gcs += l.getEntries().length; }).observe({ entryTypes: ['gc'] });

function keyTable(input: RecordBatch[]): number {
  const t = new KeyTable(['INTEGER']);
  const out = new Int32Array(B);
  for (const b of input) t.groupIds([b.data.children[0]!], b.numRows, out);
  return t.size;
}

function aggregate(input: RecordBatch[]): number {
  const emitted = { rows: 0 };
  const op = hashAggregate({ groupKeys: [0], aggCalls: [SUM], expectedGroups: groups });
  op.open(ctx(emitted));
  for (const b of input) op.processBatch(0, b, 0);
  op.finish();
  op.close();
  return emitted.rows;
}

const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 5));
const cpu = async (f: () => number): Promise<{ ms: number; gcs: number }> => {
  (globalThis as { gc?: () => void }).gc?.();
  await tick();
  const g0 = gcs;
  const c0 = process.cpuUsage();
  const got = f();
  const c = process.cpuUsage(c0);
  if (got !== groups) throw new Error(`${got} groups, expected ${groups}`);
  // GC entries are delivered asynchronously.
  await tick();
  return { ms: (c.user + c.system) / 1000, gcs: gcs - g0 };
};
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

const cases: [string, () => number][] = [];
for (const [name, input] of [['ascending', ascending], ['interleaved', interleaved], ['shuffled', shuffled]] as const) {
  cases.push([`KeyTable.groupIds, ${name}`, () => keyTable(input)], [`hash aggregate sum, ${name}`, () => aggregate(input)]);
}
const ms = cases.map(() => [] as number[]);
const gc = cases.map(() => [] as number[]);
const only = process.env.ONLY;
for (let r = 0; r <= RUNS; r++) {
  for (let i = 0; i < cases.length; i++) {
    if (only !== undefined && !cases[i]![0].includes(only)) continue;
    const m = await cpu(cases[i]![1]);
    if (r > 0) { ms[i]!.push(m.ms); gc[i]!.push(m.gcs); }
  }
}
console.log(`${N} rows, ${groups} groups, batches of ${B}; CPU ms medians of ${RUNS} runs; load ${(await import('node:os')).loadavg()[0]!.toFixed(1)}`);
cases.forEach(([name], i) => ms[i]!.length > 0 && console.log(`${name.padEnd(42)} ${median(ms[i]!).toFixed(0).padStart(6)} ms   gcs ${median(gc[i]!)}`));

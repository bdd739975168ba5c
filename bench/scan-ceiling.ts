/**
 * The two-thread ceiling of a memory-bound scan on this machine (docs/multi-core-history.md,
 * session 13, "Per-row cost on the workers"): TPC-H Q6 as one hand-written loop (no engine) over lineitem's four Q6 columns in
 * SharedArrayBuffers, run
 *   - `p1`: on the calling thread over every batch;
 *   - `half-here` / `half-worker`: one half of the batches alone, on the calling thread or on a
 *     worker thread (the same loop's per-row cost on either thread, one busy thread);
 *   - `p2`: both halves at once, the calling thread one and a worker the other (what a stage at
 *     parallelism 2 with the calling thread's share can reach at best).
 * Halves are dealt `--deal stride` (batches 0, 2, 4, ... / 1, 3, 5, ...) or `contiguous` (the
 * first / second half). Each mode alternates with the others run by run; medians of wall time
 * and of each thread's CPU (thread-cpu.ts). Quote the load average: wall times under load are noise.
 *
 *   node --expose-gc --import tsx bench/scan-ceiling.ts --data /work/bench-data [--runs 21] [--deal stride|contiguous]
 */
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import type { Data } from 'apache-arrow';
import { TableEnvironment } from '../src/api/environment.js';
import { threadCpuMs } from '../src/exec/workers/thread-cpu.js';
import { median } from './lib/timing.js';

const { values } = parseArgs({ options: { data: { type: 'string' }, runs: { type: 'string', default: '21' }, deal: { type: 'string', default: 'stride' } } });
if (values.data === undefined) throw new Error('--data dir (with sf-1/lineitem.arrow) is required');
const RUNS = Number(values.runs);
const DAY_MS = 86_400_000;
const LO = Date.parse('1994-01-01T00:00:00Z') / DAY_MS;
const HI = Date.parse('1995-01-01T00:00:00Z') / DAY_MS;

/** One batch's four Q6 columns, in shared memory: [shipdate, discount, quantity, extendedprice]. */
type Cols = [Int32Array, Float64Array, Float64Array, Float64Array];

function shared<T extends Int32Array | Float64Array>(d: Data, make: (b: SharedArrayBuffer) => T, bytes: number): T {
  const out = make(new SharedArrayBuffer(d.length * bytes));
  out.set((d.values as T).subarray(d.offset, d.offset + d.length) as never);
  return out;
}

// The loop as source text, so the worker runs the very same function (no module loader there).
const LOOP = `function q6(batches, lo, hi) {
  let revenue = 0;
  for (const [ship, disc, qty, price] of batches) {
    const n = ship.length;
    for (let i = 0; i < n; i++) {
      const s = ship[i], d = disc[i];
      if (s >= lo && s < hi && d >= 0.05 && d <= 0.07 && qty[i] < 24) revenue += price[i] * d;
    }
  }
  return revenue;
}`;
const q6 = new Function(`return ${LOOP}`)() as (b: readonly Cols[], lo: number, hi: number) => number;

const WORKER = `
const { parentPort } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
const cpu = () => Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
const q6 = ${LOOP};
let batches;
parentPort.on('message', (m) => {
  if (m.batches) { batches = m.batches; parentPort.postMessage({ ready: true }); return; }
  const c0 = cpu();
  const revenue = q6(batches, m.lo, m.hi);
  parentPort.postMessage({ revenue, cpu: cpu() - c0 });
});`;

async function main(): Promise<void> {
  const env = TableEnvironment.create({ parallelism: 1 });
  const lineitem = await (await env.fromArrowFile(join(values.data!, 'sf-1', 'lineitem.arrow'))).collect();
  await env.close();
  const at = (name: string): number => lineitem.schema.fields.findIndex((f) => f.name === name);
  const [iS, iD, iQ, iP] = ['l_shipdate', 'l_discount', 'l_quantity', 'l_extendedprice'].map(at) as [number, number, number, number];
  const all: Cols[] = lineitem.batches.map((b) => {
    const ch = b.data.children as Data[];
    const f64 = (b2: SharedArrayBuffer): Float64Array => new Float64Array(b2);
    return [shared(ch[iS]!, (b2) => new Int32Array(b2), 4), shared(ch[iD]!, f64, 8), shared(ch[iQ]!, f64, 8), shared(ch[iP]!, f64, 8)];
  });
  const half = values.deal === 'contiguous'
    ? [all.slice(0, all.length >> 1), all.slice(all.length >> 1)]
    : [all.filter((_, i) => i % 2 === 0), all.filter((_, i) => i % 2 === 1)];
  const worker = new Worker(WORKER, { eval: true });
  const reply = (): Promise<{ revenue: number; cpu: number; ready?: boolean }> => new Promise((r) => worker.once('message', r));
  worker.postMessage({ batches: half[1] });
  await reply();
  const onWorker = async (): Promise<{ revenue: number; cpu: number }> => { const p = reply(); worker.postMessage({ lo: LO, hi: HI }); return p; };
  const here = (bs: readonly Cols[]): { revenue: number; cpu: number } => { const c0 = threadCpuMs()!; const revenue = q6(bs, LO, HI); return { revenue, cpu: threadCpuMs()! - c0 }; };
  const modes: Record<string, () => Promise<{ cpu: number[]; revenue: number }>> = {
    p1: async () => { const r = here(all); return { cpu: [r.cpu], revenue: r.revenue }; },
    'half-here': async () => { const r = here(half[0]!); return { cpu: [r.cpu], revenue: r.revenue }; },
    'half-worker': async () => { const r = await onWorker(); return { cpu: [r.cpu], revenue: r.revenue }; },
    p2: async () => { const w = onWorker(); const h = here(half[0]!); const r = await w; return { cpu: [h.cpu, r.cpu], revenue: h.revenue + r.revenue }; },
  };
  const load0 = loadavg()[0]!;
  const got: Record<string, { wall: number[]; cpu: number[][] }> = {};
  for (let r = -3; r < RUNS; r++) {
    for (const [name, f] of Object.entries(modes)) {
      (globalThis as { gc?: () => void }).gc?.();
      const t0 = performance.now();
      const res = await f();
      const wall = performance.now() - t0;
      if (r < 0) continue; // warm-up
      const g = (got[name] ??= { wall: [], cpu: [] });
      g.wall.push(wall);
      res.cpu.forEach((c, i) => (g.cpu[i] ??= []).push(c));
    }
  }
  worker.terminate();
  console.log(`lineitem ${lineitem.numRows} rows, ${all.length} batches; deal ${values.deal}; ${RUNS} runs after 3 warm-ups; load ${load0.toFixed(1)} -> ${loadavg()[0]!.toFixed(1)}`);
  console.log('| mode | wall ms | CPU ms per thread |\n| --- | ---: | --- |');
  for (const [name, g] of Object.entries(got)) console.log(`| ${name} | ${median(g.wall).toFixed(1)} | ${g.cpu.map((c) => median(c).toFixed(1)).join(' + ')} |`);
  const p1 = median(got.p1!.wall);
  console.log(`p1 / p2 wall: ${(p1 / median(got.p2!.wall)).toFixed(2)}x`);
}

main().catch((e: unknown) => { console.error(e); process.exit(1); });
